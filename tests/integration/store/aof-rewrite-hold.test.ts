// An index run holds off the automatic AOF rewrite of ipuaro's own server and lifts it at the end; a
// holder that dies cannot leave rewrites off, and a Redis the user runs is never touched.
import type { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { holdAofRewrites, liftAbandonedAofHold } from "../../../src/main/store/aof-rewrite-hold.js";
import { closeRedis, connectRedis } from "../../../src/main/store/connection.js";
import { ProjectStore } from "../../../src/main/store/project-store.js";
import { useRedisServer } from "../../helpers/redis-server.js";

const server = useRedisServer({ appendonly: true });
const open: Redis[] = [];

async function connect(name: string): Promise<Redis> {
  const redis = await connectRedis({ url: server().url, connectionName: name });
  open.push(redis);
  return redis;
}

async function percentage(redis: Redis): Promise<string> {
  return ((await redis.config("GET", "auto-aof-rewrite-percentage")) as string[])[1] as string;
}

async function persistence(redis: Redis, field: string): Promise<number> {
  return Number(new RegExp(`^${field}:(\\d+)`, "m").exec(await redis.info("persistence"))?.[1]);
}

async function rewriteSettled(redis: Redis): Promise<void> {
  while ((await persistence(redis, "aof_rewrite_in_progress")) || (await persistence(redis, "aof_rewrite_scheduled"))) await new Promise((r) => setTimeout(r, 20));
}

beforeEach(async () => {
  const admin = await connect("admin");
  await admin.config("SET", "auto-aof-rewrite-percentage", "100");
  await admin.config("SET", "auto-aof-rewrite-min-size", "64mb");
  await admin.flushall();
  await rewriteSettled(admin);
  await admin.bgrewriteaof();
  await rewriteSettled(admin);
});

afterEach(async () => {
  for (const r of open.splice(0)) await closeRedis(r).catch(() => r.disconnect());
});

describe("holdAofRewrites", () => {
  it("turns automatic rewrites off until the last holder lets go, and keeps each connection's name", async () => {
    const [a, b, other] = [await connect("ipuaro:1"), await connect("ipuaro:2"), await connect("ipuaro:3")];
    const releaseA = await holdAofRewrites(a);
    const releaseB = await holdAofRewrites(b);
    expect(await percentage(other)).toBe("0");
    expect(await liftAbandonedAofHold(other)).toBe(false);
    await releaseA();
    expect(await percentage(other)).toBe("0");
    expect(await a.client("GETNAME")).toBe("ipuaro:1");
    await releaseB();
    await releaseB();
    expect(await percentage(other)).toBe("100");
    expect(await b.client("GETNAME")).toBe("ipuaro:2");
  });

  it("a holder that died leaves rewrites off only until the server is next opened", async () => {
    const holder = await connect("ipuaro:1");
    await holdAofRewrites(holder);
    holder.disconnect();
    const next = await connect("ipuaro:2");
    // The server notices the closed connection at once, but give it a moment on a busy machine.
    for (let i = 0; i < 50 && String(await next.client("LIST")).includes("holding-aof-rewrite"); i++) await new Promise((r) => setTimeout(r, 20));
    expect(await liftAbandonedAofHold(next)).toBe(true);
    expect(await percentage(next)).toBe("100");
    expect(await liftAbandonedAofHold(next)).toBe(false);
  });

  it("no rewrite starts during the hold; the one the load made due starts when it is lifted", async () => {
    const redis = await connect("ipuaro:1");
    await redis.config("SET", "auto-aof-rewrite-min-size", "1mb");
    const before = await persistence(redis, "aof_rewrites");
    const release = await holdAofRewrites(redis);
    const value = "x".repeat(64 * 1024);
    for (let i = 0; i < 64; i++) await redis.set(`k${i}`, value);
    // serverCron checks every 100 ms: give it several chances to start one.
    await new Promise((r) => setTimeout(r, 400));
    expect(await persistence(redis, "aof_rewrites")).toBe(before);
    await release();
    await rewriteSettled(redis);
    expect(await persistence(redis, "aof_rewrites")).toBe(before + 1);
  });

  it("a load too small to make a rewrite due does not start one", async () => {
    const redis = await connect("ipuaro:1");
    const before = await persistence(redis, "aof_rewrites");
    const release = await holdAofRewrites(redis);
    await redis.set("k", "v");
    await release();
    await rewriteSettled(redis);
    expect(await persistence(redis, "aof_rewrites")).toBe(before);
    expect(await percentage(redis)).toBe("100");
  });
});

describe("ProjectStore.holdAofRewrites", () => {
  it("leaves a server ipuaro does not run alone", async () => {
    const redis = await connect("ipuaro:1");
    const release = await new ProjectStore({ redis, project: "a-b" }).holdAofRewrites();
    expect(await percentage(redis)).toBe("100");
    await release();
  });

  it("holds rewrites on ipuaro's own server", async () => {
    const redis = await connect("ipuaro:1");
    const release = await new ProjectStore({ redis, project: "a-b", ownServer: true }).holdAofRewrites();
    expect(await percentage(redis)).toBe("0");
    await release();
    expect(await percentage(redis)).toBe("100");
  });
});
