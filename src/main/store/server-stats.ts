// Figures read off the Redis server for `ipuaro index`'s benchmark report and the status report: its
// CPU time and memory (INFO), a project's share of the memory (MEMORY USAGE), and whether a background
// save is running. CPU and memory are the whole server's: they mean most on a server ipuaro has to itself.
import type { Redis } from "ioredis";

/**
 * Waits (up to `timeoutMs`) until `readPersistence` (INFO persistence) shows no background AOF rewrite
 * or RDB save. True when it went quiet in time.
 */
export async function waitForPersistenceIdle(readPersistence: () => Promise<string>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const info = await readPersistence();
    const busy = /^(aof_rewrite_in_progress|aof_rewrite_scheduled|rdb_bgsave_in_progress):1/m.test(info);
    if (!busy) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** CPU seconds in INFO cpu, the server's forks (AOF rewrites, saves) included. */
export function cpuSecondsIn(info: string): number {
  let total = 0;
  for (const m of info.matchAll(/^used_cpu_(?:sys|user)(?:_children)?:([\d.]+)/gm)) total += Number(m[1]);
  return total;
}

/** process_id in INFO server (the server's pid on its own host); 0 when missing. */
export function processIdIn(info: string): number {
  const match = /^process_id:(\d+)/m.exec(info);
  return match ? Number(match[1]) : 0;
}

/** used_memory in INFO memory, in bytes. */
export function usedMemoryIn(info: string): number {
  const match = /^used_memory:(\d+)/m.exec(info);
  return match ? Number(match[1]) : 0;
}

/** Bytes held by `keys` (MEMORY USAGE … SAMPLES 0: exact, O(fields)), in one pipeline. */
export async function keysMemoryBytes(redis: Redis, keys: readonly string[]): Promise<number> {
  const pipeline = redis.pipeline();
  for (const key of keys) pipeline.call("MEMORY", "USAGE", key, "SAMPLES", "0");
  const results = (await pipeline.exec()) ?? [];
  let total = 0;
  for (const [err, value] of results) {
    if (err) throw err;
    total += typeof value === "number" ? value : 0;
  }
  return total;
}
