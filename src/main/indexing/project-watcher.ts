// The live index as a service of the main process: `ipuaro index --watch` and the TUI start one per
// project. It shares the indexer's ignore rules and worker pool, reports every update with its origin
// (ipuaro's own registered writes vs anyone else's), and survives Redis outages by queueing writes.
import { analyticsEventsFor, recordExternalChanges } from "../shadow/events-recorder.js";
import { LiveIndex, type LiveIndexEvent } from "../../pipeline/watch/live-index.js";
import type { WatchStorePort } from "../../pipeline/watch/watch-store-port.js";
import { errorMessage, IpuaroError, isIpuaroError } from "../errors.js";
import { reconnectRedis, type Redis } from "../store/index.js";
import { ProjectStore } from "../store/project-store.js";
import { OwnWrites } from "./own-writes.js";
import type { ProjectIndexer } from "./project-indexer.js";

export type { ChangeOrigin, FileUpdateEvent, BatchSummary } from "../../pipeline/watch/live-index.js";

export type ProjectWatchEvent = Exclude<LiveIndexEvent, { type: "error" }> | { type: "error"; error: IpuaroError; retryInMs: number };

export interface ProjectWatcherOptions {
  indexer: ProjectIndexer;
  /** The connection behind the indexer's store: graph deltas and reconnects go through it. */
  redis: Redis;
  /** Shared with ipuaro's edit tools; a fresh registry by default. */
  ownWrites?: OwnWrites;
  /** Default: config watchdog.debounceMs. */
  debounceMs?: number;
}

/** The store as the live index sees it: ProjectStore plus a reconnect for the retry loop. */
class LiveProjectStore extends ProjectStore implements WatchStorePort {
  reconnect(): Promise<void> {
    return reconnectRedis(this.redis);
  }
}

function asIpuaroError(error: unknown): IpuaroError {
  if (isIpuaroError(error)) return error;
  return new IpuaroError("file", `watcher: ${errorMessage(error)}`, { cause: error });
}

export class ProjectWatcher {
  readonly ownWrites: OwnWrites;
  readonly root: string;
  private readonly live: LiveIndex;
  private readonly listeners = new Set<(e: ProjectWatchEvent) => void>();
  private started = false;

  constructor(opts: ProjectWatcherOptions) {
    const { indexer } = opts;
    this.root = indexer.root;
    this.ownWrites = opts.ownWrites ?? new OwnWrites();
    const store = new LiveProjectStore({ redis: opts.redis, project: indexer.store.projectName });
    this.live = new LiveIndex({
      root: indexer.root,
      rules: indexer.rules,
      pool: indexer.pool,
      binaryExtensions: indexer.binaryExtensions,
      ignorePatterns: indexer.config.project.ignorePatterns,
      store,
      debounceMs: opts.debounceMs ?? indexer.config.watchdog.debounceMs,
      origin: (p, hash) => (this.ownWrites.claim(p, hash) ? "ipuaro" : "external"),
      onEvent: (e) => this.emit(e.type === "error" ? { ...e, error: asIpuaroError(e.error) } : e),
    });
    // Project analytics (seed 001) learn about changes made outside ipuaro, e.g. a human fixing an agent edit.
    this.on(recordExternalChanges(analyticsEventsFor(store, indexer.root)));
  }

  /** Adds a listener; returns its removal. */
  on(listener: (e: ProjectWatchEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: ProjectWatchEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        // A failing listener must not take the watcher down.
      }
    }
  }

  /** Subscribes to file events without handling them yet (call before a full index run). */
  listen(): Promise<void> {
    return this.live.listen();
  }

  /** Loads the index into memory and keeps it live. Throws IpuaroError('redis') when Redis is unreachable. */
  async start(): Promise<void> {
    await this.live.start();
    this.started = true;
  }

  get running(): boolean {
    return this.started;
  }

  /** Resolves when no batch is running or waiting. */
  idle(): Promise<void> {
    return this.live.idle();
  }

  /** Unsubscribes, waits for the running batch and lands queued writes when Redis allows. */
  async stop(): Promise<void> {
    this.started = false;
    await this.live.stop();
  }
}

/** One log line per event for `ipuaro index --watch`; null = nothing worth a line. */
export function formatWatchEvent(e: ProjectWatchEvent): string | null {
  const ms = (n: number) => `${Math.round(n)} ms`;
  switch (e.type) {
    case "created":
    case "updated":
    case "deleted":
    case "ignored": {
      const why = e.reason === "nonUtf8" ? ", not UTF-8" : e.reason === "unreadable" ? ", unreadable" : "";
      return `${e.type} ${e.path} (${ms(e.ms)}${why}${e.origin === "ipuaro" ? ", by ipuaro" : ""})`;
    }
    case "renamed":
      return `renamed ${e.from} → ${e.path} (${ms(e.ms)}${e.origin === "ipuaro" ? ", by ipuaro" : ""})`;
    case "batch":
      if (e.files < 10 && !e.graphRebuilt) return null;
      return `batch: ${e.files} files changed, ${e.parsed} parsed, ${e.removed} removed${e.graphRebuilt ? ", graph rebuilt" : ""} in ${ms(e.ms)}`;
    case "ready":
      return `watching ${e.files} indexed files (loaded in ${ms(e.ms)}); Ctrl+C to stop`;
    case "error":
      return `error: ${e.error.message}${e.retryInMs > 0 ? `; retrying in ${(e.retryInMs / 1000).toFixed(1)} s` : ""}`;
    case "recovered":
      return "Redis is back: queued index writes landed";
  }
}

const DUPLICATE_SIGNAL_MS = 500;

/** `ipuaro index --watch`: logs updates until SIGINT/SIGTERM, then shuts the watcher down cleanly. */
export async function watchUntilInterrupted(watcher: ProjectWatcher, opts: { json: boolean; out: NodeJS.WritableStream; err: NodeJS.WritableStream }): Promise<void> {
  const off = watcher.on((e) => {
    if (opts.json) {
      const line = e.type === "error" ? { type: "error", message: e.error.message, suggestion: e.error.suggestion, retryInMs: e.retryInMs } : e;
      opts.out.write(`${JSON.stringify(line)}\n`);
      return;
    }
    const line = formatWatchEvent(e);
    if (line) (e.type === "error" || e.type === "ready" || e.type === "recovered" ? opts.err : opts.out).write(`${line}\n`);
  });
  // The first signal stops cleanly. A launcher (npx, tsx) may relay the terminal's Ctrl+C a moment
  // later, so a repeat within DUPLICATE_SIGNAL_MS is the same keypress; a later one quits at once.
  let firstSignalAt = 0;
  let requestStop: () => void = () => {};
  const stopRequested = new Promise<void>((resolve) => (requestStop = resolve));
  const onSignal = () => {
    const now = Date.now();
    if (!firstSignalAt) {
      firstSignalAt = now;
      requestStop();
    } else if (now - firstSignalAt > DUPLICATE_SIGNAL_MS) process.exit(130);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    await watcher.start();
    await stopRequested;
    if (!opts.json) opts.err.write("stopping… (Ctrl+C again to quit at once)\n");
  } finally {
    await watcher.stop();
    off();
    // Still swallowing a relayed duplicate while the caller releases Redis; gone after that.
    const detach = () => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    };
    if (firstSignalAt) setTimeout(detach, DUPLICATE_SIGNAL_MS).unref();
    else detach();
  }
}
