// A lease in Redis: one process at a time holds a key (its pid, host and what it is), renewed while it
// lives and gone within LEASE_TTL_MS of a crash; a lease whose holder is a dead process on this machine
// is taken over at once. Sessions (session-lease.ts) and index runs (index-run-lease.ts) hold one.
import { randomUUID } from "node:crypto";
import os from "node:os";
import type { Redis } from "ioredis";
import { IpuaroError } from "../errors.js";
import { isPidAlive } from "./process-lock.js";

export const LEASE_TTL_MS = 30_000;
const RENEW_EVERY_MS = 10_000;

export interface LeaseHolder {
  pid: number;
  host: string;
  /** When it took the lease (ms since the epoch). */
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

const holderOf = (v: LeaseValue): LeaseHolder => ({ pid: v.pid, host: v.host, since: v.since, what: v.what });

/**
 * Takes the lease at `key`, or says who has it. This process may take a lease it already holds. The
 * value taken is what a RedisLease is then built with.
 */
export async function takeLease(redis: Redis, key: string, what: string): Promise<{ value: string } | { heldBy: LeaseHolder }> {
  const value = JSON.stringify({ pid: process.pid, host: os.hostname(), since: Date.now(), what, token: randomUUID() } satisfies LeaseValue);
  for (let attempt = 0; attempt < 3; attempt++) {
    if ((await redis.set(key, value, "PX", LEASE_TTL_MS, "NX")) === "OK") return { value };
    const raw = await redis.get(key);
    const held = parse(raw);
    if (held && isOther(held)) return { heldBy: holderOf(held) };
    // A dead holder on this machine, this process itself, or an unreadable value: taken over.
    if (raw !== null) await redis.eval(RELEASE, 1, key, raw);
  }
  throw new IpuaroError("redis", `could not take ${key}: its lease kept changing hands`);
}

/** Who holds the lease at `key`, when it is another live process (null: nobody, or this process). */
export async function leaseHolder(redis: Redis, key: string): Promise<LeaseHolder | null> {
  const held = parse(await redis.get(key));
  return held && isOther(held) ? holderOf(held) : null;
}

/** A lease this process holds: renewed until released. */
export class RedisLease {
  private timer: NodeJS.Timeout | null;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly value: string,
  ) {
    this.timer = setInterval(() => void this.renew(), RENEW_EVERY_MS);
    this.timer.unref();
  }

  private async renew(): Promise<void> {
    try {
      await this.redis.eval(RENEW, 1, this.key, this.value, String(LEASE_TTL_MS));
    } catch {
      // Redis away for a moment: the next renewal tries again; the lease lasts three periods.
    }
  }

  async release(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.redis.eval(RELEASE, 1, this.key, this.value).catch(() => {});
  }
}

/** "the UI (pid 4242, since 14:05)", "ipuaro run (pid 77 on buildbox, since …)". */
export function describeHolder(h: LeaseHolder): string {
  const where = h.host === os.hostname() ? "" : ` on ${h.host}`;
  const since = new Date(h.since).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });
  return `${h.what} (pid ${h.pid}${where}, since ${since})`;
}
