// `npm run bench:watch`: the live index on the generated 12K-file monorepo (a copy of --dir, or a fresh one). Indexes it into a private
// managed Redis, starts the watcher in this process, then edits, creates, deletes and renames files one
// at a time (each landing before the next starts), edits 1,000 files at once, and finally removes the largest
// package and copies it back (with the event loop's longest stall in each). Latency is
// measured end to end: from the write to the moment Redis's `stat` holds the new hash (or drops the
// path), by polling Redis. Targets: p95 ≤ debounce + 150 ms; a single-file update ≤ 30 ms of work.
//
//   npx tsx bench/watch/run.ts [--files 12000] [--dir DIR] [--debounce 500] [--ops 20] [--burst 1000] [--json]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchArgs } from "../lib/bench-args.js";
import v8 from "node:v8";
import vm from "node:vm";
import { loadConfig } from "../../src/main/config/loader.js";
import { ProjectIndexer } from "../../src/main/indexing/project-indexer.js";
import { ProjectWatcher, type BatchSummary, type ProjectWatchEvent } from "../../src/main/indexing/project-watcher.js";
import { openProjectStore } from "../../src/main/store/open-project-store.js";
import { generateMonorepo } from "../generate/generate-monorepo.js";
import { MANIFEST_FILE } from "../generate/manifest.js";
import { percentiles, waitLanded } from "./landing-probe.js";
import { largestPackage, packageRoundTrip, type PackageRoundTrip } from "./package-round-trip.js";
import { burstEdit, createOp, deleteOp, editOp, renameOp, type Operation, type OpKind } from "./operations.js";

const SINGLE_WORK_TARGET_MS = 30;
const LATENCY_MARGIN_MS = 150;

const { values } = benchArgs("usage: npm run bench:watch -- [--files N] [--dir DIR] [--seed N] [--debounce MS] [--ops N] [--burst N] [--json]", {
  files: { type: "string", default: "12000" },
  dir: { type: "string" },
  seed: { type: "string", default: "1" },
  debounce: { type: "string" },
  ops: { type: "string", default: "20" },
  burst: { type: "string", default: "1000" },
  json: { type: "boolean", default: false },
});
const log = (s: string) => process.stderr.write(`${s}\n`);
// A full collection before each heap reading, so the watcher's state is measured, not GC timing.
v8.setFlagsFromString("--expose-gc");
const collectGarbage = vm.runInNewContext("gc") as () => void;
const heapUsed = () => {
  collectGarbage();
  return process.memoryUsage().heapUsed;
};

let seed = Number(values.seed) >>> 0 || 1;
const random = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
const shuffle = <T>(xs: T[]): T[] => {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [xs[i], xs[j]] = [xs[j] as T, xs[i] as T];
  }
  return xs;
};

/** The tree the bench edits: always a temporary one, removed at the end. */
async function prepareRepo(): Promise<string> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "ipuaro-watch-bench-")));
  if (values.dir) {
    const given = path.resolve(values.dir);
    // Only a generated tree: a real project's own files would be what the bench edits.
    if (!fs.existsSync(path.join(given, MANIFEST_FILE))) throw new Error(`${given} has no ${MANIFEST_FILE}: pass a folder made by bench:gen`);
    // The bench edits, creates, renames and deletes files (renames break imports): it works on a copy,
    // so the folder stays fit for measuring a cold index afterwards.
    log(`copying ${given} to ${root}…`);
    fs.cpSync(given, root, { recursive: true, verbatimSymlinks: true });
    return root;
  }
  log(`generating ${values.files} files into ${root}…`);
  await generateMonorepo({ files: Number(values.files), out: root, seed: Number(values.seed) });
  return root;
}

async function main(): Promise<number> {
  const root = await prepareRepo();
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "ipuaro-watch-bench-home-"));
  const { config } = loadConfig({ projectRoot: root, env: { IPUARO_HOME: home, XDG_CONFIG_HOME: path.join(home, "xdg") } });
  config.redis.url = null;
  const debounceMs = values.debounce !== undefined ? Number(values.debounce) : config.watchdog.debounceMs;
  const opened = await openProjectStore(config, root, { home });
  const indexer = new ProjectIndexer(root, config, opened.store);
  const events: ProjectWatchEvent[] = [];
  let watcher: ProjectWatcher | null = null;
  try {
    log("indexing…");
    const indexStart = performance.now();
    const stats = await indexer.index(await indexer.scan());
    const indexSeconds = (performance.now() - indexStart) / 1000;
    log(`indexed ${stats.files} files in ${indexSeconds.toFixed(1)} s; starting the watcher (debounce ${debounceMs} ms)…`);

    const heapBefore = heapUsed();
    watcher = new ProjectWatcher({ indexer, redis: opened.redis, debounceMs });
    watcher.on((e) => events.push(e));
    await watcher.start();
    const ready = events.find((e) => e.type === "ready");
    // Heap growth across the start: the in-memory graph state.
    const heapAfter = heapUsed();

    const statKey = opened.store.keys.stat;
    const known = await opened.store.loadKnownStats();
    const textFiles = new Set(await opened.redis.hkeys(opened.store.keys.facts));
    // Typical source files: the generator's 50K-line file is an outlier worth its own bench, not this one.
    const candidates = shuffle([...textFiles].filter((p) => /\.tsx?$/.test(p) && (known.get(p)?.size ?? 0) < 64 * 1024).sort());
    const perKind = Number(values.ops);
    const take = (n: number) => candidates.splice(0, n);
    const ops: Operation[] = [
      ...take(perKind).map((p) => editOp(root, p)),
      ...take(perKind).map((p) => createOp(root, p)),
      ...take(perKind).map((p) => deleteOp(root, p)),
      ...take(perKind).map((p) => renameOp(root, p)),
    ];
    shuffle(ops);

    const latencies: Record<OpKind, number[]> = { edit: [], create: [], delete: [], rename: [] };
    const singleWork: number[] = [];
    const singleStages: BatchSummary[] = [];
    const workByKind: Record<OpKind, number[]> = { edit: [], create: [], delete: [], rename: [] };
    const slowest: { label: string; batch: BatchSummary }[] = [];
    for (const [i, op] of ops.entries()) {
      await watcher.idle();
      const from = events.length;
      const started = performance.now();
      const expected = await op.apply();
      const landed = await waitLanded(opened.redis, statKey, expected, started, 10_000);
      latencies[op.kind].push(Math.max(...landed.values()));
      await watcher.idle();
      const batch = events.slice(from).find((e): e is BatchSummary => e.type === "batch");
      if (batch) {
        workByKind[op.kind].push(batch.ms);
        slowest.push({ label: op.label, batch });
      }
      if (batch && op.kind !== "rename") {
        singleWork.push(batch.ms);
        singleStages.push(batch);
      }
      if ((i + 1) % 10 === 0) log(`  ${i + 1}/${ops.length} operations`);
    }

    log(`burst: ${values.burst} files edited at once…`);
    await watcher.idle();
    const burstFrom = events.length;
    const burstStart = performance.now();
    const burstExpected = await burstEdit(root, take(Number(values.burst)));
    const writeDoneMs = performance.now() - burstStart;
    const burstLanded = await waitLanded(opened.redis, statKey, burstExpected, burstStart, 120_000);
    await watcher.idle();
    const burstBatches = events.slice(burstFrom).filter((e): e is BatchSummary => e.type === "batch");

    const nowIndexed = await opened.store.loadKnownStats();
    const folder = largestPackage(nowIndexed.keys());
    let roundTrip: PackageRoundTrip | null = null;
    if (folder) {
      log(`${folder} removed and copied back, file by file (a rewind's worth)…`);
      roundTrip = await packageRoundTrip({ root, folder, redis: opened.redis, statKey, stats: nowIndexed, idle: () => (watcher as ProjectWatcher).idle() });
    }

    const all = Object.values(latencies).flat();
    const latency = percentiles(all);
    const work = percentiles(singleWork);
    const batches = events.filter((e): e is BatchSummary => e.type === "batch");
    const report = {
      repo: root,
      files: stats.files,
      indexSeconds: Math.round(indexSeconds * 100) / 100,
      debounceMs,
      watcher: { loadMs: Math.round(ready?.type === "ready" ? ready.ms : 0), heapDeltaMb: Math.round((heapAfter - heapBefore) / 1024 / 1024), rssMb: Math.round(process.memoryUsage().rss / 1024 / 1024) },
      latencyMs: {
        all: latency,
        edit: percentiles(latencies.edit),
        create: percentiles(latencies.create),
        delete: percentiles(latencies.delete),
        rename: percentiles(latencies.rename),
      },
      singleFileWorkMs: work,
      workByKindMs: {
        edit: percentiles(workByKind.edit),
        create: percentiles(workByKind.create),
        delete: percentiles(workByKind.delete),
        rename: percentiles(workByKind.rename),
      },
      singleFileStagesMs: {
        plan: percentiles(singleStages.map((b) => b.stages.planMs)),
        workers: percentiles(singleStages.map((b) => b.stages.workersMs)),
        graph: percentiles(singleStages.map((b) => b.stages.graphMs)),
        write: percentiles(singleStages.map((b) => b.writeMs)),
      },
      batchMs: percentiles(batches.map((b) => b.ms)),
      burst: {
        files: burstExpected.size,
        writeMs: Math.round(writeDoneMs),
        allLandedMs: Math.round(Math.max(...burstLanded.values())),
        latencyMs: percentiles([...burstLanded.values()]),
        batches: burstBatches.map((b) => ({ files: b.files, parsed: b.parsed, ms: Math.round(b.ms), workMs: Math.round(b.workMs), writeMs: Math.round(b.writeMs) })),
      },
      packageRoundTrip: roundTrip,
      errors: events.filter((e) => e.type === "error").length,
      checks: {
        latencyP95: { value: latency.p95, target: debounceMs + LATENCY_MARGIN_MS, ok: latency.p95 <= debounceMs + LATENCY_MARGIN_MS },
        singleFileWorkP95: { value: work.p95, target: SINGLE_WORK_TARGET_MS, ok: work.p95 <= SINGLE_WORK_TARGET_MS },
      },
    };
    if (!values.json) {
      const l = report.latencyMs;
      log(
        [
          "",
          `${report.files} files, indexed in ${report.indexSeconds} s; watcher loaded in ${report.watcher.loadMs} ms (heap +${report.watcher.heapDeltaMb} MB, process RSS ${report.watcher.rssMb} MB)`,
          `write → hash in Redis (ms), debounce ${debounceMs}:`,
          ...(["all", "edit", "create", "delete", "rename"] as const).map((k) => `  ${k.padEnd(7)} n=${l[k].n} p50 ${l[k].p50}  p95 ${l[k].p95}  max ${l[k].max}`),
          `single-file update work (ms): p50 ${work.p50}  p95 ${work.p95}  max ${work.max}`,
          `  by kind (p50/p95): ${(["edit", "create", "delete", "rename"] as const).map((k) => `${k} ${report.workByKindMs[k].p50}/${report.workByKindMs[k].p95}`).join(", ")} (a rename is a two-file batch)`,
          `  slowest: ${slowest
            .sort((a, b) => b.batch.ms - a.batch.ms)
            .slice(0, 4)
            .map((x) => `${x.label} ${Math.round(x.batch.ms)} ms (graph ${Math.round(x.batch.stages.graphMs)}, ${x.batch.resolved} re-resolved)`)
            .join("; ")}`,
          `  p50 by stage: plan ${report.singleFileStagesMs.plan.p50}, workers ${report.singleFileStagesMs.workers.p50}, graph ${report.singleFileStagesMs.graph.p50}, Redis write ${report.singleFileStagesMs.write.p50}`,
          `batch processing (ms): p50 ${report.batchMs.p50}  p95 ${report.batchMs.p95}  max ${report.batchMs.max}`,
          `burst of ${report.burst.files}: all in Redis ${report.burst.allLandedMs} ms after the first write (writing took ${report.burst.writeMs} ms), ${report.burst.batches.length} batch(es): ${report.burst.batches.map((b) => `${b.files} files in ${b.ms} ms`).join(", ")}`,
          ...(roundTrip
            ? [
                `${roundTrip.folder} (${roundTrip.out.files} files) removed: gone from Redis in ${roundTrip.out.landedMs} ms, longest event-loop stall ${roundTrip.out.longestStallMs} ms; copied back: in Redis in ${roundTrip.back.landedMs} ms, longest stall ${roundTrip.back.longestStallMs} ms`,
              ]
            : []),
          "",
          ...Object.entries(report.checks).map(([k, c]) => `${c.ok ? "PASS" : "FAIL"}  ${k} = ${c.value} (target ≤ ${c.target})`),
        ].join("\n"),
      );
    }
    process.stdout.write(`${JSON.stringify(report)}\n`);
    return Object.values(report.checks).every((c) => c.ok) ? 0 : 1;
  } finally {
    await watcher?.stop();
    await indexer.close();
    await opened.release();
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`bench:watch failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  },
);
