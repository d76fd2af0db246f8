// `ipuaro index --drop`: frees one project's index. Every key of the index goes (PROJECT_KEY_PARTS, the
// side keys of graph rewrites, the index-run lease); what the project remembers stays — its sessions,
// memory, notes, decisions and analytics (shadow-keys.ts) are not the index, and the next index run
// builds the index again from the files.
import { IpuaroError } from "../errors.js";
import { redisOp } from "./connection.js";
import { PROJECT_KEY_PARTS, projectIndexLeaseKey } from "./keys.js";
import type { ProjectStore } from "./project-store.js";
import { describeHolder, RedisLease, takeLease } from "./redis-lease.js";

export interface DroppedIndex {
  /** Files the index held (its `stat` entries). */
  files: number;
  /** Keys removed. */
  keys: number;
  /** Memory the keys held, as Redis measures it (MEMORY USAGE); null when the server does not say. */
  bytes: number | null;
}

/** SCAN batch size when looking for the side keys of graph rewrites. */
const SCAN_COUNT = 1000;

/**
 * Drops the index of `store`'s project, holding its index-run lease meanwhile: refused (IpuaroError
 * 'conflict') while another process runs an index of it, which would write a half index back.
 */
export async function dropProjectIndex(store: ProjectStore, by: string): Promise<DroppedIndex> {
  const { redis, keys } = store;
  const op = <T>(action: string, fn: () => Promise<T>) => redisOp(redis, `${action} (project ${store.name})`, fn);
  const leaseKey = projectIndexLeaseKey(store.name);
  const taken = await op("taking the index run lease", () => takeLease(redis, leaseKey, by));
  if (!("value" in taken)) {
    throw new IpuaroError("conflict", `${describeHolder(taken.heldBy)} is indexing ${store.name}; its index was not dropped`, {
      suggestion: "Run `ipuaro index --drop` again once that run has finished (or stop it with Ctrl+C).",
    });
  }
  const lease = new RedisLease(redis, leaseKey, taken.value);
  try {
    return await op("dropping the index", async () => {
      // A rewrite's side key (indexes_next:<run>) of a run that died expires on its own, but is freed now.
      const found: string[] = PROJECT_KEY_PARTS.map((p) => keys[p]);
      let cursor = "0";
      do {
        const [next, batch] = await redis.scan(cursor, "MATCH", `${keys.indexes_next}:*`, "COUNT", SCAN_COUNT);
        found.push(...batch);
        cursor = next;
      } while (cursor !== "0");
      const files = await redis.hlen(keys.stat);
      const bytes = await memoryOf(store, found);
      const removed = found.length ? await redis.unlink(...found) : 0;
      return { files, keys: removed, bytes };
    });
  } finally {
    // Releasing deletes the lease key: nothing of the index is left.
    await lease.release();
  }
}

/** Bytes the keys hold (exact: SAMPLES 0), or null when MEMORY USAGE is not allowed on the server. */
async function memoryOf(store: ProjectStore, keys: readonly string[]): Promise<number | null> {
  const pipeline = store.redis.pipeline();
  for (const key of keys) pipeline.call("MEMORY", "USAGE", key, "SAMPLES", "0");
  const results = (await pipeline.exec()) ?? [];
  let total = 0;
  for (const [err, value] of results) {
    if (err) return null;
    total += typeof value === "number" ? value : 0;
  }
  return total;
}
