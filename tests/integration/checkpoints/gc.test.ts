// File-history GC: blobs a session still refers to are kept whatever their age; unreferenced ones go
// once they are a day old; deleting a session frees what only it needed.
import fs from "node:fs";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { collectGarbage, fileHistoryUsage } from "../../../src/main/checkpoints/blob-gc.js";
import { BlobStore, sha256 } from "../../../src/main/checkpoints/blob-store.js";
import { CheckpointTracker } from "../../../src/main/checkpoints/checkpoint-tracker.js";
import { SessionStore } from "../../../src/main/session/session-store.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";

const server = useRedisServer();
let redis: Redis;
let root: string;
let home: string;
let blobs: BlobStore;

beforeAll(() => {
  redis = new Redis({ path: server().socket });
});
afterAll(() => redis.disconnect());
beforeEach(async () => {
  await redis.flushall();
  root = makeTempDir("ipuaro-gc-");
  home = makeTempDir("ipuaro-home-");
  blobs = BlobStore.forHome(home);
});
afterEach(() => {
  removeDir(root);
  removeDir(home);
});

const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600_000);
const age = (file: string) => fs.utimesSync(file, twoDaysAgo, twoDaysAgo);
const exists = (hash: string) => fs.existsSync(blobs.pathOf(hash));

async function sessionWithBackup(project: string, content: string): Promise<{ store: SessionStore; id: string; hash: string }> {
  const store = new SessionStore(redis, project);
  const id = (await store.create(root)).meta.id;
  writeTree(root, { [`${project}.ts`]: content });
  const t = new CheckpointTracker({ root, sessionId: id, redis, ignorePatterns: [], home, readHead: async () => null });
  await t.beginTurn("u1");
  await t.beforeWrite(`${project}.ts`);
  return { store, id, hash: sha256(Buffer.from(content)) };
}

describe("file history GC", () => {
  it("keeps referenced blobs (any project, any age) and new ones; removes old unreferenced blobs and temp leftovers", async () => {
    const a = await sessionWithBackup("alpha", "referenced by alpha\n");
    const b = await sessionWithBackup("beta", "referenced by beta\n");
    age(blobs.pathOf(a.hash));
    age(blobs.pathOf(b.hash));
    const oldOrphan = await blobs.put(Buffer.from("nobody needs me\n"));
    age(blobs.pathOf(oldOrphan));
    const newOrphan = await blobs.put(Buffer.from("written a moment ago\n"));
    const oldTemp = `${blobs.pathOf(oldOrphan)}.tmp-999-dead`;
    fs.writeFileSync(oldTemp, "half");
    age(oldTemp);

    const report = await collectGarbage(redis, { home });
    expect(report).toMatchObject({ removedBlobs: 2, keptBlobs: 3 });
    expect(report.freedBytes).toBe("nobody needs me\n".length + "half".length);
    expect([exists(a.hash), exists(b.hash), exists(oldOrphan), exists(newOrphan), fs.existsSync(oldTemp)]).toEqual([true, true, false, true, false]);

    const usage = await fileHistoryUsage(home);
    expect(usage).toMatchObject({ blobs: 3, shadowBytes: 0, dir: path.join(home, "file-history") });
    expect(usage.blobBytes).toBe(report.keptBytes);
  });

  it("a deleted session's backups go at the next GC; a blob still shared with another session stays", async () => {
    const a = await sessionWithBackup("alpha", "shared content\n");
    const b = await sessionWithBackup("beta", "only beta\n");
    const c = await sessionWithBackup("gamma", "shared content\n");
    for (const h of [a.hash, b.hash]) age(blobs.pathOf(h));
    expect(await b.store.delete(b.id)).toBe(true);
    await collectGarbage(redis, { home });
    expect(exists(b.hash)).toBe(false);
    expect(exists(a.hash)).toBe(true);
    expect(await c.store.delete(c.id)).toBe(true);
    await collectGarbage(redis, { home });
    expect(exists(a.hash)).toBe(true); // alpha still refers to it
    await a.store.delete(a.id);
    await collectGarbage(redis, { home });
    expect(exists(a.hash)).toBe(false);
  });

  it("a blob known only as a file's first record (its checkpoints dropped by keep) is kept", async () => {
    const store = new SessionStore(redis, "keep");
    const id = (await store.create(root)).meta.id;
    writeTree(root, { "f.ts": "first version\n" });
    const t = new CheckpointTracker({ root, sessionId: id, redis, settings: { keep: 1 }, ignorePatterns: [], home, readHead: async () => null });
    await t.beginTurn("u1");
    await t.beforeWrite("f.ts");
    fs.writeFileSync(path.join(root, "f.ts"), "second version\n");
    await t.beginTurn("u2");
    await t.beginTurn("u3");
    const first = sha256(Buffer.from("first version\n"));
    age(blobs.pathOf(first));
    await collectGarbage(redis, { home });
    expect(exists(first)).toBe(true);
  });
});
