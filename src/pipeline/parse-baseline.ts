// The bench's yardstick: the same files through the same kind of pool doing only read + parse + extract,
// with nothing hashed, serialised or stored. `cold index / parse-only` shows what storage costs on top.
//
// The baseline runs in a fresh child process, so it starts from the state the cold run started from: no
// allocator grown by an earlier run, no other pool's threads and heap beside it. (Run in the indexing
// process, next to memory the cold run still held, it once came out 0.8 s slower and flattered the ratio.)
import { spawn } from "node:child_process";
import type { ThreadCpuSplit } from "./thread-cpu.js";
import type { IndexWorkerPool } from "./worker-pool.js";
import { FILES_PER_TASK } from "./index-pipeline.js";
import { packageFile, RUNNING_FROM_SOURCE } from "./package-files.js";

export interface ParseOnlyRequest {
  root: string;
  /** The child walks the project itself, with the indexer's rules, so the indexing process's own walk runs as cold as a user's. */
  ignorePatterns: string[];
  binaryExtensions: string[];
  /** Pool size; null = the default (cores). */
  workers: number | null;
}

export interface ParseOnlyResult {
  seconds: number;
  bytes: number;
  /** Entries the walk found (files and symlinks), as the index counts them (set by the child process). */
  found?: number;
  /** CPU time of the process over the run, worker threads included (set by the child process). */
  cpuSeconds?: number;
  /** The same, by kind of thread (Linux). */
  threadCpuSeconds?: ThreadCpuSplit;
  /** Minor page faults of the process over the run (set by the child process). */
  minorPageFaults?: number;
}

export async function runParseOnly(root: string, paths: string[], pool: IndexWorkerPool, binaryExtensions: string[]): Promise<ParseOnlyResult> {
  const started = performance.now();
  let bytes = 0;
  const tasks: Promise<void>[] = [];
  for (let i = 0; i < paths.length; i += FILES_PER_TASK) {
    const group = paths.slice(i, i + FILES_PER_TASK);
    tasks.push(pool.run({ root, paths: group, binaryExtensions, mode: "parse-only" }).then((r) => void (bytes += r.bytes)));
  }
  await Promise.all(tasks);
  return { seconds: (performance.now() - started) / 1000, bytes };
}

/** Starts every thread and loads its modules, so neither measured run pays for warm-up. */
export async function warmPool(pool: IndexWorkerPool, root: string): Promise<void> {
  await Promise.all(Array.from({ length: pool.size * 2 }, () => pool.run({ root, paths: [], binaryExtensions: [], mode: "parse-only" })));
}

/** Runs the baseline in a fresh process (see above): request on stdin, result as JSON on stdout. */
export function runParseOnlyInChild(request: ParseOnlyRequest): Promise<ParseOnlyResult> {
  const entry = RUNNING_FROM_SOURCE ? packageFile("src", "pipeline", "parse-baseline-child.ts") : packageFile("dist", "pipeline", "parse-baseline-child.js");
  // execArgv carries `--import tsx` when running from sources.
  const child = spawn(process.execPath, [...process.execArgv, entry], { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
  child.stdin.end(JSON.stringify(request));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`parse-only baseline failed (exit ${code}): ${err.trim().split("\n").slice(-3).join(" ")}`));
      try {
        resolve(JSON.parse(out) as ParseOnlyResult);
      } catch {
        reject(new Error(`parse-only baseline printed no result: ${out.slice(0, 200)}`));
      }
    });
  });
}
