// The honest end-to-end measure: poll Redis (the `stat` hash the watcher writes) until every path of an
// expectation shows the expected hash or is gone, and note when each one landed.
import type { Redis } from "../../src/main/store/index.js";
import { decodeStat } from "../../src/pipeline/index-store-port.js";
import type { Expectation } from "./operations.js";

const POLL_MS = 5;

export async function waitLanded(redis: Redis, statKey: string, expected: Expectation, startedAt: number, timeoutMs: number): Promise<Map<string, number>> {
  const landed = new Map<string, number>();
  const pending = new Set(expected.keys());
  const deadline = startedAt + timeoutMs;
  while (pending.size) {
    const paths = [...pending];
    const values = await redis.hmget(statKey, ...paths);
    const now = performance.now();
    values.forEach((raw, i) => {
      const p = paths[i] as string;
      const hash = raw === null ? null : (decodeStat(raw)?.hash ?? null);
      if (hash === expected.get(p)) {
        landed.set(p, now - startedAt);
        pending.delete(p);
      }
    });
    if (!pending.size) break;
    if (now > deadline) throw new Error(`not in Redis after ${timeoutMs} ms: ${paths.slice(0, 5).join(", ")}${paths.length > 5 ? " …" : ""}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return landed;
}

export function percentiles(values: number[]): { n: number; p50: number; p95: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
  const r = (n: number) => Math.round(n * 10) / 10;
  return { n: sorted.length, p50: r(at(0.5)), p95: r(at(0.95)), max: r(sorted.at(-1) ?? 0) };
}
