// The checkpoint tracker against a real Redis: what each turn records, what an edit backs up, what is
// persisted and reloaded, and the checkpoints.keep bound.
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sha256 } from "../../../src/main/checkpoints/blob-store.js";
import { CheckpointTracker, type CheckpointSettings } from "../../../src/main/checkpoints/checkpoint-tracker.js";
import { SessionStore } from "../../../src/main/session/session-store.js";
import { sessionDataKey } from "../../../src/main/store/keys.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";

const server = useRedisServer();
let redis: Redis;
let root: string;
let home: string;
let sessionId: string;

beforeAll(() => {
  redis = new Redis({ path: server().socket });
});
afterAll(() => redis.disconnect());
beforeEach(async () => {
  root = makeTempDir("ipuaro-track-");
  home = makeTempDir("ipuaro-home-");
  sessionId = (await new SessionStore(redis, "track-test").create(root)).meta.id;
});
afterEach(() => {
  removeDir(root);
  removeDir(home);
});

const abs = (rel: string) => path.join(root, rel);
const tracker = (settings: Partial<CheckpointSettings> = {}, notices: string[] = []) =>
  new CheckpointTracker({ root, sessionId, redis, settings, ignorePatterns: [], home, readHead: async () => ({ head: "a".repeat(40), branch: "main" }), onNotice: (m) => notices.push(m) });
const blobOf = (t: CheckpointTracker, entry: string, rel: string) => {
  const r = t.recordAt(t.checkpointFor(entry)!, rel);
  return r?.state === "file" ? r.blob : r?.state;
};

describe("checkpoint tracker", () => {
  it("backs a file up before its first write in a turn, once, and re-snapshots tracked files from disk at each turn", async () => {
    writeTree(root, { "a.ts": "original\n" });
    const t = tracker();
    await t.beginTurn("u1");
    expect(t.checkpointFor("u1")).toMatchObject({ v: 1, userEntryId: "u1", files: {}, git: { head: "a".repeat(40), branch: "main" } });

    await t.beforeWrite("a.ts");
    fs.writeFileSync(abs("a.ts"), "edit one\n");
    await t.afterWrite("a.ts", Buffer.from("edit one\n"));
    await t.beforeWrite("a.ts"); // second write in the same turn: the backup stays the pre-turn content
    fs.writeFileSync(abs("a.ts"), "edit two\n");
    await t.afterWrite("a.ts", Buffer.from("edit two\n"));
    expect(blobOf(t, "u1", "a.ts")).toBe(sha256(Buffer.from("original\n")));
    expect(t.lastWritten("a.ts")).toBe(sha256(Buffer.from("edit two\n")));

    fs.writeFileSync(abs("a.ts"), "by hand between turns\n");
    await t.beginTurn("u2");
    expect(blobOf(t, "u2", "a.ts")).toBe(sha256(Buffer.from("by hand between turns\n")));
    await t.beforeWrite("b.ts"); // a file the model is about to create
    expect(blobOf(t, "u2", "b.ts")).toBe("absent");
    // The first checkpoint never saw b.ts: its first record ("did not exist") stands in.
    expect(blobOf(t, "u1", "b.ts")).toBe("absent");
    expect(t.trackedFiles()).toEqual(["a.ts", "b.ts"]);
    // The blob holds the raw bytes under their sha256.
    expect(fs.readFileSync(t.blobs.pathOf(sha256(Buffer.from("original\n"))), "utf8")).toBe("original\n");
  });

  it("keeps records in the session's Redis hash: a new process sees the same checkpoints and writes", async () => {
    writeTree(root, { "a.ts": "v1\n" });
    const t = tracker();
    await t.beginTurn("u1");
    await t.beforeWrite("a.ts");
    await t.afterWrite("a.ts", null);
    await t.beginTurn("u2");

    const again = tracker();
    await again.ready();
    expect(again.checkpoints()).toEqual(t.checkpoints());
    expect(again.lastWritten("a.ts")).toBeNull();
    expect(again.trackedFiles()).toEqual(["a.ts"]);
    expect(again.running).toBeNull(); // no turn is in progress in the new process
    const fields = await redis.hkeys(sessionDataKey(sessionId));
    expect(fields.filter((f) => f.startsWith("cp:")).sort()).toEqual(["cp:u1", "cp:u2"]);
    expect(fields).toContain("cf:a.ts");
    expect(fields).toContain("cw:a.ts");
    // The session itself still loads: the checkpoint fields are not entries.
    expect(await new SessionStore(redis, "track-test").load(sessionId)).not.toBeNull();
  });

  it("reuses the record of a file untouched since (no new read), and re-reads one touched", async () => {
    writeTree(root, { "a.ts": "stable\n", "b.ts": "moving\n" });
    const old = new Date(Date.now() - 3600_000);
    fs.utimesSync(abs("a.ts"), old, old);
    const t = tracker();
    await t.beginTurn("u1");
    await t.beforeWrite("a.ts");
    await t.beforeWrite("b.ts");
    const madeAt = t.checkpointFor("u1")!.files["a.ts"]!.at;
    await sleep(20);
    await t.beginTurn("u2");
    const first = t.checkpointFor("u2")!.files;
    await sleep(20);
    fs.writeFileSync(abs("b.ts"), "moved\n");
    await t.beginTurn("u3");
    const second = t.checkpointFor("u3")!.files;
    // Made once in turn 1; later turns carry that record (its time included) without hashing again.
    expect(first["a.ts"]!.at).toBe(madeAt);
    expect(second["a.ts"]).toEqual(first["a.ts"]);
    expect(second["b.ts"]!.at).toBeGreaterThan(madeAt);
    expect(blobOf(t, "u3", "b.ts")).toBe(sha256(Buffer.from("moved\n")));
  });

  it("keeps at most checkpoints.keep checkpoints; a file's first record survives", async () => {
    writeTree(root, { "a.ts": "v0\n" });
    const t = tracker({ keep: 2 });
    await t.beginTurn("u1");
    await t.beforeWrite("a.ts");
    fs.writeFileSync(abs("a.ts"), "v1\n");
    await t.beginTurn("u2");
    await t.beginTurn("u3");
    expect(t.checkpoints().map((c) => c.userEntryId)).toEqual(["u2", "u3"]);
    const fields = await redis.hkeys(sessionDataKey(sessionId));
    expect(fields.filter((f) => f.startsWith("cp:")).sort()).toEqual(["cp:u2", "cp:u3"]);
    const again = tracker({ keep: 2 });
    await again.ready();
    expect(again.checkpointFor("u1")).toBeNull();
    expect(again.recordAt(again.checkpointFor("u2")!, "a.ts")).toMatchObject({ state: "file", blob: sha256(Buffer.from("v1\n")) });
  });

  it("records nothing outside a turn, and reports a failing backup as a notice without throwing", async () => {
    writeTree(root, { "a.ts": "v1\n" });
    const notices: string[] = [];
    const t = tracker({}, notices);
    await t.beforeWrite("a.ts");
    expect(t.trackedFiles()).toEqual([]);
    expect(await t.beforeCommand()).toBeNull();

    await t.beginTurn("u1");
    // The blob store's folder is a file: the backup cannot be written, the edit must still go on.
    fs.rmSync(path.join(home, "file-history"), { recursive: true, force: true });
    fs.mkdirSync(path.join(home, "file-history"), { recursive: true });
    fs.writeFileSync(path.join(home, "file-history", "blobs"), "in the way");
    await expect(t.beforeWrite("a.ts")).resolves.toBeUndefined();
    expect(notices.join("\n")).toMatch(/could not back up a\.ts before writing it/);
  });
});
