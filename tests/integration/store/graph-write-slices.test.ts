// A whole graph written by the live index (a layout change: a package restored by a rewind) is framed in
// slices with the event loop turned between, and still lands in one MULTI: readers see the old graph or
// the new one, never half of each. Before, its encoding held the event loop (and the UI's keys) ≈ 0.4 s.
import type { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { framedHsets } from "../../../src/main/store/graph-writes.js";
import { closeRedis, connectRedis } from "../../../src/main/store/connection.js";
import { ProjectStore } from "../../../src/main/store/project-store.js";
import { turnsDuring } from "../../helpers/event-loop-turns.js";
import { useRedisServer } from "../../helpers/redis-server.js";

const server = useRedisServer();
let redis: Redis;
let reader: Redis;
let store: ProjectStore;

beforeAll(async () => {
  redis = await connectRedis({ url: server().url });
  reader = await connectRedis({ url: server().url });
});
afterAll(async () => {
  await closeRedis(reader);
  await closeRedis(redis);
});
beforeEach(async () => {
  await redis.flushdb();
  store = new ProjectStore({ redis, project: "work-main" });
});

/** A graph of `files` files whose every value says `version` (with Cyrillic, so bytes ≠ characters). */
function graphOf(files: number, version: string): { meta: [string, string][]; index: [string, string][] } {
  const meta: [string, string][] = [];
  const index: [string, string][] = [];
  for (let i = 0; i < files; i++) {
    const p = `packages/app/src/модуль-${i}.ts`;
    meta.push([p, JSON.stringify({ version, dependents: [`packages/app/src/модуль-${i + 1}.ts`] })]);
    index.push([`deps:${p}`, JSON.stringify({ version, deps: [`packages/core/src/index.ts`] })]);
    index.push([`sym:Сервис${i}`, JSON.stringify({ version, at: p })]);
  }
  // One field bigger than a frame's text budget on its own.
  index.push(["sym:huge", JSON.stringify({ version, blob: "ж".repeat(300 * 1024) })]);
  return { meta, index };
}

/** RESP arrays of bulk strings, parsed back: [command, key, field, value, …] per command. */
function parseResp(bytes: Buffer): string[][] {
  const out: string[][] = [];
  let at = 0;
  const line = () => {
    const end = bytes.indexOf("\r\n", at);
    const text = bytes.toString("utf8", at, end);
    at = end + 2;
    return text;
  };
  while (at < bytes.length) {
    const count = Number(line().slice(1));
    const parts: string[] = [];
    for (let i = 0; i < count; i++) {
      const len = Number(line().slice(1));
      parts.push(bytes.toString("utf8", at, at + len));
      at += len + 2;
    }
    out.push(parts);
  }
  return out;
}

describe("framing a graph write", () => {
  it("frames every entry exactly, at most a thousand fields or one oversized field per HSET", async () => {
    const { meta, index } = graphOf(1500, "v1");
    const frames = await framedHsets([
      ["k:meta", meta],
      ["k:indexes", index],
    ]);
    const commands = frames.map((f) => parseResp(f)).flat();
    expect(commands.length).toBe(frames.length);
    const fields = (key: string) =>
      commands
        .filter((c) => c[1] === key)
        .flatMap((c) => {
          expect(c[0]).toBe("HSET");
          expect((c.length - 2) / 2).toBeLessThanOrEqual(1000);
          const pairs: [string, string][] = [];
          for (let i = 2; i < c.length; i += 2) pairs.push([c[i] as string, c[i + 1] as string]);
          return pairs;
        });
    expect(fields("k:meta")).toEqual(meta);
    expect(fields("k:indexes")).toEqual(index);
    const huge = commands.find((c) => c.includes("sym:huge")) as string[];
    expect(huge.length).toBeLessThanOrEqual(2 + 2 * 2); // alone, or with the field before it
  });

  it("gives the event loop turns while it frames a large graph", async () => {
    const { meta, index } = graphOf(30_000, "v1");
    const { turns } = await turnsDuring(() =>
      framedHsets([
        ["k:meta", meta],
        ["k:indexes", index],
      ]),
    );
    // Framed in one go, no immediate could run before it ended.
    expect(turns).toBeGreaterThan(1);
  });
});

describe("a whole graph written by the store", () => {
  it("lands whole: a reader polling meanwhile sees the old graph or the new one, never a mix", async () => {
    const old = graphOf(20_000, "v1");
    await store.writeGraph(old.meta, old.index, true);
    const next = graphOf(20_000, "v2");
    const first = next.meta[0]![0];
    const last = next.meta.at(-1)![0];
    const keys = store.keys;
    const seen = new Set<string>();
    let writing = true;
    const poll = (async () => {
      while (writing) {
        // Both reads in one transaction: what one moment of the server holds.
        const replies = (await reader.multi().hmget(keys.meta, first, last).hmget(keys.indexes, "sym:huge").exec()) as [Error | null, (string | null)[]][];
        const [a, b] = replies[0]![1];
        const [i] = replies[1]![1];
        seen.add([a, b, i].map((v) => (JSON.parse(v as string) as { version: string }).version).join(","));
      }
    })();
    await store.writeGraph(next.meta, next.index, true);
    writing = false;
    await poll;
    expect(seen.has("v1,v1,v1")).toBe(true); // the reader was reading while the write was on its way
    expect([...seen].every((s) => s === "v1,v1,v1" || s === "v2,v2,v2")).toBe(true);
    expect(await redis.hlen(keys.meta)).toBe(20_000);
    expect(await redis.hlen(keys.indexes)).toBe(40_001);
    expect(JSON.parse((await redis.hget(keys.indexes, "sym:huge")) as string)).toEqual({ version: "v2", blob: "ж".repeat(300 * 1024) });
    expect(await redis.hget(keys.meta, "packages/app/src/модуль-7.ts")).toBe(next.meta[7]![1]);
  });

  it("writes a large delta the same way, its deletions included", async () => {
    const old = graphOf(3000, "v1");
    await store.writeGraph(old.meta, old.index, true);
    const next = graphOf(3000, "v2");
    await store.writeGraphDelta(next.meta, next.index.slice(0, 3000), ["sym:huge", "deps:gone.ts"]);
    expect(await redis.hexists(store.keys.indexes, "sym:huge")).toBe(0);
    expect(await redis.hget(store.keys.indexes, next.index[2999]![0])).toBe(next.index[2999]![1]);
    expect(await redis.hget(store.keys.indexes, old.index[3500]![0])).toBe(old.index[3500]![1]);
    expect(await redis.hget(store.keys.meta, next.meta[2999]![0])).toBe(next.meta[2999]![1]);
  });
});
