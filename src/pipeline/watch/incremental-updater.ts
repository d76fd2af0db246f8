// One batch of the live index: plan the paths, let the worker pool re-hash them (and re-parse only what
// changed), queue the per-file writes, then update the in-memory graph and queue the graph's delta.
// Work is proportional to the changed files and their direct neighbours; only a changed project layout
// (tsconfig paths, workspace packages) rebuilds the whole graph, from the facts held in memory.
import path from "node:path";
import { symlinkTarget, type IndexedRecord, type IndexTask, type KnownFileState } from "../../workers/protocol.js";
import { FILES_PER_TASK } from "../index-pipeline.js";
import type { RecordBatch } from "../index-store-port.js";
import type { IgnoreRules } from "../ignore-rules.js";
import { internalSpecifierMatchers, loadProjectLayout, type ProjectLayout } from "../graph/project-layout.js";
import { linkTargetPath } from "../graph/project-links.js";
import type { IndexWorkerPool } from "../worker-pool.js";
import { parseGraphInput } from "../record-facts.js";
import { LAYOUT_FILE, planBatch, type BatchPlan } from "./batch-plan.js";
import type { PendingChange } from "./event-coalescer.js";
import { GraphState, type FactsRecord, type GraphChange, type GraphDelta, type LinkChange } from "./graph-state.js";
import { applyInTimedSlices } from "./timed-slices.js";
import { layoutFingerprint, specifierMatcher } from "./layout-diff.js";
import { applyRecord, pairRenames, type FileUpdate } from "./record-outcome.js";
import type { WatchStorePort } from "./watch-store-port.js";
import type { WriteQueue } from "./write-queue.js";

/** Graph changes applied at once before the event loop turns: at most, and what one slice should take (see applyGraph). */
const GRAPH_SLICES = { firstSize: 10, maxSize: 150, minSize: 10, targetMs: 20 };

export interface UpdaterOptions {
  root: string;
  rules: IgnoreRules;
  pool: IndexWorkerPool;
  binaryExtensions: string[];
  store: WatchStorePort;
  writes: WriteQueue;
  watchFolders?: (rels: string[]) => Promise<void>;
  /** After a batch in which something vanished: lets the OS watcher drop subscriptions of gone folders. */
  pruneWatch?: () => Promise<void>;
  /** The project's ignorePatterns as its config says now, read when .ipuaro.json changes (see planBatch). */
  projectPatterns?: () => string[] | null;
  /** A large file's background parse ended: its records wait for the next batch (see runBatch). */
  onBackgroundDone?: () => void;
}

export interface BatchResult {
  updates: FileUpdate[];
  /** Paths read by the workers. */
  checked: number;
  parsed: number;
  removed: number;
  /** Files whose imports were resolved again. */
  resolved: number;
  graphRebuilt: boolean;
  gitignoreChanged: boolean;
  /** The project's ignorePatterns changed: the OS watcher's own ignore list is out of date. */
  patternsChanged: boolean;
  /** Files to re-parse in a follow-up batch: the layout change made their imports internal or external. */
  reparse: string[];
  /** Main-thread time plus the wait for the pool, before the writes land (ms). */
  workMs: number;
  /** Where workMs went: planning (stats, folder walks), the worker pool, the graph update. */
  stages: { planMs: number; workersMs: number; graphMs: number };
  /** Paths of worker tasks that failed: nothing was applied for them; retry them. */
  failed: string[];
  /** Large files this batch left parsing in the background (their updates come with a later batch). */
  background: string[];
  /** Paths that changed again while their background parse ran: check them once more. */
  recheck: string[];
  taskError?: unknown;
}

/** Loads what the index holds (stats and graph facts) and builds the in-memory graph from it. */
export async function loadIndexState(root: string, store: WatchStorePort): Promise<{ known: Map<string, KnownFileState>; graph: GraphState }> {
  const known = await store.loadKnownStats();
  const records = new Map<string, FactsRecord>();
  for await (const rows of store.scanFacts()) {
    for (const [p, json] of rows) {
      if (!known.has(p)) continue;
      try {
        records.set(p, parseGraphInput(json));
      } catch {
        // A damaged record costs this file its edges until it changes again.
      }
    }
  }
  // The index holds a link's target in its stat: imports through links resolve without reading the disk.
  const links = new Map<string, string | null>();
  for (const [p, k] of known) {
    const target = symlinkTarget(k.hash);
    if (target !== null) links.set(p, linkTargetPath(root, p, target));
  }
  const graph = await GraphState.build(records, loadProjectLayout(root, known.keys()), links);
  return { known, graph };
}

export class IncrementalUpdater {
  private readonly binarySet: ReadonlySet<string>;
  private internalSpecifiers: NonNullable<IndexTask["internalSpecifiers"]>;
  /** The `files` count last written to the project's config hash. */
  private reportedFiles: number;
  /** Files said to be skipped as not UTF-8, with the size:mtime they had (saidSkipped). */
  private readonly skippedSaid = new Map<string, string>();
  /** Large files parsing beside the batches → when their change was seen. */
  private readonly parsing = new Map<string, number>();
  /** Background parses that ended, to be applied first thing in the next batch. */
  private finished: { path: string; since: number; records: IndexedRecord[] | null }[] = [];
  /** Paths events named while their background parse ran. */
  private readonly changedWhileParsing = new Set<string>();
  /** Paths a layout change asked to re-parse while their background parse ran. */
  private readonly reparseAfterParsing = new Set<string>();
  /** Symlinks that came, went or were retargeted in the batch running, for the graph. */
  private readonly linkChanges = new Map<string, LinkChange>();

  constructor(
    private readonly opts: UpdaterOptions,
    readonly known: Map<string, KnownFileState>,
    readonly graph: GraphState,
  ) {
    this.binarySet = new Set(opts.binaryExtensions);
    this.internalSpecifiers = internalSpecifierMatchers(graph.projectLayout);
    this.reportedFiles = known.size;
  }

  /** `reconcile`: also compare the whole tree with the index (see planBatch), not only the paths of `changes`. */
  async runBatch(changes: ReadonlyMap<string, PendingChange>, reparse: ReadonlySet<string> = new Set(), opts: { reconcile?: boolean } = {}): Promise<BatchResult> {
    const started = performance.now();
    const { root, rules } = this.opts;
    const result: BatchResult = {
      updates: [], checked: 0, parsed: 0, removed: 0, resolved: 0, graphRebuilt: false, gitignoreChanged: false, patternsChanged: false,
      reparse: [], workMs: 0, stages: { planMs: 0, workersMs: 0, graphMs: 0 }, failed: [], background: [], recheck: [],
    };
    const graphChanges: GraphChange[] = [];
    // Background parses that ended are older than anything this batch reads: applied (and planned) first.
    this.applyFinished(graphChanges, result);
    const plan = await planBatch({ root, rules, binaryExtensions: this.binarySet, known: this.known, watchFolders: this.opts.watchFolders, projectPatterns: this.opts.projectPatterns, reconcile: opts.reconcile }, changes);
    result.gitignoreChanged = plan.gitignoreChanged;
    result.patternsChanged = plan.patternsChanged;
    // A path whose background parse still runs is left to it; once applied, the path is checked again.
    // A forced re-parse of it too (two parses of one file must not race): it follows the parse.
    if ([...this.parsing.keys()].some((p) => reparse.has(p))) {
      const now = new Set<string>();
      for (const p of reparse) {
        if (this.parsing.has(p)) this.reparseAfterParsing.add(p);
        else now.add(p);
      }
      reparse = now;
    }
    for (const p of this.parsing.keys()) {
      if (plan.check.delete(p) || plan.sweep.delete(p) || plan.drop.delete(p)) this.changedWhileParsing.add(p);
    }
    const planned = performance.now();
    result.stages.planMs = planned - started;
    const sinceOf = (p: string) => changes.get(p)?.since ?? started;
    for (const p of plan.large) {
      // A layout file stays in the batch: the graph's reload below needs it now.
      if (!plan.check.has(p) || LAYOUT_FILE.test(path.posix.basename(p))) continue;
      plan.check.delete(p);
      this.parseInBackground(p, sinceOf(p));
      result.background.push(p);
    }

    const drops: RecordBatch = { files: [], ast: [], stat: [], facts: [], remove: [] };
    for (const [p, why] of plan.drop) {
      const prev = this.known.get(p);
      if (!prev) continue;
      drops.remove.push(p);
      this.known.delete(p);
      if (symlinkTarget(prev.hash) !== null) this.linkChanges.set(p, null);
      if (this.graph.has(p)) graphChanges.push({ path: p, record: null });
      result.updates.push({ type: why, path: p, hash: null, previousHash: prev.hash, since: sinceOf(p) });
    }
    result.removed += drops.remove.length;
    // Writes that change the graph's input mark the stored graph stale until the delta below lands.
    drops.graphStale = graphChanges.length > 0;
    if (drops.remove.length) this.write("removing files", drops);

    // Each task's records are applied as it returns; a task that failed (a crashed worker) changes
    // nothing, and its paths go back to the caller to be retried.
    const settled = await Promise.allSettled(
      this.tasks(plan, reparse).map(async (task) => {
        try {
          const out = await this.opts.pool.run(task);
          const batch: RecordBatch = { files: [], ast: [], stat: [], facts: [], remove: [] };
          const changesBefore = graphChanges.length;
          for (const r of out.records) this.apply(r, batch, graphChanges, result, reparse.has(r.path), sinceOf(r.path));
          batch.graphStale = graphChanges.length > changesBefore;
          if (batch.files.length || batch.stat.length || batch.remove.length) this.write("writing changed files", batch);
        } catch (err) {
          result.failed.push(...task.paths);
          throw err;
        }
      }),
    );
    for (const s of settled) if (s.status === "rejected") result.taskError ??= s.reason;
    const workersDone = performance.now();
    result.stages.workersMs = workersDone - planned;
    result.checked += plan.check.size + plan.sweep.size + reparse.size;

    const delta = await this.applyGraph(graphChanges);
    result.resolved = delta.resolved;
    // A new layout rewrites the whole graph; the delta would be overwritten at once, so it is not sent.
    if (!(plan.layoutTouched && (await this.reloadLayout(result)))) {
      // Also when the delta is empty but the graph's input changed: the write clears the stale mark.
      if (graphChanges.length || delta.meta.length || delta.setFields.length || delta.deleteFields.length) {
        this.opts.writes.push({ label: "updating the dependency graph", run: () => this.opts.store.writeGraphDelta(delta.meta, delta.setFields, delta.deleteFields) });
      }
    }
    if (this.known.size !== this.reportedFiles) {
      const files = String((this.reportedFiles = this.known.size));
      this.opts.writes.push({ label: "updating the file count", run: () => this.opts.store.setIndexInfo({ files }) });
    }
    result.stages.graphMs = performance.now() - workersDone;
    result.updates = pairRenames(result.updates);
    if (plan.somethingGone) await this.opts.pruneWatch?.();
    result.workMs = performance.now() - started;
    return result;
  }

  /**
   * The batch's graph changes, applied in slices sized by time (GRAPH_SLICES, timed-slices.ts) with the
   * event loop turned between: one apply of a restored package (1,200 files) held the main thread for a
   * second, and the UI's keys with it; 150 files at a time still took up to 70 ms here (and a first slice
   * of 150 costly files ≈ 100 ms: the first is a probe of 10). Each slice is a
   * complete incremental update (files a later slice brings re-resolve their importers then), so the slices' deltas, folded in order into one (written at once: the stored
   * graph is never half-updated), leave the graph a single apply would. Symlinks go with the last slice,
   * when the files they point to are in.
   */
  private async applyGraph(changes: GraphChange[]): Promise<GraphDelta> {
    const links = new Map(this.linkChanges);
    this.linkChanges.clear();
    const meta = new Map<string, string>();
    const fields = new Map<string, string | null>();
    let resolved = 0;
    await applyInTimedSlices(
      changes,
      (slice, last) => {
        const d = this.graph.apply(slice, last ? links : new Map());
        // As writeGraphDelta applies one: meta and sets, then deletes.
        for (const [p, json] of d.meta) meta.set(p, json);
        // A file an earlier slice wrote meta for (a dependency of its files) and this one removes: its meta
        // went with its records, before this delta lands; writing it would bring it back.
        for (const c of slice) if (c.record === null) meta.delete(c.path);
        for (const [f, v] of d.setFields) fields.set(f, v);
        for (const f of d.deleteFields) fields.set(f, null);
        resolved += d.resolved;
      },
      GRAPH_SLICES,
    );
    const set = [...fields].filter((e): e is [string, string] => e[1] !== null);
    const gone = [...fields].filter(([, v]) => v === null).map(([f]) => f);
    return { meta: [...meta], setFields: set, deleteFields: gone, resolved };
  }

  /** Large files parsing in the background, and ended parses not applied yet. */
  get backgroundPaths(): string[] {
    return [...this.parsing.keys(), ...this.finished.map((f) => f.path)];
  }

  get hasFinishedBackground(): boolean {
    return this.finished.length > 0;
  }

  /**
   * A large file (LARGE_FILE_BYTES, e.g. a 30 MB generated file takes 15 s) is parsed beside the
   * batches instead of in one: batches never overlap, so every other edit waited for it.
   */
  private parseInBackground(p: string, since: number): void {
    this.parsing.set(p, since);
    const k = this.known.get(p);
    const task: IndexTask = {
      root: this.opts.root,
      paths: [p],
      known: k ? { [p]: { size: -1, mtimeMs: -1, hash: k.hash } } : {},
      binaryExtensions: this.opts.binaryExtensions,
      mode: "index",
      internalSpecifiers: this.internalSpecifiers,
    };
    void this.opts.pool.run(task).then(
      (out) => this.finished.push({ path: p, since, records: out.records }),
      () => this.finished.push({ path: p, since, records: null }),
    ).finally(() => {
      this.parsing.delete(p);
      this.opts.onBackgroundDone?.();
    });
  }

  private applyFinished(graphChanges: GraphChange[], result: BatchResult): void {
    const finished = this.finished;
    if (!finished.length) return;
    this.finished = [];
    const batch: RecordBatch = { files: [], ast: [], stat: [], facts: [], remove: [] };
    for (const f of finished) {
      if (!f.records) {
        result.failed.push(f.path);
        continue;
      }
      result.checked++;
      for (const r of f.records) this.apply(r, batch, graphChanges, result, false, f.since);
      if (this.changedWhileParsing.delete(f.path)) result.recheck.push(f.path);
      if (this.reparseAfterParsing.delete(f.path)) result.reparse.push(f.path);
    }
    batch.graphStale = graphChanges.length > 0;
    if (batch.files.length || batch.stat.length || batch.remove.length) this.write("writing changed files", batch);
  }

  private write(label: string, batch: RecordBatch): void {
    this.opts.writes.push({ label, run: () => this.opts.store.writeRecords(batch) });
  }

  private apply(r: IndexedRecord, batch: RecordBatch, graphChanges: GraphChange[], result: BatchResult, reparse: boolean, since: number): void {
    const prev = this.known.get(r.path);
    const outcome = applyRecord(r, prev, this.graph.has(r.path), batch);
    if (outcome.known) this.known.set(r.path, outcome.known);
    else if (outcome.removed) this.known.delete(r.path);
    const linkBefore = prev ? symlinkTarget(prev.hash) : null;
    const now = this.known.get(r.path);
    const linkNow = now ? symlinkTarget(now.hash) : null;
    if (linkNow !== linkBefore) this.linkChanges.set(r.path, linkNow === null ? null : { target: linkTargetPath(this.opts.root, r.path, linkNow) });
    if (outcome.graph !== undefined) graphChanges.push({ path: r.path, record: outcome.graph });
    if (outcome.parsed) result.parsed++;
    if (outcome.removed) result.removed++;
    // A forced re-parse of identical content is bookkeeping, not a change anyone made.
    if (outcome.update && !(reparse && outcome.update.hash === prev?.hash) && !this.saidSkipped(r)) result.updates.push({ ...outcome.update, since });
  }

  /**
   * A file skipped as not UTF-8 is said once, not again each time a sweep (a .gitignore edit) reads
   * it unchanged: the index holds nothing of it to compare with, so it is read every time.
   */
  private saidSkipped(r: IndexedRecord): boolean {
    if (r.kind !== "nonUtf8") {
      this.skippedSaid.delete(r.path);
      return false;
    }
    const stamp = `${r.size}:${r.mtimeMs}`;
    if (this.skippedSaid.get(r.path) === stamp) return true;
    this.skippedSaid.set(r.path, stamp);
    return false;
  }

  /** Groups of ~FILES_PER_TASK paths: a branch switch of thousands of files is a few dozen tasks. */
  private tasks(plan: BatchPlan, reparse: ReadonlySet<string>): IndexTask[] {
    const entries: [string, KnownFileState | undefined][] = [];
    for (const p of plan.check) {
      const k = this.known.get(p);
      // The event says it changed: skip the size/mtime shortcut and compare hashes.
      entries.push([p, k && { size: -1, mtimeMs: -1, hash: k.hash }]);
    }
    for (const p of plan.sweep) entries.push([p, this.known.get(p)]);
    for (const p of reparse) if (!plan.check.has(p) && !plan.sweep.has(p)) entries.push([p, undefined]);
    const tasks: IndexTask[] = [];
    for (let i = 0; i < entries.length; i += FILES_PER_TASK) {
      const group = entries.slice(i, i + FILES_PER_TASK);
      const known: Record<string, KnownFileState> = {};
      for (const [p, k] of group) if (k && !reparse.has(p)) known[p] = k;
      tasks.push({
        root: this.opts.root,
        paths: group.map(([p]) => p),
        known,
        binaryExtensions: this.opts.binaryExtensions,
        mode: "index",
        internalSpecifiers: this.internalSpecifiers,
      });
    }
    return tasks;
  }

  /** tsconfig/package.json changed: when the layout really differs, re-resolve every import. */
  private async reloadLayout(result: BatchResult): Promise<boolean> {
    const before = this.graph.projectLayout;
    const layout: ProjectLayout = loadProjectLayout(this.opts.root, this.known.keys());
    if (layoutFingerprint(layout) === layoutFingerprint(before)) return false;
    const { meta, indexFields } = await this.graph.rebuild(layout);
    this.opts.writes.push({ label: "rebuilding the dependency graph", run: () => this.opts.store.writeGraph(meta, indexFields, true) });
    result.graphRebuilt = true;
    const wasInternal = specifierMatcher(this.internalSpecifiers);
    this.internalSpecifiers = internalSpecifierMatchers(layout);
    const isInternal = specifierMatcher(this.internalSpecifiers);
    // The stored ASTs type imports internal/external by the layout: re-parse the files where that flips.
    // Judged once per specifier: the same few hundred recur in every file (≈ 35 ms for 12K files otherwise).
    const flips = new Map<string, boolean>();
    const flipped = (spec: string) => {
      let f = flips.get(spec);
      if (f === undefined) flips.set(spec, (f = !spec.startsWith(".") && wasInternal(spec) !== isInternal(spec)));
      return f;
    };
    result.reparse.push(...(await this.graph.filesImporting(flipped)));
    return true;
  }
}
