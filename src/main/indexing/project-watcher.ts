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
import { loadConfig } from "../config/loader.js";
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
  /** How often to look for another process's index run (ms); default INDEX_RUN_CHECK_MS. */
  indexRunCheckMs?: number;
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
      // A config that does not load (half-edited JSON) keeps the patterns in force.
      projectPatterns: () => {
        try {
          return loadConfig({ projectRoot: indexer.root }).config.project.ignorePatterns;
        } catch {
          return null;
        }
      },
      store,
      debounceMs: opts.debounceMs ?? indexer.config.watchdog.debounceMs,
      ...(opts.indexRunCheckMs ? { indexRunCheckMs: opts.indexRunCheckMs } : {}),
      // The index dropped under it (`ipuaro index --drop`): the project is indexed again, as `ipuaro index` would.
      rebuild: async () => {
        await indexer.scanAndIndex();
      },
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

  /** Paths changed on disk that the index has not taken in yet (a branch switch: thousands, for seconds). */
  get backlog(): number {
    return this.live.backlog;
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
