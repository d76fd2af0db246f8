// What checkpoints need from the store layer, in one place (src/main never imports ioredis itself).
import type { Redis } from "../store/index.js";

export { redisOp, sessionDataKey, type Redis } from "../store/index.js";

/** Keys matching a glob, via SCAN (never KEYS, which blocks the server). */
export async function* scanKeys(redis: Redis, pattern: string): AsyncGenerator<string> {
  const seen = new Set<string>();
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 500);
    cursor = next;
    for (const key of keys) {
      // SCAN may return a key more than once.
      if (seen.has(key)) continue;
      seen.add(key);
      yield key;
    }
  } while (cursor !== "0");
}
