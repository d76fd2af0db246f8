// A whole package leaving the project and coming back, file by file: what a rewind of a change that
// added or removed a package does to the live index. Measured end to end (every path gone, then every
// path back with its old hash) and by the event loop's longest stall meanwhile, which is how long a key
// typed in the TUI would wait.
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { KnownFileState } from "../../src/workers/protocol.js";
import { waitLanded } from "./landing-probe.js";
import type { Expectation } from "./operations.js";
import type { Redis } from "../../src/main/store/index.js";

export interface PhaseReport {
  files: number;
  landedMs: number;
  /** The event loop's longest stall while the phase ran (ms). */
  longestStallMs: number;
}

export interface PackageRoundTrip {
  folder: string;
  out: PhaseReport;
  back: PhaseReport;
}

/** The folder under packages/ or apps/ holding the most indexed files. */
export function largestPackage(indexed: Iterable<string>): string | null {
  const counts = new Map<string, number>();
  for (const p of indexed) {
    const m = /^((?:packages|apps)\/[^/]+)\//.exec(p);
    if (m) counts.set(m[1] as string, (counts.get(m[1] as string) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;
}

async function measured(work: () => Promise<Map<string, number>>): Promise<{ landedMs: number; longestStallMs: number }> {
  // 10 ms resolution: stalls shorter than a frame are not what is looked for.
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  try {
    const landed = await work();
    return { landedMs: Math.round(Math.max(0, ...landed.values())), longestStallMs: Math.round(delay.max / 1e6) };
  } finally {
    delay.disable();
  }
}

/**
 * Moves `folder` out of the project (copied aside, then removed) and copies it back, each phase waited
 * on until Redis shows it. `idle` waits for the watcher to settle before the phase ends.
 */
export async function packageRoundTrip(opts: { root: string; folder: string; redis: Redis; statKey: string; stats: Map<string, KnownFileState>; idle: () => Promise<void> }): Promise<PackageRoundTrip> {
  const { root, folder, redis, statKey, stats, idle } = opts;
  const abs = path.join(root, folder);
  const aside = fs.mkdtempSync(path.join(os.tmpdir(), "ipuaro-watch-bench-aside-"));
  const parked = path.join(aside, path.basename(folder));
  const paths = [...stats.keys()].filter((p) => p.startsWith(`${folder}/`));
  const gone: Expectation = new Map(paths.map((p) => [p, null]));
  const back: Expectation = new Map(paths.map((p) => [p, stats.get(p)?.hash ?? null]));
  try {
    await fsp.cp(abs, parked, { recursive: true, verbatimSymlinks: true });
    await idle();
    const outStarted = performance.now();
    const out = await measured(async () => {
      await fsp.rm(abs, { recursive: true, force: true });
      const landed = await waitLanded(redis, statKey, gone, outStarted, 120_000);
      await idle();
      return landed;
    });
    const backStarted = performance.now();
    const again = await measured(async () => {
      await fsp.cp(parked, abs, { recursive: true, verbatimSymlinks: true });
      const landed = await waitLanded(redis, statKey, back, backStarted, 120_000);
      await idle();
      return landed;
    });
    return { folder, out: { files: paths.length, ...out }, back: { files: paths.length, ...again } };
  } finally {
    fs.rmSync(aside, { recursive: true, force: true });
  }
}
