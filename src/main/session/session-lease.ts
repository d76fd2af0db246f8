// One process at a time works in a session. Two on one session (the UI open while `ipuaro run -c` or
// `ipuaro rewind` runs in another terminal) overwrote each other's conversation head: a rewind was
// undone by the next message, a turn dropped off the active branch. The process that opens a session
// holds a lease on it in Redis (its pid, host and what it is), renewed while it lives and gone within
// LEASE_TTL_MS of a crash; a lease whose holder is a dead process on this machine is taken over at once.
import { randomUUID } from "node:crypto";
import os from "node:os";
import type { Redis } from "ioredis";
import { IpuaroError } from "../errors.js";
import { sessionLeaseKey } from "../store/keys.js";
import { isPidAlive } from "../store/process-lock.js";

export const LEASE_TTL_MS = 30_000;
const RENEW_EVERY_MS = 10_000;

export interface LeaseHolder {
  pid: number;
  host: string;
  /** When it took the session (ms since the epoch). */
  since: number;
  /** What holds it: "the UI", "ipuaro run", … */
  what: string;
}

interface LeaseValue extends LeaseHolder {
  token: string;
}

/** Renews the lease if it is still ours (the value is compared whole: its token is unique). */
const RENEW = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end`;
/** Deletes the lease if it is still the value read (ours, or a dead holder's being taken over). */
const RELEASE = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`;

function parse(raw: string | null): LeaseValue | null {
  if (raw === null) return null;
  try {
    const v = JSON.parse(raw) as LeaseValue;
    return typeof v.pid === "number" && typeof v.host === "string" ? v : null;
  } catch {
    return null;
  }
}

/** A holder that is another process still alive (or one on another machine, trusted until its lease expires). */
function isOther(v: LeaseValue): boolean {
  if (v.host !== os.hostname()) return true;
  return v.pid !== process.pid && isPidAlive(v.pid);
}

export class SessionLease {
  private timer: NodeJS.Timeout | null;

  private constructor(
    private readonly redis: Redis,
    readonly sessionId: string,
    private readonly value: string,
  ) {
    this.timer = setInterval(() => void this.renew(), RENEW_EVERY_MS);
    this.timer.unref();
  }

  /** Takes the session, or says who has it. This process may take a session it already holds. */
  static async acquire(redis: Redis, sessionId: string, what: string): Promise<{ lease: SessionLease } | { heldBy: LeaseHolder }> {
    const key = sessionLeaseKey(sessionId);
    const value = JSON.stringify({ pid: process.pid, host: os.hostname(), since: Date.now(), what, token: randomUUID() } satisfies LeaseValue);
    for (let attempt = 0; attempt < 3; attempt++) {
      if ((await redis.set(key, value, "PX", LEASE_TTL_MS, "NX")) === "OK") return { lease: new SessionLease(redis, sessionId, value) };
      const raw = await redis.get(key);
      const held = parse(raw);
      if (held && isOther(held)) return { heldBy: { pid: held.pid, host: held.host, since: held.since, what: held.what } };
      // A dead holder on this machine, this process itself (the UI opening its own session again), or
      // an unreadable value: taken over.
      if (raw !== null) await redis.eval(RELEASE, 1, key, raw);
    }
    throw new IpuaroError("redis", `could not take session ${sessionId}: its lease kept changing hands`);
  }

  /** Who has the session open, when it is another live process (null: nobody, or this process). */
  static async holder(redis: Redis, sessionId: string): Promise<LeaseHolder | null> {
    const held = parse(await redis.get(sessionLeaseKey(sessionId)));
    return held && isOther(held) ? { pid: held.pid, host: held.host, since: held.since, what: held.what } : null;
  }

  private async renew(): Promise<void> {
    try {
      await this.redis.eval(RENEW, 1, sessionLeaseKey(this.sessionId), this.value, String(LEASE_TTL_MS));
    } catch {
      // Redis away for a moment: the next renewal tries again; the lease lasts three periods.
    }
  }

  async release(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.redis.eval(RELEASE, 1, sessionLeaseKey(this.sessionId), this.value).catch(() => {});
  }
}

/** "the UI (pid 4242, since 14:05)", "ipuaro run (pid 77 on buildbox, since …)". */
export function describeHolder(h: LeaseHolder): string {
  const where = h.host === os.hostname() ? "" : ` on ${h.host}`;
  const since = new Date(h.since).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });
  return `${h.what} (pid ${h.pid}${where}, since ${since})`;
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
