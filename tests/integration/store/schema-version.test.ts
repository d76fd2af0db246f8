// A project index written by a newer ipuaro is refused, not wiped; --force (replaceNewer) rebuilds it.
import type { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { IpuaroError } from "../../../src/main/errors.js";
import { closeRedis, connectRedis } from "../../../src/main/store/connection.js";
import { ProjectStore } from "../../../src/main/store/project-store.js";
import { SCHEMA_VERSION, storedSchema } from "../../../src/main/store/schema-version.js";
import { useRedisServer } from "../../helpers/redis-server.js";

const server = useRedisServer();
let redis: Redis;
const CONFIG = "project:{work-main}:config";
const FILES = "project:{work-main}:files";

beforeAll(async () => {
  redis = await connectRedis({ url: server().url });
});
afterAll(async () => {
  await closeRedis(redis);
});
beforeEach(async () => {
  await redis.flushdb();
  await redis.hset(FILES, "src/a.ts", JSON.stringify({ lines: ["x"], hash: "h", size: 1, lastModified: 1 }));
});

describe("storedSchema", () => {
  it("tells current, older (junk and none included) and newer apart", () => {
    expect(storedSchema(String(SCHEMA_VERSION))).toBe("current");
    expect(storedSchema(String(SCHEMA_VERSION - 1))).toBe("older");
    expect(storedSchema(null)).toBe("older");
    expect(storedSchema("3.5x")).toBe("older");
    expect(storedSchema(String(SCHEMA_VERSION + 1))).toBe("newer");
  });
});

describe("ensureSchema on an index a newer ipuaro wrote", () => {
  it("refuses with a message naming both versions and the way out, keeping the index", async () => {
    const newer = String(SCHEMA_VERSION + 1);
    await redis.hset(CONFIG, "schemaVersion", newer, "root", "/work/main");
    const store = new ProjectStore({ redis, project: "work-main" });
    const err = await store.ensureSchema().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IpuaroError);
    expect(err).toMatchObject({
      type: "input",
      recoverable: false,
      message: `the index of work-main was written by a newer ipuaro (schema ${newer}, this one reads ${SCHEMA_VERSION})`,
    });
    expect((err as IpuaroError).suggestion).toMatch(/^Upgrade ipuaro, or run `ipuaro index --force`/);
    expect(await redis.hget(CONFIG, "schemaVersion")).toBe(newer);
    expect(await redis.hget(CONFIG, "root")).toBe("/work/main");
    expect(await redis.hlen(FILES)).toBe(1);
  });

  it("rebuilds it when asked to (index --force), by the call or by the store's option", async () => {
    await redis.hset(CONFIG, "schemaVersion", String(SCHEMA_VERSION + 1));
    expect(await new ProjectStore({ redis, project: "work-main" }).ensureSchema({ replaceNewer: true })).toBe("reset");
    expect(await redis.hget(CONFIG, "schemaVersion")).toBe(String(SCHEMA_VERSION));
    expect(await redis.exists(FILES)).toBe(0);

    await redis.hset(CONFIG, "schemaVersion", String(SCHEMA_VERSION + 7));
    await redis.hset(FILES, "src/a.ts", "{}");
    expect(await new ProjectStore({ redis, project: "work-main", replaceNewerSchema: true }).ensureSchema()).toBe("reset");
    expect(await redis.exists(FILES)).toBe(0);
  });

  it("still resets an older one without being asked", async () => {
    await redis.hset(CONFIG, "schemaVersion", String(SCHEMA_VERSION - 1));
    expect(await new ProjectStore({ redis, project: "work-main" }).ensureSchema()).toBe("reset");
    expect(await redis.exists(FILES)).toBe(0);
  });
});
