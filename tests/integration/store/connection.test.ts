import path from "node:path";
import type { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { IpuaroError } from "../../../src/main/errors.js";
import { acquireRedis } from "../../../src/main/store/acquire-redis.js";
import { closeRedis, connectRedis, reconnectRedis, resolveRedisTarget } from "../../../src/main/store/connection.js";
import { openProjectStore } from "../../../src/main/store/open-project-store.js";
import { projectNameFor } from "../../../src/main/store/keys.js";
import { ProjectStore } from "../../../src/main/store/project-store.js";
import { startRedisServer, useRedisServer, type TestRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";

const server = useRedisServer();
const opened: Redis[] = [];
afterEach(async () => {
  for (const r of opened.splice(0)) await closeRedis(r);
});

describe("resolveRedisTarget", () => {
  it("accepts unix:// URLs, bare socket paths and redis:// URLs", () => {
    expect(resolveRedisTarget({ url: "unix:///run/r.sock?db=3" })).toMatchObject({ options: { path: "/run/r.sock", db: 3 }, socketPath: "/run/r.sock" });
    expect(resolveRedisTarget({ url: "/run/r.sock" })).toMatchObject({ options: { path: "/run/r.sock" }, description: "/run/r.sock" });
    expect(resolveRedisTarget({ url: "redis://h.example:6380/2" }).options).toMatchObject({ host: "h.example", port: 6380, db: 2 });
    expect(resolveRedisTarget({ host: "10.0.0.1", port: 7000, db: 1 })).toMatchObject({ options: { host: "10.0.0.1", port: 7000, db: 1 }, socketPath: null });
  });

  it("masks passwords and turns rediss:// into TLS", () => {
    const t = resolveRedisTarget({ url: "rediss://user:s3cret@h.example:6390" });
    expect(t.description).not.toContain("s3cret");
    expect(t.options).toMatchObject({ username: "user", password: "s3cret", tls: {} });
  });

  it.each(["http://h:1", "not a url", "unix://relative.sock", "redis://h:1/x"])("rejects %j with a config error", (url) => {
    expect(() => resolveRedisTarget({ url })).toThrow(IpuaroError);
    try {
      resolveRedisTarget({ url });
    } catch (err) {
      expect(err).toMatchObject({ type: "config" });
    }
  });
});

describe("connectRedis", () => {
  it("connects over a unix:// URL and selects the db", async () => {
    const a = await connectRedis({ url: `${server().url}?db=3` });
    opened.push(a);
    await a.set("k", "db3");
    const b = await connectRedis({ url: server().socket, db: 3 });
    opened.push(b);
    expect(await b.get("k")).toBe("db3");
    const c = await connectRedis({ url: server().socket });
    opened.push(c);
    expect(await c.get("k")).toBeNull();
  });

  it("refuses a db the server does not have instead of writing to db 0", async () => {
    const err = await connectRedis({ url: `${server().url}?db=99` }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IpuaroError);
    expect(err).toMatchObject({ type: "redis" });
    expect((err as IpuaroError).message).toContain("DB index is out of range");
    expect((err as IpuaroError).suggestion).toContain("databases");
  });

  it("fails fast on a dead socket with a redis error naming it", async () => {
    const dir = makeTempDir("ipuaro-dead-");
    const socket = path.join(dir, "nobody.sock");
    const started = Date.now();
    const err = await connectRedis({ url: `unix://${socket}` }).catch((e: unknown) => e);
    removeDir(dir);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(err).toBeInstanceOf(IpuaroError);
    expect(err).toMatchObject({ type: "redis", recoverable: true });
    expect((err as IpuaroError).message).toContain(socket);
    expect((err as IpuaroError).message).toMatch(/ENOENT/);
    expect((err as IpuaroError).suggestion).toContain("IPUARO_REDIS_URL");
  });

  it("fails fast on a refused TCP port with the URL in the message", async () => {
    const err = await connectRedis({ url: "redis://127.0.0.1:1/0" }).catch((e: unknown) => e);
    expect(err).toMatchObject({ type: "redis", message: expect.stringContaining("redis://127.0.0.1:1/0") });
    expect((err as IpuaroError).message).toMatch(/ECONNREFUSED/);
  });
});

describe("Redis going away mid-run", () => {
  let own: TestRedisServer | null = null;
  afterEach(async () => {
    await own?.stop();
    own = null;
  });

  it("turns into typed rejections, not a crash", async () => {
    own = await startRedisServer();
    const redis = await connectRedis({ url: own.url });
    opened.push(redis);
    const store = new ProjectStore({ redis, project: "work-main" });
    await store.writeBatch({ files: [["a.ts", JSON.stringify({ lines: ["x"], hash: "h", size: 1, lastModified: 1 })]] });

    await own.kill("SIGKILL");
    const t0 = Date.now();
    const read = await store.getFile("a.ts").catch((e: unknown) => e);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(read).toBeInstanceOf(IpuaroError);
    expect(read).toMatchObject({ type: "redis", recoverable: true });
    expect((read as IpuaroError).message).toContain(own.socket);
    expect((read as IpuaroError).message).toContain("project work-main");

    const write = await store.writeBatch({ files: [["b.ts", "{}"]], stat: [["b.ts", "1:1:h"]] }).catch((e: unknown) => e);
    expect(write).toMatchObject({ type: "redis" });
    const scan = await store.getAllStats().catch((e: unknown) => e);
    expect(scan).toMatchObject({ type: "redis" });
    // A graph's transaction, sent command by command, is refused the same way.
    const graph = await store.writeGraph([["a.ts", "{}"]], [["sym:A", "{}"]], true).catch((e: unknown) => e);
    expect(graph).toMatchObject({ type: "redis" });
    await expect(reconnectRedis(redis)).rejects.toMatchObject({ type: "redis" });
  });
});

describe("acquireRedis with an explicit URL", () => {
  it("uses that server and release closes the connection", async () => {
    const handle = await acquireRedis({ url: server().url });
    expect(handle.managed).toBeNull();
    expect(handle.description).toBe(server().socket);
    expect(await handle.redis.ping()).toBe("PONG");
    await handle.release();
    await handle.release();
    expect(handle.redis.status).toBe("end");
  });

  it("connects to host/port when told not to use the managed server", async () => {
    await expect(acquireRedis({ managed: false, host: "127.0.0.1", port: 1, db: 0 })).rejects.toMatchObject({
      type: "redis",
      message: expect.stringContaining("redis://127.0.0.1:1/0"),
    });
  });

  it("opens a project store for a root", async () => {
    const root = makeTempDir("ipuaro-root-");
    const opened = await openProjectStore({ redis: { url: server().url, host: "localhost", port: 6379, db: 0 } }, root);
    try {
      expect(opened.store.projectName).toBe(projectNameFor(root));
      expect(await opened.store.ensureSchema()).toBe("ok");
    } finally {
      await opened.release();
      removeDir(root);
    }
  });
});
