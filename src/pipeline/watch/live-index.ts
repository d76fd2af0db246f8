// The live index: the OS watcher feeds the scheduler, each batch goes through the incremental updater,
// its writes land in Redis in order, and typed events report every file update and batch. A Redis
// outage never stops it: writes stay queued and are replayed, with an `error` event per failed attempt.
// When another index run writes the index (index-run-mark.ts), it reloads the index and re-checks the
// files it updated itself while that run went on. When the index is dropped under it (`ipuaro index
// --drop`), it says so and has the whole project indexed again (LiveIndexOptions.rebuild).
import type { IgnoreRules } from "../ignore-rules.js";
import { parseIndexRunMark } from "../index-run-mark.js";
import type { IndexWorkerPool } from "../worker-pool.js";
import { BatchScheduler, type BatchRunOutcome } from "./batch-scheduler.js";
import type { PendingChange } from "./event-coalescer.js";
import { IncrementalUpdater, loadIndexState, type BatchResult } from "./incremental-updater.js";
import type { KnownFileState } from "../../workers/protocol.js";
import type { GraphState } from "./graph-state.js";
import { watchTree, type TreeWatch } from "./parcel-source.js";
import type { WatchStorePort } from "./watch-store-port.js";
import { WriteQueue } from "./write-queue.js";
import { landedBatchEvents, type ChangeOrigin, type LiveIndexEvent } from "./live-index-events.js";
import { LandedUpdates } from "./landed-updates.js";
import { RootWatch } from "./root-watch.js";

export type { BatchSummary, ChangeOrigin, FileUpdateEvent, LiveIndexEvent } from "./live-index-events.js";

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
  /** How often to look for an index run by another process (ms). Default INDEX_RUN_CHECK_MS. */
  indexRunCheckMs?: number;
  /** The project's ignorePatterns as its config says now (null: unreadable); read when .ipuaro.json changes. */
  projectPatterns?: () => string[] | null;
  /**
   * A full index run of the project (the indexer's), for an index dropped under the live index; it
   * writes a new index run mark. Without it, a dropped index is left as it is.
   */
  rebuild?: () => Promise<void>;
}

/** How often a live index looks at the index run mark when no batch does (one HGET). */
export const INDEX_RUN_CHECK_MS = 2000;
/**
 * Files updated this long before another run began are re-checked too: the run's start is another
 * process's clock reading, and a batch's time is taken when its writes have landed.
 */
const RUN_START_SLACK_MS = 2000;

/**
 * A batch of this many changed paths is a burst (a branch switch, a stash, a reset), and a burst is
 * followed by a reconciling batch that compares the whole tree with the index. @parcel/watcher can drop
 * events under such a load: it ignores inotify's queue overflow, and a burst arriving while it hands a
 * window to JS can be cleared unseen (parcel-bundler/watcher#183). Seen here once: a checkout of 10K
 * changed files under load left 1,042 of them stale, with the watcher idle and no error. The comparison
 * costs a walk and an lstat per file (~0.15 s on 12K files), after batches that took seconds.
 */
export const BURST_PATHS = 256;

interface HeldBatch {
  result: BatchResult;
  origins: ChangeOrigin[];
  /** A reconciliation with no events of its own: the scheduler announced nothing (see report). */
  unannounced?: boolean;
}

export class LiveIndex {
  private readonly writes = new WriteQueue();
  private readonly scheduler: BatchScheduler;
  private watch: TreeWatch | null = null;
  private updater: IncrementalUpdater | null = null;
  /** Batches computed but whose writes have not landed (Redis down): reported once they do. */
  private held: HeldBatch[] = [];
  private reparse = new Set<string>();
  /** The index run mark the loaded state came from (raw, as stored). */
  private loadedRun: string | null = null;
  /** Paths this live index updated, and when their writes landed. */
  private readonly handled = new LandedUpdates();
  private runCheck: NodeJS.Timeout | null = null;
  /** The project folder the OS watcher is subscribed to, looked at for removal (root-watch.ts). */
  private readonly rootWatch: RootWatch;
  /** Subscriptions made: an error from an older one (a folder replaced since) is not said. */
  private subscriptions = 0;
  /** A `dropped` was said and the rebuild has not succeeded yet (it is not said again on retries). */
  private rebuilding = false;
  /** A burst was taken in: the next batch compares the whole tree with the index (BURST_PATHS). */
  private reconcileWanted = false;

  constructor(private readonly opts: LiveIndexOptions) {
    this.rootWatch = new RootWatch(opts.root, opts.indexRunCheckMs ?? INDEX_RUN_CHECK_MS, {
      onEvent: (event) => opts.onEvent(event),
      resubscribe: () => this.resubscribe(),
      back: (names) => {
        // What the old folder held and the new one lacks has no event either: the next batch compares the
        // whole tree with the index.
        this.reconcileWanted = true;
        this.scheduler.push(names.map((path) => ({ path, type: "create" as const })));
        this.scheduler.poke();
      },
    });
    this.scheduler = new BatchScheduler({
      debounceMs: opts.debounceMs,
      run: (changes) => this.runBatch(changes),
      onRetry: (error, retryInMs) => opts.onEvent({ type: "error", error, retryInMs }),
      onStart: (paths) => opts.onEvent({ type: "updating", paths }),
    });
  }

  /** Paths changed on disk that the index has not taken in yet. */
  get backlog(): number {
    // A large file handed to the background is still in its batch until that batch ends: counted once.
    const background = this.updater?.backgroundPaths.filter((p) => !this.scheduler.isRunning(p)).length ?? 0;
    return this.scheduler.backlog + background;
  }

  /**
   * Subscribes to the OS watcher; events are collected but not handled until start(). Call it before a
   * full index run so that nothing written during the run is missed.
   */
  async listen(): Promise<void> {
    if (this.watch) return;
    this.watch = await this.subscribe(this.opts.ignorePatterns);
  }

  private subscribe(ignorePatterns: readonly string[]): Promise<TreeWatch> {
    const subscription = ++this.subscriptions;
    // Taken before subscribing: a folder replaced in between is found different by the next check.
    this.rootWatch.hold();
    return watchTree(this.opts.root, {
      ignorePatterns,
      onChanges: (changes) => this.scheduler.push(changes),
      onError: (error) => {
        if (subscription !== this.subscriptions) return; // the old folder's subscription, replaced already
        this.opts.onEvent({ type: "error", error, retryInMs: 0 });
        // The folder it watched may be gone or replaced: looked at now rather than at the next check.
        if (this.runCheck) void this.rootWatch.look();
      },
    });
  }

  /**
   * The OS watcher leaves out what the patterns ignored when it subscribed: with a pattern dropped from
   * .ipuaro.json, the folder it hid would go unwatched. Subscribed again with the new list (the batch
   * that noticed has swept the tree already).
   */
  private async resubscribe(): Promise<void> {
    const old = this.watch;
    // Closed first: parcel shares one watcher per (folder, ignore list), and a subscription made while
    // the old one lived got the old, dead one back. Its folder may be gone: closing can only fail.
    this.watch = null;
    await old?.close().catch(() => {});
    this.watch = await this.subscribe(this.opts.rules.ignorePatterns);
  }

  /** listen(), then load the index into memory and start handling events. */
  async start(): Promise<void> {
    const started = performance.now();
    await this.listen();
    try {
      // Read before the state: a run that writes meanwhile is noticed by the next check.
      this.loadedRun = await this.opts.store.lastIndexRun();
      const { known, graph } = await loadIndexState(this.opts.root, this.opts.store);
      this.updater = this.newUpdater(known, graph);
      this.opts.onEvent({ type: "ready", files: known.size, graphFiles: graph.size, ms: performance.now() - started });
    } catch (err) {
      await this.watch?.close();
      this.watch = null;
      this.rootWatch.release();
      throw err;
    }
    this.scheduler.resume();
    this.runCheck = setInterval(() => {
      void this.lookForIndexRun();
      void this.rootWatch.look();
    }, this.opts.indexRunCheckMs ?? INDEX_RUN_CHECK_MS);
    this.runCheck.unref();
  }

  private newUpdater(known: Map<string, KnownFileState>, graph: GraphState): IncrementalUpdater {
    const { root, rules, pool, binaryExtensions, store, projectPatterns } = this.opts;
    const watchFolders = (rels: string[]) => this.watch?.watchFolders(rels) ?? Promise.resolve();
    const pruneWatch = () => this.watch?.prune() ?? Promise.resolve();
    // A large file's parse ended: a batch applies it (events or not).
    const onBackgroundDone = () => {
      if (this.updater === updater) this.scheduler.poke();
    };
    const updater = new IncrementalUpdater(
      { root, rules, pool, binaryExtensions, store, writes: this.writes, watchFolders, pruneWatch, onBackgroundDone, ...(projectPatterns ? { projectPatterns } : {}) },
      known,
      graph,
    );
    return updater;
  }

  /** Between batches: a new mark gets a batch (which reloads) even when no file changes. */
  private async lookForIndexRun(): Promise<void> {
    let run: string | null;
    try {
      run = await this.opts.store.lastIndexRun();
    } catch {
      return; // Redis trouble is reported by the batches
    }
    if (this.isNewRun(run) || (await this.indexDropped(run).catch(() => false))) this.scheduler.poke();
  }

  /**
   * The index was dropped under the live index (`ipuaro index --drop`; a server that lost its data looks
   * the same): no mark where one was loaded, or, for an index an older ipuaro wrote without one, no
   * files while the live index knows some. Not while an index run holds the lease: a run that resets the
   * schema writes its mark when it lands.
   */
  private async indexDropped(run: string | null): Promise<boolean> {
    if (run !== null || !this.opts.rebuild || !this.updater?.known.size) return false;
    if (this.loadedRun === null && (await this.opts.store.fileCount()) > 0) return false;
    return !(await this.opts.store.indexRunHeld());
  }

  /**
   * Says the index was dropped, has the project indexed again, and reloads what that run stored. Run
   * after the batch that noticed: its changes are worked out (and reported) against the state they
   * changed, and the run reads them again. What the reload asks to re-check goes to the next batch.
   */
  private async rebuild(): Promise<void> {
    if (!this.rebuilding) this.opts.onEvent({ type: "dropped", files: this.updater?.known.size ?? 0 });
    this.rebuilding = true;
    await (this.opts.rebuild as () => Promise<void>)();
    const recheck = new Map<string, PendingChange>();
    await this.reload(await this.opts.store.lastIndexRun(), recheck);
    if (recheck.size) this.scheduler.push([...recheck.keys()].map((path) => ({ path, type: "update" as const })));
  }

  /**
   * A mark other than the loaded one. A mark that vanished is not a run: the index was dropped or the
   * server lost its data (a fresh one came up in its place), which indexDropped tells.
   */
  private isNewRun(run: string | null): run is string {
    return run !== null && run !== this.loadedRun;
  }

  /**
   * Reloads the index another run wrote and adds the files this live index updated since that run began
   * to the batch: for each, whichever side wrote last may have written older content. When there are
   * any, the graph is also rewritten whole from the reloaded facts: a delta worked out before that run's
   * commit and landed after it may have left neighbours' fields (a dependents list) as the old graph had
   * them, and a re-read that finds the content current writes nothing.
   */
  private async reload(run: string | null, changes: Map<string, PendingChange>): Promise<void> {
    const started = performance.now();
    const { known, graph } = await loadIndexState(this.opts.root, this.opts.store);
    // Large files the old updater was still parsing: their change is not in the loaded state either.
    for (const p of this.updater?.backgroundPaths ?? []) if (!changes.has(p)) changes.set(p, { kind: "update", since: performance.now() });
    this.updater = this.newUpdater(known, graph);
    this.loadedRun = run;
    // No mark (a rebuild that wrote nothing): nothing to re-check.
    const since = (run === null ? Infinity : (parseIndexRunMark(run)?.startedAt ?? 0)) - RUN_START_SLACK_MS;
    let rechecked = 0;
    for (const p of this.handled.since(since)) {
      if (changes.has(p)) continue;
      changes.set(p, { kind: "update", since: performance.now() });
      rechecked++;
    }
    if (rechecked) {
      const { meta, indexFields } = await graph.rebuild(graph.projectLayout);
      // Queued ahead of the batch's own writes, so the re-read files' deltas land on top of it.
      this.writes.push({ label: "rewriting the dependency graph", run: () => this.opts.store.writeGraph(meta, indexFields, true) });
    }
    // The first reload after a `dropped` (this one, or a retry's) loads what the rebuild stored.
    const rebuilt = this.rebuilding;
    this.rebuilding = false;
    this.opts.onEvent({ type: "reloaded", files: known.size, rechecked, ms: performance.now() - started, ...(rebuilt ? { rebuilt } : {}) });
  }

  /** For tests and the bench: resolves when no batch runs, no event waits, no large file is parsing and no look at the
   * project folder is under way. */
  async idle(): Promise<void> {
    for (;;) {
      // A folder that came back is subscribed to and its entries queued before the batches are waited on.
      await this.rootWatch.settled();
      await this.scheduler.idle();
      if (!this.rootWatch.checking && !this.updater?.backgroundPaths.length) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private async runBatch(changes: Map<string, PendingChange>): Promise<BatchRunOutcome> {
    if (!this.updater) throw new Error("the live index is not started");
    if (this.held.length) {
      // Redis was down: replay the queued writes before anything new.
      await this.opts.store.reconnect();
      await this.writes.flush();
      const held = this.held;
      this.held = [];
      this.opts.onEvent({ type: "recovered" });
      for (const h of held) this.report(h, 0);
    }
    // Unreadable (Redis down): the batch goes on and its writes queue; the timer looks again later.
    const run = await this.opts.store.lastIndexRun().catch(() => this.loadedRun);
    const dropped = await this.indexDropped(run).catch(() => false);
    if (!dropped && this.isNewRun(run)) await this.reload(run, changes);
    // A check's poke with nothing to do.
    if (!changes.size && !this.reparse.size && !this.reconcileWanted && !this.updater.hasFinishedBackground) {
      if (dropped) await this.rebuild();
      return {};
    }
    const reparse = this.reparse;
    this.reparse = new Set();
    // Taken before the batch runs: a burst still going on sets it again, so the last one is reconciled too.
    const reconcile = this.reconcileWanted;
    this.reconcileWanted = changes.size >= BURST_PATHS;
    let result: BatchResult;
    try {
      result = await (this.updater as IncrementalUpdater).runBatch(changes, reparse, { reconcile });
    } catch (err) {
      this.reconcileWanted ||= reconcile;
      throw err;
    }
    // A folder that arrived whole is a few events but many files: as much a burst. A reconciling batch's
    // own finds do not count, or every reconciliation that found a lost burst would ask for another.
    if (!reconcile && result.checked >= BURST_PATHS) this.reconcileWanted = true;
    const origins = result.updates.map((u) => {
      const origin = this.opts.origin?.(u.path, u.hash) ?? "external";
      // An own rename registers both ends; the old path's registration is consumed with it.
      if (u.type === "renamed" && u.from) this.opts.origin?.(u.from, null);
      return origin;
    });
    for (const p of result.reparse) this.reparse.add(p);
    if (result.patternsChanged) await this.resubscribe();
    if (result.failed.length) {
      this.scheduler.push(result.failed.map((path) => ({ path, type: "update" as const })));
      this.opts.onEvent({ type: "error", error: result.taskError ?? new Error(`the worker parsing ${result.failed.join(", ")} failed`), retryInMs: this.opts.debounceMs });
    }
    if (result.recheck.length) this.scheduler.push(result.recheck.map((path) => ({ path, type: "update" as const })));
    const writeStart = performance.now();
    // Only a reconciliation's own batch: a re-parse batch keeps its `batch` event (its ASTs changed).
    const unannounced = !changes.size && !reparse.size;
    try {
      await this.writes.flush();
    } catch (error) {
      this.held.push({ result, origins, unannounced });
      return { retryAfter: { error } };
    }
    this.report({ result, origins, unannounced }, performance.now() - writeStart);
    if (dropped) await this.rebuild();
    if (this.reparse.size) this.scheduler.poke();
    // After a debounce: events still on their way join the reconciling batch.
    else if (this.reconcileWanted) this.scheduler.poke(this.opts.debounceMs);
    return {};
  }

  private report({ result, origins, unannounced }: HeldBatch, writeMs: number): void {
    if (unannounced) {
      // A reconciliation that found the index current is no batch to anyone; one that found changes is
      // announced as any batch is, before its updates (listeners pair `updating` with `batch`).
      if (!result.updates.length) return;
      this.opts.onEvent({ type: "updating", paths: result.updates.length });
    }
    const landed = performance.now();
    this.handled.remember(result.updates.flatMap((u) => (u.from ? [u.path, u.from] : [u.path])));
    for (const event of landedBatchEvents(result, origins, writeMs, landed)) this.opts.onEvent(event);
  }

  /** Unsubscribes, lets a running batch finish, and tries once more to land queued writes. */
  async stop(): Promise<void> {
    if (this.runCheck) clearInterval(this.runCheck);
    this.runCheck = null;
    await this.watch?.close();
    this.watch = null;
    this.rootWatch.release();
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
