import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { IpuaroError } from "../../../src/main/errors.js";
import { acquireRedis } from "../../../src/main/store/acquire-redis.js";
import { holdAofRewrites } from "../../../src/main/store/aof-rewrite-hold.js";
import { managedRedisLayout } from "../../../src/main/store/managed-redis-layout.js";
import { ProjectStore } from "../../../src/main/store/project-store.js";
import { reconnectRedis } from "../../../src/main/store/connection.js";
import { acquireManagedRedis, startManagedRedisEarly, type RedisHandle } from "../../../src/main/store/managed-redis.js";
import { isPidAlive } from "../../../src/main/store/process-lock.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";
import { signalPid } from "../../helpers/signal-pid.js";

const handles: RedisHandle[] = [];
const homes: string[] = [];
const children: ChildProcess[] = [];

function newHome(): string {
  const home = makeTempDir("ipuaro-home-");
  homes.push(home);
  return home;
}

async function acquire(home: string, extra: { redisServerBin?: string } = {}): Promise<RedisHandle> {
  const handle = await acquireManagedRedis({ home, ...extra });
  handles.push(handle);
  return handle;
}

afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const h of handles.splice(0)) await h.release().catch(() => {});
  // Whatever a failed test left running must not outlive it.
  for (const home of homes.splice(0)) {
    const layout = managedRedisLayout(home);
    const pid = Number(fs.existsSync(layout.pidFile) ? fs.readFileSync(layout.pidFile, "utf8") : 0);
    if (pid > 0 && isPidAlive(pid)) process.kill(pid, "SIGKILL");
    if (!layout.socketDir.startsWith(home)) removeDir(layout.socketDir);
    removeDir(home);
  }
});

async function configGet(handle: RedisHandle, name: string): Promise<string | undefined> {
  const reply = (await handle.redis.config("GET", name)) as string[];
  return reply[1];
}

async function waitUntil(cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("ipuaro's own redis-server", () => {
  it("starts on a private unix socket with AOF and no TCP", async () => {
    const home = newHome();
    const handle = await acquire(home);
    const info = handle.managed!;
    expect(info.started).toBe(true);
    expect(info.socketPath).toBe(path.join(home, "run", "redis.sock"));
    expect(info.dataDir).toBe(path.join(home, "redis"));
    expect(fs.statSync(path.dirname(info.socketPath)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(info.dataDir).mode & 0o777).toBe(0o700);
    expect(await configGet(handle, "port")).toBe("0");
    expect(await configGet(handle, "appendonly")).toBe("yes");
    expect(await configGet(handle, "appendfsync")).toBe("everysec");
    expect(await configGet(handle, "auto-aof-rewrite-percentage")).toBe("100");
    expect(await configGet(handle, "auto-aof-rewrite-min-size")).toBe(String(64 * 1024 * 1024));
    expect(await configGet(handle, "save")).toBe("");
    expect(await configGet(handle, "unixsocketperm")).toBe("700");
    expect(await configGet(handle, "logfile")).toBe(path.join(home, "redis", "redis.log"));
    expect(Number(fs.readFileSync(path.join(info.dataDir, "redis.pid"), "utf8"))).toBe(info.pid);
    expect(handle.description).toContain(info.socketPath);
    // Detached: leader of its own process group, so a terminal's Ctrl+C (sent to our group) misses it.
    const pgid = Number(execFileSync("ps", ["-o", "pgid=", "-p", String(info.pid)], { encoding: "utf8" }).trim());
    expect(pgid).toBe(info.pid);
  });

  it("lives under IPUARO_HOME when no home is passed", async () => {
    const home = newHome();
    const saved = process.env.IPUARO_HOME;
    process.env.IPUARO_HOME = home;
    try {
      const handle = await acquireRedis({ url: null });
      handles.push(handle);
      expect(handle.managed?.dataDir).toBe(path.join(home, "redis"));
    } finally {
      if (saved === undefined) delete process.env.IPUARO_HOME;
      else process.env.IPUARO_HOME = saved;
    }
  });

  it("is reused by a second user and stopped by the last release, keeping the AOF", async () => {
    const home = newHome();
    const first = await acquire(home);
    const second = await acquire(home);
    expect(second.managed!.pid).toBe(first.managed!.pid);
    expect(second.managed!.started).toBe(false);
    await first.redis.set("survives", "yes");

    await first.release();
    expect(isPidAlive(first.managed!.pid)).toBe(true);
    expect(await second.redis.get("survives")).toBe("yes");

    await second.release();
    expect(isPidAlive(first.managed!.pid)).toBe(false);
    expect(fs.existsSync(first.managed!.socketPath)).toBe(false);
    const aofDir = path.join(first.managed!.dataDir, "appendonlydir");
    expect(fs.readdirSync(aofDir).some((f) => f.endsWith(".manifest"))).toBe(true);
    expect(fs.readdirSync(aofDir).some((f) => f.includes(".incr.aof"))).toBe(true);

    // A new start loads the AOF back.
    const third = await acquire(home);
    expect(third.managed!.started).toBe(true);
    expect(third.managed!.pid).not.toBe(first.managed!.pid);
    expect(await third.redis.get("survives")).toBe("yes");
  });

  it("turns AOF rewrites back on when a user died holding them off for an index run", async () => {
    const home = newHome();
    const keeper = await acquire(home);
    const dying = await acquire(home);
    await holdAofRewrites(dying.redis);
    dying.redis.disconnect();
    handles.splice(handles.indexOf(dying), 1);
    const rewritePercentage = async () => ((await keeper.redis.config("GET", "auto-aof-rewrite-percentage")) as string[])[1];
    expect(await rewritePercentage()).toBe("0");
    for (let i = 0; i < 50 && String(await keeper.redis.client("LIST")).includes("holding-aof-rewrite"); i++) await new Promise((r) => setTimeout(r, 20));
    await acquire(home);
    expect(await rewritePercentage()).toBe("100");
  });

  it("starts early without a connection, and the user that comes next finds it up", async () => {
    const home = newHome();
    startManagedRedisEarly({ home });
    const layout = managedRedisLayout(home);
    const handle = await acquire(home);
    // Found running (started by the early start), the same server the pidfile names.
    expect(handle.managed!.started).toBe(false);
    expect(Number(fs.readFileSync(layout.pidFile, "utf8"))).toBe(handle.managed!.pid);
    expect(await handle.redis.ping()).toBe("PONG");
    // Its only user's release stops it, as for a server the user started itself.
    await handle.release();
    expect(isPidAlive(handle.managed!.pid)).toBe(false);
  });

  it("leaves an early start's failure for the user that comes next to report", async () => {
    const home = newHome();
    const missing = path.join(home, "no-such-redis-server");
    startManagedRedisEarly({ home, redisServerBin: missing });
    await expect(acquireManagedRedis({ home, redisServerBin: missing })).rejects.toMatchObject({ type: "redis", message: expect.stringMatching(/redis-server not found/) });
  });

  it("lets two simultaneous starters share one server", async () => {
    const home = newHome();
    const [a, b] = await Promise.all([acquire(home), acquire(home)]);
    expect(a.managed!.pid).toBe(b.managed!.pid);
    expect([a.managed!.started, b.managed!.started].sort()).toEqual([false, true]);
  });

  it("is shared with another ipuaro process, and a crashed user does not count", async () => {
    const home = newHome();
    const holder = path.join(import.meta.dirname, "managed-redis-holder.ts");
    const child = spawn(process.execPath, ["--import", "tsx", holder], {
      env: { ...process.env, IPUARO_HOME: home },
      stdio: ["pipe", "pipe", "inherit"],
    });
    children.push(child);
    let out = "";
    child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    await waitUntil(() => /pid=\d+/.test(out), 20_000);
    const childPid = Number(/pid=(\d+)/.exec(out)![1]);

    const mine = await acquire(home);
    expect(mine.managed!.pid).toBe(childPid);
    expect(mine.managed!.started).toBe(false);

    // The other process crashes without releasing; its connection dies with it.
    child.kill("SIGKILL");
    await once(child, "exit");
    await mine.release();
    expect(isPidAlive(childPid)).toBe(false);
  });

  it("recovers from a stale pidfile and a leftover socket file", async () => {
    const home = newHome();
    const layout = managedRedisLayout(home);
    const dead = spawn(process.execPath, ["-e", ""]);
    await once(dead, "exit");
    fs.writeFileSync(layout.pidFile, `${dead.pid}\n`);
    fs.writeFileSync(layout.socketPath, "");
    fs.writeFileSync(layout.lockFile, `${dead.pid}\n${Date.now()}\n`);

    const handle = await acquire(home);
    expect(handle.managed!.started).toBe(true);
    expect(handle.managed!.pid).not.toBe(dead.pid);
    expect(await handle.redis.ping()).toBe("PONG");
    expect(fs.existsSync(layout.lockFile)).toBe(false);
  });

  it("stops a live server whose socket vanished and starts a fresh one", async () => {
    const home = newHome();
    const first = await acquire(home);
    const oldPid = first.managed!.pid;
    first.redis.disconnect();
    fs.rmSync(first.managed!.socketPath); // e.g. a temp cleaner

    const second = await acquire(home);
    expect(second.managed!.started).toBe(true);
    expect(second.managed!.pid).not.toBe(oldPid);
    expect(isPidAlive(oldPid)).toBe(false);
  });

  it("says it was ipuaro's own server that stopped, and where its log is, when it dies under a user and cannot come back", async () => {
    const home = newHome();
    const handle = await acquire(home);
    const store = new ProjectStore({ redis: handle.redis, project: "work-main" });
    signalPid(handle.managed!.pid, "SIGKILL");
    await waitUntil(() => !isPidAlive(handle.managed!.pid));
    // A folder where its socket goes: starting it again fails (as root too, unlike permissions).
    const socket = handle.managed!.socketPath;
    fs.rmSync(socket, { force: true });
    fs.mkdirSync(socket);
    const err = await store.getFile("a.ts").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IpuaroError);
    expect(err).toMatchObject({ type: "redis", message: expect.stringMatching(/^Lost connection to Redis at .*: connect (ECONNREFUSED|ENOENT)/) });
    // The client's own wording (its retry limit) is not what a user needs to read.
    expect((err as IpuaroError).message).not.toContain("maxRetriesPerRequest");
    expect((err as IpuaroError).suggestion).toBe(`ipuaro's own redis-server stopped (its log: ${path.join(home, "redis", "redis.log")}). Retry, or run the command again: ipuaro starts it again, and what it had stored is kept in its AOF.`);
  });

  it("is started again by a Retry (reconnect) when it died under a user, with what it had stored", async () => {
    const home = newHome();
    const handle = await acquire(home);
    const store = new ProjectStore({ redis: handle.redis, project: "work-main" });
    await handle.redis.set("kept", "yes");
    await new Promise((r) => setTimeout(r, 1200)); // appendfsync everysec: the write is in the AOF
    const firstPid = handle.managed!.pid;
    signalPid(firstPid, "SIGKILL");
    await waitUntil(() => !isPidAlive(firstPid));
    // A store operation brings it back by itself; an explicit reconnect (the watcher's) does too.
    expect(await store.getFile("a.ts")).toBeNull();
    await reconnectRedis(handle.redis);
    expect(await handle.redis.get("kept")).toBe("yes");
    const pid = Number((await handle.redis.info("server")).match(/^process_id:(\d+)/m)![1]);
    expect(pid).not.toBe(firstPid);
    await handle.release();
    await waitUntil(() => !isPidAlive(pid));
  });

  it("puts the socket under the temp dir when IPUARO_HOME is too deep for sun_path", async () => {
    const home = newHome();
    const deep = path.join(home, "a".repeat(40), "b".repeat(40), "c".repeat(40));
    const handle = await acquire(deep);
    const socketDir = path.dirname(handle.managed!.socketPath);
    expect(handle.managed!.socketPath.length).toBeLessThanOrEqual(100);
    expect(socketDir.startsWith(fs.realpathSync(os.tmpdir())) || socketDir.startsWith("/tmp")).toBe(true);
    expect(fs.statSync(socketDir).mode & 0o777).toBe(0o700);
    expect(handle.managed!.dataDir).toBe(path.join(deep, "redis"));
    expect(await configGet(handle, "port")).toBe("0");
    // Same home → same socket dir for the next ipuaro.
    expect(managedRedisLayout(deep).socketDir).toBe(socketDir);
    await handle.release();
    removeDir(socketDir);
  });

  it("says which IPUARO_HOME it cannot create, and why, instead of hanging (/proc) or printing a stack", () => {
    const home = newHome();
    fs.writeFileSync(path.join(home, "a-file"), "");
    const cases: [string, RegExp][] = [
      ["/proc/ipuaro-home-test/x", /ENOENT/],
      [path.join(home, "a-file", "home"), /ENOTDIR/],
    ];
    for (const [dir, reason] of cases) {
      const err = (() => {
        try {
          managedRedisLayout(dir);
        } catch (e) {
          return e;
        }
        return null;
      })();
      expect(err).toBeInstanceOf(IpuaroError);
      expect(err).toMatchObject({ type: "config", recoverable: false, message: expect.stringContaining(`cannot create ${dir.startsWith("/proc") ? "/proc/ipuaro-home-test" : dir}`) });
      expect((err as IpuaroError).message).toMatch(reason);
      expect((err as IpuaroError).suggestion).toMatch(/IPUARO_HOME.*IPUARO_REDIS_URL/);
    }
    // Missing parents are made, each private.
    const nested = path.join(home, "x", "y", "z");
    expect(managedRedisLayout(nested).dataDir).toBe(path.join(nested, "redis"));
    expect(fs.statSync(path.join(home, "x", "y")).mode & 0o777).toBe(0o700);
  });

  it("explains how to install redis-server when it is missing", async () => {
    const home = newHome();
    const err = await acquireManagedRedis({ home, redisServerBin: path.join(home, "no-such-redis-server") }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IpuaroError);
    expect(err).toMatchObject({ type: "redis", recoverable: false });
    expect((err as IpuaroError).message).toMatch(/redis-server not found/);
    expect((err as IpuaroError).suggestion).toMatch(/apt-get install redis-server/);
    expect((err as IpuaroError).suggestion).toMatch(/brew install redis/);
    expect((err as IpuaroError).suggestion).toMatch(/IPUARO_REDIS_URL/);
  });

  it("finds redis-server through PATH, so an empty PATH gives the same message", async () => {
    const home = newHome();
    const savedPath = process.env.PATH;
    const savedBin = process.env.IPUARO_REDIS_SERVER;
    process.env.PATH = path.join(home, "empty-bin");
    delete process.env.IPUARO_REDIS_SERVER;
    try {
      await expect(acquireRedis({ url: null, home })).rejects.toMatchObject({ type: "redis", message: expect.stringContaining('tried "redis-server"') });
    } finally {
      process.env.PATH = savedPath;
      if (savedBin !== undefined) process.env.IPUARO_REDIS_SERVER = savedBin;
    }
  });

  it("reports a server that dies on start with the log tail", async () => {
    const home = newHome();
    const fake = path.join(home, "broken-redis-server");
    fs.writeFileSync(fake, "#!/bin/sh\necho '*** FATAL CONFIG FILE ERROR (fake for the test)' >&2\nexit 1\n", { mode: 0o755 });
    const err = await acquireManagedRedis({ home, redisServerBin: fake }).catch((e: unknown) => e);
    expect(err).toMatchObject({ type: "redis" });
    expect((err as IpuaroError).message).toMatch(/failed to start: it stopped with exit code 1/);
    expect((err as IpuaroError).message).toContain("FATAL CONFIG FILE ERROR (fake for the test)");
    // Started again by a binary that says nothing: the earlier run's lines are not shown as this one's.
    const silent = path.join(home, "silent-redis-server");
    fs.writeFileSync(silent, "#!/bin/sh\nexit 1\n", { mode: 0o755 });
    const again = (await acquireManagedRedis({ home, redisServerBin: silent }).catch((e: unknown) => e)) as IpuaroError;
    expect(again.message).toContain("(it wrote nothing to its log)");
    expect(again.message).not.toContain("FATAL CONFIG FILE ERROR");
  });
});
