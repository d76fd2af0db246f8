// The shapes `ipuaro index` prints: a plain summary, the --bench table, and the --json object.
import type { IndexStats } from "../../pipeline/index-pipeline.js";
import type { ParseOnlyResult } from "../../pipeline/parse-baseline.js";
import type { ThreadCpuSplit } from "../../pipeline/thread-cpu.js";
import { counted } from "../plural.js";
import { SCHEMA_VERSION, storedSchema } from "../store/schema-version.js";

export interface BenchExtras {
  peakRssMb: number;
  redisUsedMb: number;
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  /** CPU time of this process over the index run after the walk, worker threads included. */
  cpuSeconds: number;
  /** The same, by kind of thread (Linux; null elsewhere). */
  threadCpuSeconds: ThreadCpuSplit | null;
  /** CPU time Redis spent meanwhile, its AOF-rewrite forks included. */
  redisCpuSeconds: number;
  /**
   * Minor page faults meanwhile: this process's, and Redis's when it runs on this machine (Linux; else
   * null). Memory first touched costs little on bare metal and microseconds per page on some VMs.
   */
  minorPageFaults: { process: number; redis: number | null };
  /** Parse-only baseline runs (before and after the cold run); empty when skipped. */
  parseOnlyRuns: ParseOnlyResult[];
}

const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;

function roundedSplit(split: ThreadCpuSplit | null | undefined): { threads?: ThreadCpuSplit } {
  return split ? { threads: { main: round(split.main, 2), workers: round(split.workers, 2), background: round(split.background, 2) } } : {};
}

const splitText = (t: ThreadCpuSplit | undefined) => (t ? `: main ${t.main}, workers ${t.workers}, V8/libuv background ${t.background}` : "");

export function indexJson(project: string, stats: IndexStats, bench: BenchExtras | null) {
  const mb = stats.bytes / 1024 / 1024;
  const out: Record<string, unknown> = {
    project,
    files: stats.files,
    parsed: stats.parsed,
    unchanged: stats.unchanged,
    removed: stats.removed,
    bytes: stats.bytes,
    skipped: { binary: stats.skipped.binary, nonUtf8: stats.skipped.nonUtf8, ignored: stats.skipped.ignored, unsupported: stats.skipped.unsupported, errors: stats.skipped.errors },
    symlinks: stats.symlinks,
    parseErrors: stats.parseErrors,
    // Always present, so a script reads the same shape whether or not anything went wrong.
    parseErrorFiles: stats.parseErrorPaths,
    nonUtf8Files: stats.nonUtf8Paths,
    schemaReset: stats.schemaReset,
    stages: Object.fromEntries(Object.entries(stats.stages).map(([k, v]) => [k, round(v)])),
    totalSeconds: round(stats.totalSeconds),
    filesPerSec: Math.round(stats.files / Math.max(stats.totalSeconds, 1e-6)),
    mbPerSec: round(mb / Math.max(stats.totalSeconds, 1e-6), 2),
  };
  if (bench) {
    out.peakRssMb = bench.peakRssMb;
    out.redisUsedMb = round(bench.redisUsedMb, 1);
    out.eventLoopDelayMs = bench.eventLoopDelayMs;
    // CPU seconds say where the time goes when both runs keep every core busy.
    out.cpuSeconds = { process: round(bench.cpuSeconds, 2), redis: round(bench.redisCpuSeconds, 2), ...roundedSplit(bench.threadCpuSeconds) };
    out.minorPageFaults = bench.minorPageFaults;
    // The fastest baseline: noise can only make the ratio worse.
    const fastest = bench.parseOnlyRuns.reduce<ParseOnlyResult | null>((best, r) => (best === null || r.seconds < best.seconds ? r : best), null);
    out.parseOnlySeconds = fastest === null ? null : round(fastest.seconds);
    out.parseOnlyRuns = bench.parseOnlyRuns.map((r) => round(r.seconds));
    out.parseOnlyCpuSeconds = fastest?.cpuSeconds === undefined ? null : round(fastest.cpuSeconds, 2);
    out.parseOnlyThreadCpuSeconds = roundedSplit(fastest?.threadCpuSeconds ?? null).threads ?? null;
    out.parseOnlyMinorPageFaults = fastest?.minorPageFaults ?? null;
    out.ratioToParseOnly = fastest ? round(stats.totalSeconds / fastest.seconds, 2) : null;
  }
  out.errors = stats.errors.slice(0, 20);
  return out;
}

/** `schemaBefore`: the index's schemaVersion before the run, to say what a reset replaced. */
export function summaryText(project: string, stats: IndexStats, schemaBefore: string | null = null): string {
  const parts = [
    `indexed ${counted(stats.files, "file")} of ${project} in ${stats.totalSeconds.toFixed(2)}s`,
    // With the symlinks, the counts add up to the files found (a tree of links read "0 parsed, 0 unchanged").
    `${stats.parsed} parsed, ${stats.unchanged} unchanged${stats.removed ? `, ${stats.removed} removed` : ""}${stats.symlinks ? `, ${stats.symlinks} ${stats.symlinks === 1 ? "symlink" : "symlinks"} (recorded, not followed)` : ""}`,
    `skipped: ${stats.skipped.binary} binary (metadata only), ${stats.skipped.nonUtf8} non-UTF-8, ${stats.skipped.ignored} ignored, ${stats.skipped.unsupported} of types not indexed${stats.skipped.errors ? `, ${stats.skipped.errors} that could not be read (listed below)` : ""}`,
  ];
  if (stats.schemaReset) {
    parts.push(
      schemaBefore !== null && storedSchema(schemaBefore) === "newer"
        ? `the index a newer ipuaro wrote (schema ${schemaBefore}) was rebuilt from scratch for this one (schema ${SCHEMA_VERSION})`
        : "the stored index had an older schema and was rebuilt from scratch",
    );
  }
  return [...parts, ...indexProblems(stats)].join("\n");
}

/** What a run could not index cleanly, a line each: files with syntax errors, then errors (first five). */
export function indexProblems(stats: IndexStats): string[] {
  const lines: string[] = [];
  if (stats.parseErrors) {
    const more = stats.parseErrors - stats.parseErrorPaths.length;
    const named = `${stats.parseErrorPaths.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
    lines.push(`${stats.parseErrors} ${stats.parseErrors === 1 ? "file" : "files"} with syntax errors (indexed as far as they parse): ${named}`);
  }
  if (stats.nonUtf8Paths.length) {
    const more = stats.skipped.nonUtf8 - stats.nonUtf8Paths.length;
    lines.push(`not UTF-8, skipped: ${stats.nonUtf8Paths.join(", ")}${more > 0 ? ` and ${more} more` : ""}`);
  }
  for (const e of stats.errors.slice(0, 5)) lines.push(`error: ${e.path}: ${e.message}`);
  if (stats.errors.length > 5) lines.push(`… and ${stats.errors.length - 5} more errors`);
  return lines;
}

export function benchText(json: Record<string, unknown>): string {
  const s = json.stages as Record<string, number>;
  const el = json.eventLoopDelayMs as { p50: number; p99: number; max: number };
  const lines = [
    "stage          seconds",
    `walk           ${s.walk?.toFixed(3)}`,
    `read+hash      ${s.readHash?.toFixed(3)}   (worker time / pool size)`,
    `parse          ${s.parse?.toFixed(3)}   (worker time / pool size)`,
    `redis write    ${s.write?.toFixed(3)}   (main-thread time issuing writes + the wait after the workers)`,
    `graph          ${s.graph?.toFixed(3)}`,
    `total          ${(json.totalSeconds as number).toFixed(3)}`,
    "",
    `files/s        ${json.filesPerSec}`,
    `MB/s           ${json.mbPerSec}`,
    `peak RSS       ${json.peakRssMb} MB`,
    `redis used     ${json.redisUsedMb} MB`,
    `event loop     p50 ${el.p50} ms, p99 ${el.p99} ms, max ${el.max} ms`,
  ];
  const cpu = json.cpuSeconds as { process: number; redis: number; threads?: ThreadCpuSplit } | undefined;
  if (cpu) lines.push(`cpu            ${cpu.process} s (this process${splitText(cpu.threads)}) + ${cpu.redis} s (Redis)`);
  const faults = json.minorPageFaults as { process: number; redis: number | null } | undefined;
  const baselineFaults = typeof json.parseOnlyMinorPageFaults === "number" ? `; parse-only ${json.parseOnlyMinorPageFaults}` : "";
  if (faults) lines.push(`page faults    ${faults.process} (this process)${faults.redis === null ? "" : ` + ${faults.redis} (Redis)`}${baselineFaults}`);
  if (json.parseOnlySeconds !== undefined && json.parseOnlySeconds !== null)
    lines.push(
      `parse-only     ${(json.parseOnlySeconds as number).toFixed(3)} s  (fastest of ${(json.parseOnlyRuns as number[]).join(" / ")} s, before and after)`,
      `parse-only cpu ${json.parseOnlyCpuSeconds} s${splitText((json.parseOnlyThreadCpuSeconds as ThreadCpuSplit | null) ?? undefined)}`,
      // A run that found files unchanged is not a cold one (warm: nothing changed, or a few files).
      json.unchanged === 0 ? `cold / parse-only = ${json.ratioToParseOnly}` : `this run / parse-only = ${json.ratioToParseOnly} (not cold: ${json.unchanged} of ${json.files} files were unchanged; --force for a cold run)`,
    );
  return lines.join("\n");
}
