// ipuaro's own redis-server over time: who keeps it running, a damaged AOF, a log that keeps growing.
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { IpuaroError } from "../../../src/main/errors.js";
import { MAX_LOG_BYTES, managedRedisLayout } from "../../../src/main/store/managed-redis-layout.js";
import { acquireManagedRedis, type RedisHandle } from "../../../src/main/store/managed-redis.js";
import { isPidAlive } from "../../../src/main/store/process-lock.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";

const handles: RedisHandle[] = [];
const outsiders: Redis[] = [];
const homes: string[] = [];

function newHome(): string {
  const home = makeTempDir("ipuaro-home-");
  homes.push(home);
  return home;
}

async function acquire(home: string): Promise<RedisHandle> {
  const handle = await acquireManagedRedis({ home });
  handles.push(handle);
  return handle;
}

/** A client that is not ipuaro: a redis-cli someone left open, a monitoring agent. */
async function outsider(socketPath: string, name?: string): Promise<Redis> {
  const client = new Redis({ path: socketPath, lazyConnect: true, retryStrategy: () => null, ...(name ? { connectionName: name } : {}) });
  client.on("error", () => {});
  outsiders.push(client);
  await client.connect();
  await client.ping();
  return client;
}

async function waitUntil(cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await once(child, "exit");
  return child.pid!;
}

afterEach(async () => {
  for (const c of outsiders.splice(0)) c.disconnect();
  for (const h of handles.splice(0)) await h.release().catch(() => {});
  for (const home of homes.splice(0)) {
    const layout = managedRedisLayout(home);
    const pid = Number(fs.existsSync(layout.pidFile) ? fs.readFileSync(layout.pidFile, "utf8") : 0);
    if (pid > 0 && isPidAlive(pid)) process.kill(pid, "SIGKILL");
    removeDir(home);
  }
});

describe("the last ipuaro user stops the managed server", () => {
  it("names its connection ipuaro:<pid>", async () => {
    const handle = await acquire(newHome());
    expect(await handle.redis.client("GETNAME")).toBe(`ipuaro:${process.pid}`);
  });

  it("stops it although a client that is not ipuaro is still connected", async () => {
    const home = newHome();
    const handle = await acquire(home);
    const pid = handle.managed!.pid;
    await outsider(handle.managed!.socketPath); // redis-cli: no name
    await outsider(handle.managed!.socketPath, "prometheus-exporter");
    await handle.release();
    await waitUntil(() => !isPidAlive(pid));
  });

  it("does not count a connection named after an ipuaro process that is dead", async () => {
    const home = newHome();
    const handle = await acquire(home);
    const pid = handle.managed!.pid;
    await outsider(handle.managed!.socketPath, `ipuaro:${await deadPid()}`);
    await handle.release();
    await waitUntil(() => !isPidAlive(pid));
  });

  it("keeps it for a live ipuaro process, the one holding AOF rewrites off included", async () => {
    const home = newHome();
    const first = await acquire(home);
    const pid = first.managed!.pid;
    // Another live ipuaro: its pid is alive (this test's parent process stands in for it).
    const other = await outsider(first.managed!.socketPath, `ipuaro:${process.ppid}:holding-aof-rewrite`);
    await first.release();
    expect(isPidAlive(pid)).toBe(true);
    expect(await other.ping()).toBe("PONG");
    // The same process's second handle is a user too; the last one stops it.
    other.disconnect();
    const second = await acquire(home);
    await second.release();
    await waitUntil(() => !isPidAlive(pid));
  });
});

describe("a damaged append-only file", () => {
  it("is reported with the exact redis-check-aof command, which repairs it", async () => {
    const home = newHome();
    const first = await acquire(home);
    await first.redis.set("kept", "yes");
    await first.release();
    const dataDir = first.managed!.dataDir;
    const aofDir = path.join(dataDir, "appendonlydir");
    const incr = fs.readdirSync(aofDir).find((f) => f.endsWith(".incr.aof"))!;
    // Garbage in the middle (a truncated tail alone is loaded anyway: aof-load-truncated).
    fs.appendFileSync(path.join(aofDir, incr), "not a redis command\r\n*1\r\n$4\r\nPING\r\n");

    const err = await acquireManagedRedis({ home }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IpuaroError);
    const failure = err as IpuaroError;
    expect(failure.type).toBe("redis");
    expect(failure.message).toMatch(/failed to start: it stopped with exit code 1 because its append-only file is damaged/);
    const manifest = path.join(aofDir, "appendonly.aof.manifest");
    expect(fs.existsSync(manifest)).toBe(true);
    expect(failure.suggestion).toContain(`\`redis-check-aof --fix ${manifest}\``);
    expect(failure.suggestion).toContain(`cp -a ${aofDir} ${aofDir}.bak`);

    // The command as given (it asks before cutting the file) makes the server start again, data kept.
    execFileSync("redis-check-aof", ["--fix", manifest], { input: "y\n", stdio: ["pipe", "ignore", "ignore"] });
    const again = await acquire(home);
    expect(again.managed!.started).toBe(true);
    expect(await again.redis.get("kept")).toBe("yes");
  });

  it("is not blamed for a start that failed for another reason", async () => {
    const home = newHome();
    const fake = path.join(home, "broken-redis-server");
    fs.writeFileSync(fake, "#!/bin/sh\necho '*** FATAL CONFIG FILE ERROR (fake for the test)' >&2\nexit 1\n", { mode: 0o755 });
    const err = (await acquireManagedRedis({ home, redisServerBin: fake }).catch((e: unknown) => e)) as IpuaroError;
    expect(err.message).not.toContain("append-only file");
    expect(err.suggestion).not.toContain("redis-check-aof");
  });
});

describe("redis.log", () => {
  it("is moved to redis.log.1 at a start once it is over 5 MB, keeping one old copy", async () => {
    const home = newHome();
    const layout = managedRedisLayout(home);
    fs.writeFileSync(`${layout.logFile}.1`, "the copy before\n");
    const big = `${"an old log line\n".repeat(Math.ceil((MAX_LOG_BYTES + 1024) / 16))}`;
    fs.writeFileSync(layout.logFile, big);
    const handle = await acquire(home);
    expect(fs.statSync(`${layout.logFile}.1`).size).toBe(big.length);
    const fresh = fs.readFileSync(layout.logFile, "utf8");
    expect(fresh).not.toContain("an old log line");
    expect(fresh).toMatch(/Redis is starting/);
    await handle.release();
  });

  it("is left alone while it is small", async () => {
    const home = newHome();
    const layout = managedRedisLayout(home);
    fs.writeFileSync(layout.logFile, "an old log line\n");
    await acquire(home);
    expect(fs.existsSync(`${layout.logFile}.1`)).toBe(false);
    expect(fs.readFileSync(layout.logFile, "utf8")).toMatch(/^an old log line\n/);
  });
});
