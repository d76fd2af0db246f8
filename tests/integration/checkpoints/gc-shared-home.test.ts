// One file history, two Redis databases (a project with its own `redis.db`): `ipuaro sessions prune` run
// against one of them must not delete the backups the other one's checkpoints still need.
import fs from "node:fs";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { collectGarbage } from "../../../src/main/checkpoints/blob-gc.js";
import { sha256 } from "../../../src/main/checkpoints/blob-store.js";
import { CheckpointTracker } from "../../../src/main/checkpoints/checkpoint-tracker.js";
import { planAndRestore } from "../../../src/main/checkpoints/code-plan.js";
import { SessionStore } from "../../../src/main/session/session-store.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";

const server = useRedisServer();
let db0: Redis;
let db1: Redis;
let root: string;
let home: string;

beforeAll(() => {
  db0 = new Redis({ path: server().socket, db: 0 });
  db1 = new Redis({ path: server().socket, db: 1 });
});
afterAll(() => {
  db0.disconnect();
  db1.disconnect();
});
beforeEach(async () => {
  await db0.flushall();
  root = makeTempDir("ipuaro-gc-shared-");
  home = makeTempDir("ipuaro-home-");
});
afterEach(() => {
  removeDir(root);
  removeDir(home);
});

const threeDaysAgo = new Date(Date.now() - 3 * 24 * 3600_000);

async function trackerIn(redis: Redis): Promise<CheckpointTracker> {
  const id = (await new SessionStore(redis, "shared").create(root)).meta.id;
  return new CheckpointTracker({ root, sessionId: id, redis, ignorePatterns: [], home, readHead: async () => null });
}

describe("GC of a file history shared by two Redis databases", () => {
  it("a prune against the other database removes nothing, and the checkpoint can still restore its file", async () => {
    writeTree(root, { "a.ts": "original\n" });
    const t = await trackerIn(db0);
    await t.beginTurn("u1");
    await t.beforeWrite("a.ts");
    fs.writeFileSync(`${root}/a.ts`, "by the agent\n");
    await t.afterWrite("a.ts", Buffer.from("by the agent\n"));
    const blob = t.blobs.pathOf(sha256(Buffer.from("original\n")));
    fs.utimesSync(blob, threeDaysAgo, threeDaysAgo);

    const report = await collectGarbage(db1, { home });
    expect(report.removedBlobs).toBe(0);
    expect(report.sharedWith).toHaveLength(1);
    expect(fs.existsSync(blob)).toBe(true);
    const out = await planAndRestore(t, t.checkpointFor("u1")!, { onConflict: "skip", dryRun: false });
    expect(out.changes.map((c) => c.path)).toEqual(["a.ts"]);
    expect(fs.readFileSync(`${root}/a.ts`, "utf8")).toBe("original\n");
  });

  it("with only its own database in the file history, a prune still frees unreferenced old backups", async () => {
    const t = await trackerIn(db0);
    await t.beginTurn("u1");
    const orphan = await t.blobs.put(Buffer.from("nobody refers to this\n"));
    fs.utimesSync(t.blobs.pathOf(orphan), threeDaysAgo, threeDaysAgo);
    const report = await collectGarbage(db0, { home });
    expect(report).toMatchObject({ removedBlobs: 1 });
    expect(report.sharedWith).toBeUndefined();
  });
});
