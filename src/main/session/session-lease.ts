// One process at a time works in a session. Two on one session (the UI open while `ipuaro run -c` or
// `ipuaro rewind` runs in another terminal) overwrote each other's conversation head: a rewind was
// undone by the next message, a turn dropped off the active branch. The process that opens a session
// holds a lease on it (redis-lease.ts).
import type { Redis } from "ioredis";
import { IpuaroError } from "../errors.js";
import { sessionLeaseKey } from "../store/keys.js";
import { describeHolder, leaseHolder, RedisLease, takeLease, type LeaseHolder } from "../store/redis-lease.js";

export { describeHolder, LEASE_TTL_MS, type LeaseHolder } from "../store/redis-lease.js";

export class SessionLease extends RedisLease {
  private constructor(
    redis: Redis,
    readonly sessionId: string,
    value: string,
  ) {
    super(redis, sessionLeaseKey(sessionId), value);
  }

  /** Takes the session, or says who has it. This process may take a session it already holds. */
  static async acquire(redis: Redis, sessionId: string, what: string): Promise<{ lease: SessionLease } | { heldBy: LeaseHolder }> {
    const taken = await takeLease(redis, sessionLeaseKey(sessionId), what);
    return "heldBy" in taken ? taken : { lease: new SessionLease(redis, sessionId, taken.value) };
  }

  /** Who has the session open, when it is another live process (null: nobody, or this process). */
  static holder(redis: Redis, sessionId: string): Promise<LeaseHolder | null> {
    return leaseHolder(redis, sessionLeaseKey(sessionId));
  }
}

export function openElsewhereError(sessionId: string, holder: LeaseHolder, suggestion: string): IpuaroError {
  return new IpuaroError("input", `session ${sessionId} is open in another ipuaro: ${describeHolder(holder)}`, { recoverable: false, suggestion });
}

/**
 * For commands that change a session without opening it (rewind, undo): the session's lease for the
 * length of the change, refused while another process has it open.
 */
export async function leaseForChange(redis: Redis, sessionId: string, what: string, suggestion: string): Promise<SessionLease> {
  const taken = await SessionLease.acquire(redis, sessionId, what);
  if ("heldBy" in taken) throw openElsewhereError(sessionId, taken.heldBy, suggestion);
  return taken.lease;
}
