// The live index: the OS watcher feeds the scheduler, each batch goes through the incremental updater,
// its writes land in Redis in order, and typed events report every file update and batch. A Redis
// outage never stops it: writes stay queued and are replayed, with an `error` event per failed attempt.
import type { IgnoreRules } from "../ignore-rules.js";
import type { IndexWorkerPool } from "../worker-pool.js";
import { BatchScheduler, type BatchRunOutcome } from "./batch-scheduler.js";
import type { PendingChange } from "./event-coalescer.js";
import { IncrementalUpdater, loadIndexState, type BatchResult } from "./incremental-updater.js";
import { watchTree, type TreeWatch } from "./parcel-source.js";
import type { FileUpdate } from "./record-outcome.js";
import type { WatchStorePort } from "./watch-store-port.js";
import { WriteQueue } from "./write-queue.js";

/** Who changed a file: ipuaro's own edit tools (registered beforehand) or anyone else. */
export type ChangeOrigin = "ipuaro" | "external";

export type FileUpdateEvent = Omit<FileUpdate, "since"> & {
  origin: ChangeOrigin;
  /** Work of the batch that carried it: planning, workers, graph, writes (ms). */
  ms: number;
  /** From the first file-system event for this path to its writes landing in Redis (ms). */
  latencyMs: number;
};

export interface BatchSummary {
  type: "batch";
  /** Paths changed in this batch (updates reported). */
  files: number;
  checked: number;
  parsed: number;
  removed: number;
  resolved: number;
  graphRebuilt: boolean;
  /** Total work (ms) = workMs + writeMs. */
  ms: number;
  workMs: number;
  writeMs: number;
  stages: BatchResult["stages"];
}

export type LiveIndexEvent =
  | FileUpdateEvent
  | BatchSummary
  | { type: "ready"; files: number; graphFiles: number; ms: number }
  | { type: "error"; error: unknown; retryInMs: number }
  | { type: "recovered" };

export interface LiveIndexOptions {
  root: string;
  rules: IgnoreRules;
  pool: IndexWorkerPool;
  binaryExtensions: string[];
  ignorePatterns: readonly string[];
  store: WatchStorePort;
  debounceMs: number;
  onEvent(event: LiveIndexEvent): void;
  origin?: (path: string, hash: string | null) => ChangeOrigin;
}

interface HeldBatch {
  result: BatchResult;
  origins: ChangeOrigin[];
}

export class LiveIndex {
  private readonly writes = new WriteQueue();
  private readonly scheduler: BatchScheduler;
  private watch: TreeWatch | null = null;
  private updater: IncrementalUpdater | null = null;
  /** Batches computed but whose writes have not landed (Redis down): reported once they do. */
  private held: HeldBatch[] = [];
  private reparse = new Set<string>();

  constructor(private readonly opts: LiveIndexOptions) {
    this.scheduler = new BatchScheduler({
      debounceMs: opts.debounceMs,
      run: (changes) => this.runBatch(changes),
      onRetry: (error, retryInMs) => opts.onEvent({ type: "error", error, retryInMs }),
    });
  }

  /**
   * Subscribes to the OS watcher; events are collected but not handled until start(). Call it before a
   * full index run so that nothing written during the run is missed.
   */
  async listen(): Promise<void> {
    if (this.watch) return;
    this.watch = await watchTree(this.opts.root, {
      ignorePatterns: this.opts.ignorePatterns,
      onChanges: (changes) => this.scheduler.push(changes),
      onError: (error) => this.opts.onEvent({ type: "error", error, retryInMs: 0 }),
    });
  }

  /** listen(), then load the index into memory and start handling events. */
  async start(): Promise<void> {
    const started = performance.now();
    const { root, rules, pool, binaryExtensions, store } = this.opts;
    await this.listen();
    try {
      const { known, graph } = await loadIndexState(root, store);
      const watchFolders = (rels: string[]) => this.watch?.watchFolders(rels) ?? Promise.resolve();
      const pruneWatch = () => this.watch?.prune() ?? Promise.resolve();
      this.updater = new IncrementalUpdater({ root, rules, pool, binaryExtensions, store, writes: this.writes, watchFolders, pruneWatch }, known, graph);
      this.opts.onEvent({ type: "ready", files: known.size, graphFiles: graph.size, ms: performance.now() - started });
    } catch (err) {
      await this.watch?.close();
      this.watch = null;
      throw err;
    }
    this.scheduler.resume();
  }

  /** For tests and the bench: resolves when no batch runs and no event waits. */
  idle(): Promise<void> {
    return this.scheduler.idle();
  }

  private async runBatch(changes: Map<string, PendingChange>): Promise<BatchRunOutcome> {
    const updater = this.updater;
    if (!updater) throw new Error("the live index is not started");
    if (this.held.length) {
      // Redis was down: replay the queued writes before anything new.
      await this.opts.store.reconnect();
      await this.writes.flush();
      const held = this.held;
      this.held = [];
      this.opts.onEvent({ type: "recovered" });
      for (const h of held) this.report(h, 0);
    }
    const reparse = this.reparse;
    this.reparse = new Set();
    const result = await updater.runBatch(changes, reparse);
    const origins = result.updates.map((u) => {
      const origin = this.opts.origin?.(u.path, u.hash) ?? "external";
      // An own rename registers both ends; the old path's registration is consumed with it.
      if (u.type === "renamed" && u.from) this.opts.origin?.(u.from, null);
      return origin;
    });
    for (const p of result.reparse) this.reparse.add(p);
    if (result.failed.length) {
      this.scheduler.push(result.failed.map((path) => ({ path, type: "update" as const })));
      this.opts.onEvent({ type: "error", error: result.taskError, retryInMs: this.opts.debounceMs });
    }
    const writeStart = performance.now();
    try {
      await this.writes.flush();
    } catch (error) {
      this.held.push({ result, origins });
      return { retryAfter: { error } };
    }
    this.report({ result, origins }, performance.now() - writeStart);
    if (this.reparse.size) this.scheduler.poke();
    return {};
  }

  private report({ result, origins }: HeldBatch, writeMs: number): void {
    const landed = performance.now();
    const ms = result.workMs + writeMs;
    result.updates.forEach((u, i) => {
      const { since, ...rest } = u;
      this.opts.onEvent({ ...rest, origin: origins[i] ?? "external", ms, latencyMs: landed - since });
    });
    this.opts.onEvent({
      type: "batch",
      files: result.updates.length,
      checked: result.checked,
      parsed: result.parsed,
      removed: result.removed,
      resolved: result.resolved,
      graphRebuilt: result.graphRebuilt,
      ms,
      workMs: result.workMs,
      writeMs,
      stages: result.stages,
    });
  }

  /** Unsubscribes, lets a running batch finish, and tries once more to land queued writes. */
  async stop(): Promise<void> {
    await this.watch?.close();
    this.watch = null;
    await this.scheduler.stop();
    if (this.writes.pending) {
      try {
        await this.writes.flush();
      } catch (error) {
        this.opts.onEvent({ type: "error", error, retryInMs: -1 });
      }
    }
  }
}
