import type { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FileAST, FileData, FileMeta } from "../../../src/workers/ast-types.js";
import { IpuaroError } from "../../../src/main/errors.js";
import { closeRedis, connectRedis } from "../../../src/main/store/connection.js";
import { ProjectStore, SCHEMA_VERSION } from "../../../src/main/store/project-store.js";
import { binaryFileJson, encodeStat, symlinkFileJson } from "../../../src/main/store/stored-values.js";
import { ValueArena } from "../../../src/workers/value-arena.js";
import { FramedCommand, frameHset } from "../../../src/main/store/redis-commands.js";
import { useRedisServer } from "../../helpers/redis-server.js";

const server = useRedisServer();
let redis: Redis;
let store: ProjectStore;

beforeAll(async () => {
  redis = await connectRedis({ url: server().url });
});
afterAll(async () => {
  await closeRedis(redis);
});
beforeEach(async () => {
  await redis.flushdb();
  store = new ProjectStore({ redis, project: "work-main" });
});

const text: FileData = { lines: ["import x from 'y'", "", "export const a = 1;", "// end"], hash: "abc123", size: 42, lastModified: 1705312200 };
const ast: FileAST = {
  imports: [{ name: "x", from: "y", line: 1, type: "external", isDefault: true }],
  exports: [{ name: "a", type: "const", line: 3 }],
  functions: [],
  classes: [],
  types: [],
  parseError: false,
};
const meta: FileMeta = {
  complexity: { loc: 3, nesting: 0, imports: 1, score: 2 },
  dependencies: [],
  dependents: ["src/b.ts"],
  isHub: false,
  isEntryPoint: true,
};

async function writeSample(): Promise<void> {
  await store.writeBatch({
    files: [
      ["src/a.ts", JSON.stringify(text)],
      // The shapes the index worker writes for binaries and symlinks.
      ["img/logo.png", JSON.stringify({ binary: true, hash: "ffee", size: 2048, lastModified: 1700000000000 })],
      ["link.ts", JSON.stringify({ symlink: true, target: "src/a.ts" })],
      ["data.bin", binaryFileJson({ hash: "", size: 9, lastModified: 5, nonUtf8: true })],
      ["other-link", symlinkFileJson("../outside")],
    ],
    ast: [["src/a.ts", JSON.stringify(ast)]],
    meta: [["src/a.ts", JSON.stringify(meta)]],
    stat: [
      ["src/a.ts", encodeStat({ size: 42, mtimeMs: 1705312200123, hash: "abc123" })],
      ["img/logo.png", encodeStat({ size: 2048, mtimeMs: 1700000000000, hash: "ffee" })],
    ],
    facts: [["src/a.ts", '{"imports":[]}']],
  });
}

describe("ProjectStore round trip", () => {
  it("stores under the project's hash-tagged keys", async () => {
    await writeSample();
    expect(await redis.hlen("project:{work-main}:files")).toBe(5);
    expect(await redis.hget("project:{work-main}:stat", "src/a.ts")).toBe("42:1705312200123:abc123");
  });

  it("reads back text, binary and symlink entries as a typed union", async () => {
    await writeSample();
    expect(await store.getFile("src/a.ts")).toEqual({ kind: "text", ...text });
    expect(await store.getFile("img/logo.png")).toEqual({ kind: "binary", hash: "ffee", size: 2048, lastModified: 1700000000000 });
    expect(await store.getFile("data.bin")).toEqual({ kind: "binary", hash: "", size: 9, lastModified: 5, nonUtf8: true });
    expect(await store.getFile("link.ts")).toEqual({ kind: "symlink", target: "src/a.ts" });
    expect(await store.getFile("other-link")).toEqual({ kind: "symlink", target: "../outside" });
    expect(await store.getFile("nope.ts")).toBeNull();
    expect(await store.getAst("src/a.ts")).toEqual(ast);
    expect(await store.getMeta("src/a.ts")).toEqual(meta);
    expect(await store.getAst("img/logo.png")).toBeNull();
  });

  it("slices lines 1-based and inclusive, clamped to the file", async () => {
    await writeSample();
    expect(await store.getLines("src/a.ts", 2, 3)).toEqual({ lines: ["", "export const a = 1;"], start: 2, end: 3, total: 4 });
    expect(await store.getLines("src/a.ts")).toEqual({ lines: text.lines, start: 1, end: 4, total: 4 });
    expect(await store.getLines("src/a.ts", 0, 99)).toMatchObject({ start: 1, end: 4, total: 4 });
    expect(await store.getLines("src/a.ts", 9, 12)).toEqual({ lines: [], start: 9, end: 8, total: 4 });
    expect(await store.getLines("missing.ts", 1, 2)).toBeNull();
  });

  it("refuses lines of binary files and symlinks with a file error", async () => {
    await writeSample();
    const err = await store.getLines("img/logo.png").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IpuaroError);
    expect(err).toMatchObject({ type: "file", message: expect.stringContaining("binary") });
    await expect(store.getLines("link.ts")).rejects.toMatchObject({ type: "file", message: expect.stringContaining("symlink") });
  });

  it("lists, counts and returns stats", async () => {
    await writeSample();
    expect((await store.listPaths()).sort()).toEqual(["data.bin", "img/logo.png", "link.ts", "other-link", "src/a.ts"]);
    expect(await store.fileCount()).toBe(5);
    expect(await store.hasFile("src/a.ts")).toBe(true);
    const stats = await store.loadKnownStats();
    expect(stats).toEqual(
      new Map([
        ["src/a.ts", { size: 42, mtimeMs: 1705312200123, hash: "abc123" }],
        ["img/logo.png", { size: 2048, mtimeMs: 1700000000000, hash: "ffee" }],
      ]),
    );
  });

  it("scans every AST across many HSCAN chunks", async () => {
    const n = 1234;
    const entries: [string, string][] = [];
    for (let i = 0; i < n; i++) entries.push([`src/f${i}.ts`, JSON.stringify({ ...ast, exports: [{ name: `e${i}`, type: "const", line: 1 }] })]);
    await store.writeBatch({ ast: entries });
    let chunks = 0;
    for await (const chunk of store.scanRaw("ast", 200)) {
      chunks++;
      expect(chunk.length).toBeGreaterThan(0);
    }
    expect(chunks).toBeGreaterThan(1);
    const all = await store.getAllAsts();
    expect(all.size).toBe(n);
    expect(all.get("src/f777.ts")?.exports[0]?.name).toBe("e777");
    const some = await store.getAsts(["src/f1.ts", "nope.ts", "src/f2.ts"]);
    expect([...some.keys()]).toEqual(["src/f1.ts", "src/f2.ts"]);
  });

  it("HDELs removed paths from every per-file hash", async () => {
    await writeSample();
    await store.writeBatch({ remove: ["src/a.ts", "link.ts"] });
    expect(await store.getFile("src/a.ts")).toBeNull();
    expect(await store.getAst("src/a.ts")).toBeNull();
    expect(await store.getMeta("src/a.ts")).toBeNull();
    expect(await store.getFile("link.ts")).toBeNull();
    expect((await store.loadKnownStats()).has("src/a.ts")).toBe(false);
    expect(await redis.hexists("project:{work-main}:facts", "src/a.ts")).toBe(0);
    expect(await store.fileCount()).toBe(3);
  });

  it("sends commands the workers framed as they are, after removes and before the other entries", async () => {
    await writeSample();
    const keys = store.wireHashes();
    const arena = new ValueArena();
    const framedFile: FileData = { ...text, lines: ["// Привет 👋", "export const b = 2;"] };
    arena.beginCommand(4, "HSET", keys.files);
    arena.bulk("src/a.ts");
    arena.bulk(JSON.stringify(framedFile));
    arena.endCommand();
    arena.beginCommand(4, "HSET", keys.facts);
    arena.bulk("src/a.ts");
    arena.bulk('{"framed":true}');
    arena.endCommand();
    const { commands } = arena.finish();
    await store.writeBatch({ remove: ["src/a.ts"], wire: commands, stat: [["src/a.ts", encodeStat({ size: 7, mtimeMs: 8, hash: "h" })]] });
    expect(await store.getFile("src/a.ts")).toEqual({ kind: "text", ...framedFile });
    expect(await redis.hget("project:{work-main}:facts", "src/a.ts")).toBe('{"framed":true}');
    // Removed before the framed commands ran, and not written again: the AST is gone.
    expect(await store.getAst("src/a.ts")).toBeNull();
    expect((await store.loadKnownStats()).get("src/a.ts")).toEqual({ size: 7, mtimeMs: 8, hash: "h" });
    // The connection still pairs every later command with its own reply.
    expect(await redis.hget("project:{work-main}:files", "missing")).toBeNull();
  });

  it("frames HSETs of string fields on this thread byte for byte as Redis reads them (multi-byte text, empty values)", async () => {
    const entries: [string, string][] = [
      ["sym:вычислить", '[{"path":"src/деньги.ts","line":1}]'],
      ["sym:😀", ""],
      ["deps:src/a.ts", '["src/b.ts"]'],
    ];
    const framed = frameHset("h:{t}", entries);
    expect(framed.toString("utf8")).toBe(
      ["*8", "$4", "HSET", "$5", "h:{t}", ...entries.flatMap(([f, v]) => [`$${Buffer.byteLength(f)}`, f, `$${Buffer.byteLength(v)}`, v]), ""].join("\r\n"),
    );
    expect(await redis.call("HSET", "h:{t}", "x", "1")).toBe(1);
    const pipeline = redis.pipeline();
    (pipeline as unknown as { sendCommand(c: FramedCommand): void }).sendCommand(new FramedCommand(framed));
    pipeline.hlen("h:{t}");
    expect(await pipeline.exec()).toEqual([
      [null, 3],
      [null, 4],
    ]);
    expect(await redis.hgetall("h:{t}")).toEqual({ x: "1", ...Object.fromEntries(entries) });
  });

  it("reports a framed command Redis refuses as a redis error, and later commands still get their own replies", async () => {
    await redis.set("project:{work-main}:files", "not a hash");
    const arena = new ValueArena();
    arena.beginCommand(4, "HSET", store.wireHashes().files);
    arena.bulk("src/a.ts");
    arena.bulk("{}");
    arena.endCommand();
    const { commands } = arena.finish();
    await expect(store.writeBatch({ wire: commands, stat: [["src/a.ts", encodeStat({ size: 1, mtimeMs: 2, hash: "h" })]] })).rejects.toMatchObject({
      type: "redis",
      message: expect.stringContaining("WRONGTYPE"),
    });
    // The stat entry after it in the batch was still applied, and the connection is in step.
    expect((await store.loadKnownStats()).get("src/a.ts")).toEqual({ size: 1, mtimeMs: 2, hash: "h" });
    expect(await redis.get("project:{work-main}:files")).toBe("not a hash");
  });

  it("stores facts and streams them back", async () => {
    await writeSample();
    const rows: [string, string][] = [];
    for await (const chunk of store.scanFacts()) rows.push(...chunk);
    expect(rows).toEqual([["src/a.ts", '{"imports":[]}']]);
  });

  it("writes meta objects and the graph, clearing stale index fields", async () => {
    await store.setMetaMany([["src/b.ts", meta]]);
    expect(await store.getMeta("src/b.ts")).toEqual(meta);
    await store.setIndex("call_graph", '{"old":true}');
    await store.writeGraph([["src/c.ts", JSON.stringify(meta)]], [["symbols", '{"a":["src/a.ts"]}'], ["deps_graph", "{}"]], true);
    expect(await store.getIndex("symbols")).toEqual({ a: ["src/a.ts"] });
    expect(await store.getIndexJson("deps_graph")).toBe("{}");
    expect(await store.getIndex("call_graph")).toBeNull();
    expect(await store.getMeta("src/c.ts")).toEqual(meta);
    expect((await store.getAllMeta()).size).toBe(2);
  });

  it("marks the graph stale before writes that change its input, and every kind of graph write clears the mark", async () => {
    expect(await store.graphStale()).toBe(false);
    await store.writeBatch({ stat: [["src/a.ts", "1:2:ab"]] });
    expect(await store.graphStale()).toBe(false);
    const stale = () => store.writeBatch({ facts: [["src/a.ts", '{"imports":[]}']], graphStale: true });

    await stale();
    expect(await store.graphStale()).toBe(true);
    await store.writeGraph([], [], false);
    expect(await store.graphStale()).toBe(false);

    await stale();
    await store.writeGraphDelta([], [], []);
    expect(await store.graphStale()).toBe(false);

    await stale();
    const rewrite = store.beginGraphRewrite();
    rewrite.index([["sym:a", "[]"]]);
    expect(await store.graphStale()).toBe(true);
    await rewrite.commit();
    expect(await store.graphStale()).toBe(false);
    expect(await redis.hget("project:{work-main}:indexes", "sym:a")).toBe("[]");
  });

  it("two graph rewrites at once each commit a whole index: the last one wins, nothing of it is lost", async () => {
    const indexes = "project:{work-main}:indexes";
    const a = store.beginGraphRewrite();
    const b = store.beginGraphRewrite();
    a.index([["sym:a1", "[1]"]]);
    b.index([["sym:b1", "[1]"]]);
    a.index([["sym:a2", "[2]"]]);
    await a.commit();
    expect(await redis.hgetall(indexes)).toEqual({ "sym:a1": "[1]", "sym:a2": "[2]" });
    b.index([["sym:b2", "[2]"]]);
    await b.commit();
    expect(await redis.hgetall(indexes)).toEqual({ "sym:b1": "[1]", "sym:b2": "[2]" });
    // The side keys expire (a run that dies leaves nothing for good); the committed index does not.
    expect(await redis.pttl(indexes)).toBe(-1);
    expect(await redis.keys("project:{work-main}:indexes_next*")).toEqual([]);
  });

  it("a rewrite's side key expires when its run dies before the commit", async () => {
    const orphan = store.beginGraphRewrite();
    orphan.index([["sym:x", "[]"]]);
    await new Promise((r) => setTimeout(r, 50));
    const [side] = await redis.keys("project:{work-main}:indexes_next:*");
    expect(side).toBeDefined();
    expect(await redis.pttl(side!)).toBeGreaterThan(59 * 60 * 1000);
  });

  it("keeps config fields and protects the schema version", async () => {
    await store.setConfigField("root", "/work/main");
    await store.setIndexInfo({ last_indexed: "2025-01-01T00:00:00Z", files: "12" });
    expect(await store.getConfigField("root")).toBe("/work/main");
    expect(await store.getConfigField("last_indexed")).toBe("2025-01-01T00:00:00Z");
    expect(await store.getConfigField("nothing")).toBeNull();
    expect(Object.fromEntries(await store.getConfig())).toMatchObject({ root: "/work/main", files: "12" });
    await expect(store.setConfigField("schemaVersion", "99")).rejects.toThrow(/ensureSchema/);
    await expect(store.setIndexInfo({ schemaVersion: "99" })).rejects.toThrow(/ensureSchema/);
  });

  it("reports a corrupt entry as a redis error suggesting a re-index", async () => {
    await redis.hset("project:{work-main}:files", "bad.ts", "{not json");
    await redis.hset("project:{work-main}:stat", "bad.ts", "garbage");
    await expect(store.getFile("bad.ts")).rejects.toMatchObject({ type: "redis", message: expect.stringContaining("Corrupt"), suggestion: expect.stringContaining("index") });
    await expect(store.getAllStats()).rejects.toMatchObject({ type: "redis", message: expect.stringContaining("bad.ts") });
  });

  it("keeps projects apart and deletes one project's index only", async () => {
    const other = new ProjectStore({ redis, project: "work-other" });
    await writeSample();
    await other.writeBatch({ files: [["x.ts", JSON.stringify(text)]] });
    await store.deleteProject();
    expect(await store.fileCount()).toBe(0);
    expect(await redis.exists("project:{work-main}:ast", "project:{work-main}:meta", "project:{work-main}:stat")).toBe(0);
    expect(await other.fileCount()).toBe(1);
  });

  it("measures memory", async () => {
    await writeSample();
    expect(await store.memoryUsedBytes()).toBeGreaterThan(100_000);
    expect(await store.projectMemoryBytes()).toBeGreaterThan(0);
  });
});

describe("schema version", () => {
  it("records the version on an empty project and says ok", async () => {
    expect(await store.ensureSchema()).toBe("ok");
    expect(await redis.hget("project:{work-main}:config", "schemaVersion")).toBe(String(SCHEMA_VERSION));
    expect(await store.ensureSchema()).toBe("ok");
  });

  it("resets a project written with an older version, without throwing", async () => {
    await writeSample();
    await store.setIndex("symbols", "{}");
    await redis.hset("project:{work-main}:config", "schemaVersion", String(SCHEMA_VERSION - 1), "root", "/old");
    expect(await store.ensureSchema()).toBe("reset");
    expect(await store.fileCount()).toBe(0);
    expect(await store.getAst("src/a.ts")).toBeNull();
    expect((await store.loadKnownStats()).size).toBe(0);
    expect(await store.getIndexJson("symbols")).toBeNull();
    expect(await store.getConfigField("root")).toBeNull();
    expect(await store.getConfigField("schemaVersion")).toBe(String(SCHEMA_VERSION));
    expect(await store.ensureSchema()).toBe("ok");
  });

  it("resets data that has no version at all", async () => {
    await writeSample();
    expect(await store.ensureSchema()).toBe("reset");
    expect(await store.fileCount()).toBe(0);
  });

  it("leaves other projects alone on reset", async () => {
    const other = new ProjectStore({ redis, project: "work-other" });
    await other.writeBatch({ files: [["x.ts", JSON.stringify(text)]] });
    await writeSample();
    expect(await store.ensureSchema()).toBe("reset");
    expect(await other.fileCount()).toBe(1);
  });
});
