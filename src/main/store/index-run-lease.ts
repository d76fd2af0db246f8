// One index run of a project at a time: a run holds the project's index-run lease (redis-lease.ts), and
// a run that finds it held says who has it and waits its turn.
import { setTimeout as sleep } from "node:timers/promises";
import type { Redis } from "ioredis";
import { projectIndexLeaseKey } from "./keys.js";
import { describeHolder, RedisLease, takeLease } from "./redis-lease.js";

/** How often a run waiting for another one's index run looks again. */
const INDEX_RUN_POLL_MS = 250;

/** What the store lends: its connection and error mapping. */
export interface IndexRunLeaseIo {
  redis: Redis;
  op<T>(action: string, fn: () => Promise<T>): Promise<T>;
}

/** Takes the lease, waiting while another process holds it (`onWait` is told once who); resolves to its release. */
export async function waitForIndexRunLease(io: IndexRunLeaseIo, project: string, by: string, onWait: (holder: string) => void, signal?: AbortSignal): Promise<() => Promise<void>> {
  const key = projectIndexLeaseKey(project);
  let told = false;
  for (;;) {
    signal?.throwIfAborted();
    const taken = await io.op("taking the index run lease", () => takeLease(io.redis, key, by));
    if ("value" in taken) {
      const lease = new RedisLease(io.redis, key, taken.value);
      return () => lease.release();
    }
    if (!told) onWait(describeHolder(taken.heldBy));
    told = true;
    await sleep(INDEX_RUN_POLL_MS, undefined, { signal }).catch(() => signal?.throwIfAborted());
  }
}

export function indexRunLeaseHeld(io: IndexRunLeaseIo, project: string): Promise<boolean> {
  return io.op("looking for an index run", async () => (await io.redis.exists(projectIndexLeaseKey(project))) > 0);
}
