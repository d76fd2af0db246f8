// IndexPipeline: scan → worker pool (read, hash, parse, extract, serialise) → pipelined Redis batches →
// graph pass. The pool starts on the first files while the walk goes on (walk-ahead.ts). The main thread
// only routes paths and already-serialised values, so a UI on it keeps drawing while the pool works.
import path from "node:path";
import type { IndexTask, IndexTaskResult, InternalSpecifiers, KnownFileState } from "../workers/protocol.js";
import { GraphAccumulator, type GraphInput } from "./graph/graph-builder.js";
import { factsOf, parseGraphInput } from "./record-facts.js";
import { TimeSlicer } from "./graph/time-slicer.js";
import { ImportResolver } from "./graph/import-resolver.js";
import { internalSpecifierMatchers, loadProjectLayout, predictProjectLayout } from "./graph/project-layout.js";
import { linkTargetPath } from "./graph/project-links.js";
import type { GraphRewrite, IndexStorePort, RecordBatch } from "./index-store-port.js";
import type { IndexWorkerPool } from "./worker-pool.js";
import type { RunningScan, TimedScan } from "./scanner.js";
import { WalkAhead } from "./walk-ahead.js";
import { encodeIndexRunMark, INDEX_RUN_FIELD, newIndexRunMark } from "./index-run-mark.js";
import type { GraphChunkSink } from "./graph/graph-serialiser.js";
import { applyRecord, type IndexStats } from "./index-stats.js";

/**
 * Files per worker task: large enough to amortise the thread hop (and the main thread's wake-up for
 * each result), small enough to balance two cores. 72 measured ≈ 0.02 better than 48 on cold / parse-only.
 */
export const FILES_PER_TASK = 72;
/** Facts fetched per HMGET when the graph pass needs the unchanged files' facts. */
const FACTS_READ_CHUNK = 500;

export interface IndexProgress {
  /** "waiting": another process is indexing the project; this run starts when it ends. */
  phase: "waiting" | "scan" | "index" | "graph" | "done";
  done: number;
  total: number;
  /** While waiting: who for ("ipuaro index (pid 4242, since 14:05)"). */
  holder?: string;
}

/** What a run waiting for another process's index run shows. */
export function waitingForRunText(holder: string | undefined): string {
  return `waiting for ${holder ?? "another index run"} to finish indexing this project…`;
}

export { PARSE_ERRORS_NAMED, type IndexStats } from "./index-stats.js";

export interface IndexRunOptions {
  root: string;
  /**
   * The project's files: a finished walk, or how to start one. A walk started here begins once the index
   * is ready for it, and its first files are parsed while it goes on.
   */
  walk: TimedScan | (() => RunningScan);
  /**
   * Asked once a running walk has ended, before anything is stored, with the number of files found:
   * false ends the run with nothing written (runIndex rejects with RunDeclined).
   */
  proceed?: (found: number) => boolean | Promise<boolean>;
  store: IndexStorePort;
  pool: IndexWorkerPool;
  binaryExtensions: string[];
  onProgress?: (p: IndexProgress) => void;
  signal?: AbortSignal;
  /** Re-parse every file whatever the index holds (a damaged entry is only rewritten when its file is). */
  force?: boolean;
  /** What runs it, as another run waiting for this one is told: "ipuaro index", "the UI". */
  by?: string;
}

/** The caller's `proceed` said no: nothing was stored. */
export class RunDeclined extends Error {
  constructor() {
    super("indexing declined");
    this.name = "RunDeclined";
  }
}

function emptyBatch(): RecordBatch {
  return { files: [], ast: [], stat: [], facts: [], remove: [] };
}

/** Task results whose writes share one Redis pipeline (1 → 4 took ≈ 0.02 off cold / parse-only in alternating runs). */
const TASK_BATCHES_PER_WRITE = 4;

/**
 * One batch holding both: each path appears in one task of a run, so a merged pipeline (removals
 * first, then writes) changes nothing a single one would have done.
 */
function mergeBatches(a: RecordBatch, b: RecordBatch): RecordBatch {
  a.files.push(...b.files);
  a.ast.push(...b.ast);
  a.stat.push(...b.stat);
  a.facts.push(...b.facts);
  a.remove.push(...b.remove);
  if (b.wire) a.wire = a.wire ? [...a.wire, ...b.wire] : b.wire;
  if (b.graphStale) a.graphStale = true;
  return a;
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export async function runIndex(opts: IndexRunOptions): Promise<IndexStats> {
  const waiting = (holder: string) => opts.onProgress?.({ phase: "waiting", done: 0, total: 0, holder });
  const releaseRun = await opts.store.claimIndexRun(opts.by ?? "ipuaro", waiting, opts.signal);
  // Time spent waiting for another run is not this run's.
  const started = performance.now();
  const asked = { ms: 0 };
  let stats: IndexStats;
  try {
    // A run can append ~100 MB; an AOF rewrite half-way through it would only compete with the workers.
    const liftAofHold = await opts.store.holdAofRewrites();
    try {
      stats = await indexHeld(opts, asked);
    } finally {
      await liftAofHold();
    }
  } finally {
    await releaseRun();
  }
  // The walk is part of what a user waits for, so the total includes it (when it was started here, it is
  // already inside the run's time); the time a person took to answer `proceed` is not.
  const walkedBefore = typeof opts.walk === "function" ? 0 : opts.walk.walkSeconds;
  stats.totalSeconds = walkedBefore + (performance.now() - started - asked.ms) / 1000;
  return stats;
}

/** `asked.ms`: how long `proceed` took to answer. */
async function indexHeld(opts: IndexRunOptions, asked: { ms: number }): Promise<IndexStats> {
  const { root, store, pool } = opts;
  const stats: IndexStats = {
    files: 0,
    parsed: 0,
    unchanged: 0,
    removed: 0,
    bytes: 0,
    skipped: { binary: 0, nonUtf8: 0, ignored: 0, unsupported: 0, errors: 0 },
    symlinks: 0,
    parseErrors: 0,
    parseErrorPaths: [],
    nonUtf8Paths: [],
    schemaReset: false,
    graphRebuilt: false,
    stages: { walk: 0, readHash: 0, parse: 0, write: 0, graph: 0 },
    totalSeconds: 0,
    errors: [],
  };
  // Before any file is read: a live index elsewhere re-checks what it wrote after this (index-run-mark.ts).
  const runMark = { [INDEX_RUN_FIELD]: encodeIndexRunMark(newIndexRunMark()) };
  stats.schemaReset = (await store.ensureSchema()) === "reset";
  const known = await store.loadKnownStats();
  // A text file that turned binary or into a symlink leaves the graph: that alone needs a rebuild.
  const graphMembers = known.size ? await store.loadGraphMembers() : new Set<string>();
  // An earlier run or live batch stored files whose graph update never landed: rebuild it this time.
  const graphWasStale = known.size ? await store.graphStale() : false;
  const wire = store.wireHashes();
  // A failed write (Redis went away) ends the run: parsing on would only be thrown away.
  const writeFailed = new AbortController();
  const runSignal = opts.signal ? AbortSignal.any([opts.signal, writeFailed.signal]) : writeFailed.signal;
  const runTask = (group: string[], internalSpecifiers: InternalSpecifiers, signal = runSignal): Promise<IndexTaskResult> => {
    const knownForGroup: Record<string, KnownFileState> = {};
    for (const p of group) {
      const k = opts.force ? undefined : known.get(p);
      if (k) knownForGroup[p] = k;
    }
    const task: IndexTask = { root, paths: group, known: knownForGroup, binaryExtensions: opts.binaryExtensions, mode: "index", internalSpecifiers, wire };
    return pool.run(task, signal);
  };

  let ahead: WalkAhead | null = null;
  let walked: TimedScan;
  if (typeof opts.walk === "function") {
    const predicted = internalSpecifierMatchers(predictProjectLayout(root));
    const running = opts.walk();
    ahead = new WalkAhead(running, FILES_PER_TASK, predicted, runTask, pool.capacity, runSignal);
    ahead.start();
    try {
      walked = await running.done;
      const askedAt = performance.now();
      const go = !opts.proceed || (await opts.proceed(walked.scan.entries.length));
      asked.ms = performance.now() - askedAt;
      if (!go) throw new RunDeclined();
    } catch (err) {
      await ahead.drop();
      throw err;
    }
  } else walked = opts.walk;
  const { scan } = walked;
  stats.files = scan.entries.length;
  stats.skipped.ignored = scan.ignored;
  stats.skipped.unsupported = scan.unsupported;
  // Not UTF-8 either way: a file whose name is not cannot be read through a string path.
  stats.skipped.nonUtf8 += scan.badNames.length;
  for (const p of scan.badNames) stats.errors.push({ path: p, message: "the file name is not valid UTF-8; it was skipped" });
  // Counted as errors, a folder once: every entry of `errors` is in a count (a bad name in nonUtf8).
  stats.skipped.errors += scan.unreadable.length;
  for (const p of scan.unreadable) stats.errors.push({ path: p, message: "the folder could not be read; its files were skipped" });
  stats.stages.walk = walked.walkSeconds;
  let leftGraph = 0;
  const paths = scan.entries.map((e) => e.path);
  const present = new Set(paths);
  const layout = loadProjectLayout(root, paths);
  const internalSpecifiers = internalSpecifierMatchers(layout);

  // Text files parsed this run go into the graph as they arrive, while the workers keep parsing, and the
  // graph's fields stream into a side key from then on (begun on the first one: a warm run with nothing
  // changed rewrites nothing).
  let rewrite: GraphRewrite | null = null;
  const begin = () => (rewrite ??= store.beginGraphRewrite());
  const graphSink: GraphChunkSink = {
    meta: (e) => begin().meta(e),
    index: (e) => begin().index(e),
    dropIndex: (f) => begin().dropIndex(f),
  };
  const graph = new GraphAccumulator(new ImportResolver(present, layout), layout, graphSink);
  let parsedText = 0;
  /** Symlinks new or retargeted this run: their importers now land elsewhere. */
  let linksChanged = 0;
  /** Unchanged files whose facts must come back from the store for the graph pass. */
  const unchangedText: string[] = [];
  const removedOrBroken: string[] = [...known.keys()].filter((p) => !present.has(p));
  const goneBefore = removedOrBroken.length;
  let writeMs = 0;
  let threadReadHash = 0;
  let threadParse = 0;
  let done = 0;
  opts.onProgress?.({ phase: "index", done: 0, total: paths.length });

  // Writes overlap the workers; what they cost the run is the main-thread time spent issuing them plus
  // the wait for the last ones after the workers are done. A few tasks' batches go out as one pipeline:
  // each pipeline wakes Redis (and, for its replies, this thread) on cores the workers need.
  const writes: Promise<void>[] = [];
  let pending: RecordBatch | null = null;
  let pendingTasks = 0;
  const flush = () => {
    if (!pending) return;
    const t = performance.now();
    const written = store.writeRecords(pending);
    // Observed at once: a rejection waiting for the await after the tasks would be unhandled.
    written.catch((err: unknown) => writeFailed.abort(err));
    writes.push(written);
    writeMs += performance.now() - t;
    pending = null;
    pendingTasks = 0;
  };
  const write = (batch: RecordBatch) => {
    pending = pending ? mergeBatches(pending, batch) : batch;
    if (++pendingTasks >= TASK_BATCHES_PER_WRITE) flush();
  };

  const takeIn = (group: string[], result: IndexTaskResult) => {
    threadReadHash += result.timings.readHash + result.timings.serialise;
    threadParse += result.timings.parse;
    stats.bytes += result.bytes;
    const batch = emptyBatch();
    if (result.wire) batch.wire = result.wire;
    for (const r of result.records) {
      // A stored file without facts is a binary one: it counts as binary, unchanged or not.
      applyRecord(r, batch, stats, removedOrBroken, known, graphMembers.has(r.path));
      if (r.kind === "symlink") {
        graph.addLink(r.path, linkTargetPath(root, r.path, r.target));
        if (!r.unchanged) linksChanged++;
      }
      if ((r.kind === "binary" || r.kind === "symlink") && graphMembers.has(r.path)) {
        leftGraph++;
        batch.graphStale = true;
      }
      // Unchanged binary files have no facts to read back.
      if (r.kind === "unchanged" && graphMembers.has(r.path)) unchangedText.push(r.path);
      else if (r.kind === "text") {
        graph.add(r.path, factsOf(r));
        parsedText++;
        batch.graphStale = true;
      }
    }
    if (batch.wire || batch.files.length || batch.stat.length || batch.remove.length) write(batch);
    done += group.length;
    opts.onProgress?.({ phase: "index", done, total: paths.length });
  };
  // Nothing here may keep a task's result once it is taken in: results hold every value the task framed
  // (~80 MB for 12K files); kept to the end, they raised a cold run's peak RSS by ~50 MB.
  const tasks: Promise<void>[] = [];
  for (const { group, result } of ahead?.settle(internalSpecifiers) ?? []) tasks.push(result.then((r) => takeIn(group, r)));
  for (const group of chunk(paths.slice(ahead?.entriesTaken ?? 0), FILES_PER_TASK)) tasks.push(runTask(group, internalSpecifiers).then((r) => takeIn(group, r)));
  try {
    await Promise.all(tasks);
  } catch (err) {
    // Also when cancelled: what was parsed is stored (and landed) before the run ends, so the next run
    // does not parse it again. A failed write is what ended the run, whatever the tasks said.
    flush();
    await Promise.allSettled(writes);
    if (writeFailed.signal.aborted) throw writeFailed.signal.reason;
    // A cancelled run stored files too: live indexes elsewhere must learn of it as of a finished one.
    if (writes.length) await store.setIndexInfo(runMark).catch(() => {});
    throw err;
  }
  flush();
  // Files found but not indexed (not UTF-8, unreadable, gone during the run) are not the index's files.
  stats.files -= removedOrBroken.length - goneBefore;
  const stale = removedOrBroken.filter((p) => known.has(p));
  if (stale.length) write({ ...emptyBatch(), remove: stale, graphStale: true });
  flush();
  stats.removed = stale.length;
  const tail = performance.now();
  await Promise.all(writes);
  writeMs += performance.now() - tail;
  stats.stages.write = writeMs / 1000;
  stats.stages.readHash = threadReadHash / pool.size / 1000;
  stats.stages.parse = threadParse / pool.size / 1000;

  const graphStart = performance.now();
  const needGraph = parsedText > 0 || stale.length > 0 || leftGraph > 0 || linksChanged > 0 || graphWasStale || stats.schemaReset || known.size === 0;
  if (needGraph) {
    opts.onProgress?.({ phase: "graph", done: 0, total: paths.length });
    await addStoredFacts(store, graph, unchangedText);
    await graph.drain((paths) => loadStoredFacts(store, paths));
    await begin().commit();
    stats.graphRebuilt = true;
  }
  stats.stages.graph = (performance.now() - graphStart) / 1000;
  await store.setIndexInfo({
    root,
    last_indexed: new Date().toISOString(),
    files: String(stats.files),
    // A run that changed nothing leaves live indexes alone.
    ...(writes.length || needGraph ? runMark : {}),
  });
  opts.onProgress?.({ phase: "done", done: paths.length, total: paths.length });
  return stats;
}

async function loadStoredFacts(store: IndexStorePort, paths: string[]): Promise<Map<string, GraphInput>> {
  const out = new Map<string, GraphInput>();
  for (let i = 0; i < paths.length; i += FACTS_READ_CHUNK)
    for (const [p, json] of await store.getFacts(paths.slice(i, i + FACTS_READ_CHUNK))) {
      try {
        out.set(p, parseGraphInput(json));
      } catch {
        // Damaged: the file keeps the edges that still point at text files.
      }
    }
  return out;
}

/** Unchanged files join the graph with the facts stored by an earlier run. */
async function addStoredFacts(store: IndexStorePort, graph: GraphAccumulator, unchanged: string[]): Promise<void> {
  const slicer = new TimeSlicer();
  for (let i = 0; i < unchanged.length; i += FACTS_READ_CHUNK) {
    const rows = await store.getFacts(unchanged.slice(i, i + FACTS_READ_CHUNK));
    for (const [p, json] of rows) {
      try {
        graph.add(p, parseGraphInput(json));
      } catch {
        // A damaged record only costs this file its graph edges until it is parsed again.
      }
      await slicer.maybeYield();
    }
  }
}

export function relPath(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join("/");
}
