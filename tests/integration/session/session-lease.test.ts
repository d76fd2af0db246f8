// One process at a time in a session: the lease in a real Redis, held by a real other process (a child
// that stays alive), by a dead one, and by one on another machine.
import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/main/config/loader.js";
import type { IpuaroConfig } from "../../../src/main/config/schema.js";
import { isIpuaroError } from "../../../src/main/errors.js";
import { openSession, type OpenSessionOptions } from "../../../src/main/session/open-session.js";
import { leaseForChange, SessionLease, LEASE_TTL_MS } from "../../../src/main/session/session-lease.js";
import { sessionLeaseKey } from "../../../src/main/store/keys.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";

const server = useRedisServer();
let redis: Redis;
let root: string;
let config: IpuaroConfig;
let other: ChildProcess;

beforeAll(() => {
  redis = new Redis({ path: server().socket });
  root = makeTempDir("ipuaro-lease-");
  config = loadConfig({ projectRoot: root, env: { XDG_CONFIG_HOME: `${root}/.no-user-config` } }).config;
  other = spawn("sleep", ["600"], { stdio: "ignore" });
});
afterAll(() => {
  other.kill();
  redis.disconnect();
  removeDir(root);
});
beforeEach(async () => {
  await redis.flushdb();
});

const open = (choice: OpenSessionOptions["choice"], extra: Partial<OpenSessionOptions> = {}) => openSession({ redis, projectName: "work-app", root, config, choice, lease: "the UI", ...extra });

/** Puts a lease on the session as another ipuaro would. */
async function heldBy(sessionId: string, pid: number, host = os.hostname()): Promise<void> {
  await redis.set(sessionLeaseKey(sessionId), JSON.stringify({ pid, host, since: Date.parse("2026-11-30T14:05:00Z"), what: "the UI", token: "theirs" }), "PX", LEASE_TTL_MS);
}

describe("session leases", () => {
  let released: Array<SessionLease | null> = [];
  afterEach(async () => {
    for (const l of released) await l?.release();
    released = [];
  });

  it("opening a session takes it; closing lets it go", async () => {
    const first = await open({ kind: "new" });
    released.push(first.lease);
    const key = sessionLeaseKey(first.session.id);
    expect(JSON.parse((await redis.get(key))!)).toMatchObject({ pid: process.pid, what: "the UI" });
    expect(await redis.pttl(key)).toBeGreaterThan(LEASE_TTL_MS - 5_000);
    await first.lease!.release();
    expect(await redis.get(key)).toBeNull();
  });

  it("a session another live process has open is refused by id, and the project's last one gives a new session", async () => {
    const first = await open({ kind: "new" });
    await first.lease!.release();
    await heldBy(first.session.id, other.pid!);

    const byId = await open({ kind: "id", id: first.session.id }).catch((e: unknown) => e);
    expect(isIpuaroError(byId, "input")).toBe(true);
    expect((byId as Error).message).toMatch(new RegExp(`^session ${first.session.id} is open in another ipuaro: the UI \\(pid ${other.pid}, since \\d\\d:\\d\\d\\)$`));

    const last = await open({ kind: "last" });
    released.push(last.lease);
    expect(last.created).toBe(true);
    expect(last.session.id).not.toBe(first.session.id);
    expect(last.lastOpenElsewhere).toEqual({ id: first.session.id, holder: expect.objectContaining({ pid: other.pid, what: "the UI" }) });

    // `ipuaro run --continue` refuses rather than starting somewhere else.
    await last.lease!.release();
    await heldBy(last.session.id, other.pid!);
    await expect(open({ kind: "last" }, { ifLastOpenElsewhere: "refuse" })).rejects.toThrow(/is open in another ipuaro/);
    // A rewind or an undo from the command line is refused too, and changes nothing.
    await expect(leaseForChange(redis, last.session.id, "ipuaro rewind", "Rewind it there.")).rejects.toThrow(/is open in another ipuaro: the UI/);
    expect(JSON.parse((await redis.get(sessionLeaseKey(last.session.id)))!)).toMatchObject({ token: "theirs" });
  });

  it("a lease left by a process that died is taken over at once; one from another machine is respected until it expires", async () => {
    const first = await open({ kind: "new" });
    await first.lease!.release();
    const dead = spawn("true");
    await new Promise((r) => dead.on("exit", r));
    await heldBy(first.session.id, dead.pid!);
    const again = await open({ kind: "id", id: first.session.id });
    released.push(again.lease);
    expect(again.session.id).toBe(first.session.id);
    await again.lease!.release();

    await heldBy(first.session.id, process.pid, "another-machine");
    await expect(open({ kind: "id", id: first.session.id })).rejects.toThrow(/pid \d+ on another-machine/);
  });

  it("the same process may open its own session again; releasing the older hold leaves the newer", async () => {
    const first = await open({ kind: "new" });
    const again = await open({ kind: "id", id: first.session.id });
    released.push(again.lease);
    await first.lease!.release();
    expect(await SessionLease.holder(redis, first.session.id)).toBeNull();
    expect(await redis.get(sessionLeaseKey(first.session.id))).not.toBeNull();
  });
});
