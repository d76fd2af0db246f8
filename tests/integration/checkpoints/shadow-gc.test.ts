// shadow-git GC: the snapshots of a session that is gone from Redis (deleted, or expired after 30 days)
// are dropped from the project's shadow git dir; a live session's stay restorable.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CheckpointTracker } from "../../../src/main/checkpoints/checkpoint-tracker.js";
import { shadowGitDir } from "../../../src/main/checkpoints/shadow-git.js";
import { collectShadowGarbage } from "../../../src/main/checkpoints/shadow-gc.js";
import { SessionStore } from "../../../src/main/session/session-store.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";

const server = useRedisServer();
let redis: Redis;
let root: string;
let home: string;
let store: SessionStore;

beforeAll(() => {
  redis = new Redis({ path: server().socket });
});
afterAll(() => redis.disconnect());
beforeEach(async () => {
  await redis.flushall();
  root = makeTempDir("ipuaro-shadow-gc-");
  home = makeTempDir("ipuaro-home-");
  store = new SessionStore(redis, "shop");
});
afterEach(() => {
  removeDir(root);
  removeDir(home);
});

const gitDir = () => shadowGitDir(home, fs.realpathSync(root));
const git = (...args: string[]) => execFileSync("git", [`--git-dir=${gitDir()}`, ...args], { encoding: "utf8" }).trim();
const hasObject = (oid: string) => {
  try {
    git("cat-file", "-e", `${oid}^{commit}`);
    return true;
  } catch {
    return false;
  }
};

/** A session with one shadow-git snapshot of the project as it is now (its own file content). */
async function sessionWithSnapshot(file: string, content: string): Promise<{ id: string; commit: string }> {
  const id = (await store.create(root)).meta.id;
  writeTree(root, { [file]: content });
  const tracker = new CheckpointTracker({ root, sessionId: id, redis, settings: { mode: "shadow-git" }, ignorePatterns: [], home, readHead: async () => null });
  await tracker.beginTurn("u1");
  const commit = tracker.checkpoints()[0]?.shadowCommit;
  if (!commit) throw new Error("no shadow snapshot was taken");
  return { id, commit };
}

describe("shadow-git GC", () => {
  it("drops the ref, index file and objects of a deleted session; a live session's snapshot stays", async () => {
    // Content no other snapshot shares, and that does not compress away: its objects are what is freed.
    const gone = await sessionWithSnapshot("a.ts", `export const big = "${randomBytes(40_000).toString("hex")}";\n`);
    fs.rmSync(path.join(root, "a.ts"));
    const kept = await sessionWithSnapshot("b.ts", "export const b = 2;\n");
    expect(git("for-each-ref", "--format=%(refname)").split("\n")).toHaveLength(2);
    expect(await store.delete(gone.id)).toBe(true);

    const report = await collectShadowGarbage(redis, { home, root, graceMs: 0 });
    expect(report).toMatchObject({ removedSessions: 1, keptSessions: 1 });
    expect(report!.freedBytes).toBeGreaterThan(40_000);
    expect(git("for-each-ref", "--format=%(refname)")).toBe(`refs/ipuaro/sessions/${kept.id}`);
    expect(hasObject(gone.commit)).toBe(false);
    expect(hasObject(kept.commit)).toBe(true);
    expect(fs.readdirSync(path.join(gitDir(), "ipuaro-index"))).toEqual([kept.id]);
    // The kept snapshot still holds its files (a rewind can restore them).
    expect(git("show", `${kept.commit}:b.ts`)).toBe("export const b = 2;");

    // Nothing more to drop: a second run changes nothing.
    expect(await collectShadowGarbage(redis, { home, root, graceMs: 0 })).toEqual({ removedSessions: 0, keptSessions: 1, freedBytes: 0 });
  });

  it("a session that expired from Redis counts as gone; objects younger than the grace stay until it passes", async () => {
    const expired = await sessionWithSnapshot("a.ts", "export const a = 1;\n");
    await redis.del(`session:{${expired.id}}:data`); // what the 30-day TTL does
    const report = await collectShadowGarbage(redis, { home, root });
    expect(report).toMatchObject({ removedSessions: 1, keptSessions: 0 });
    expect(git("for-each-ref", "--format=%(refname)")).toBe("");
    // Another process may be mid-snapshot: unreachable objects are kept for a day.
    expect(hasObject(expired.commit)).toBe(true);
  });

  it("a project without shadow-git snapshots has nothing to collect", async () => {
    writeTree(root, { "a.ts": "export const a = 1;\n" });
    expect(await collectShadowGarbage(redis, { home, root, graceMs: 0 })).toBeNull();
  });
});
