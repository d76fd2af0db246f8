// Rewinds a user trusts with their work: what a restore does to permission bits, what happens when one
// backup of several cannot be read, and what a preview promises. Real files, real Redis, real git.
import fs from "node:fs";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sha256 } from "../../../src/main/checkpoints/blob-store.js";
import { CheckpointTracker, type CheckpointSettings } from "../../../src/main/checkpoints/checkpoint-tracker.js";
import { planAndRestore } from "../../../src/main/checkpoints/code-plan.js";
import { SessionStore } from "../../../src/main/session/session-store.js";
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
  root = makeTempDir("ipuaro-safety-");
  home = makeTempDir("ipuaro-home-");
  sessionId = (await new SessionStore(redis, "safety-test").create(root)).meta.id;
});
afterEach(() => {
  removeDir(root);
  removeDir(home);
});

const abs = (rel: string) => path.join(root, rel);
const modeOf = (rel: string) => fs.statSync(abs(rel)).mode & 0o777;
const tracker = (settings: Partial<CheckpointSettings> = {}, notices: string[] = []) =>
  new CheckpointTracker({ root, sessionId, redis, settings, ignorePatterns: [], home, readHead: async () => null, onNotice: (m) => notices.push(m) });

/** An edit tool's write, as the tools report it to the tracker. */
async function agentWrite(t: CheckpointTracker, rel: string, text: string): Promise<void> {
  await t.beforeWrite(rel);
  fs.mkdirSync(path.dirname(abs(rel)), { recursive: true });
  fs.writeFileSync(abs(rel), text);
  await t.afterWrite(rel, Buffer.from(text));
}

describe("permission bits survive a rewind", () => {
  it("shadow-git: a 0600 file changed by a command comes back 0600, not git's 0644; a script keeps 0755", async () => {
    writeTree(root, { ".env": "TOKEN=old\n", "run.sh": "echo old\n" });
    fs.chmodSync(abs(".env"), 0o600);
    fs.chmodSync(abs("run.sh"), 0o750);
    const t = tracker({ mode: "shadow-git" });
    await t.beginTurn("u1");
    // A command of turn 1 rewrote both files in place (their modes stay).
    fs.writeFileSync(abs(".env"), "TOKEN=leaked-by-command\n");
    fs.writeFileSync(abs("run.sh"), "echo new\n");
    await t.beginTurn("u2");
    expect(t.checkpointFor("u1")!.shadowCommit).toBeTruthy();
    // Changed outside ipuaro's edits between the turns: conflicts, restored when asked to overwrite.
    const careful = await planAndRestore(t, t.checkpointFor("u1")!, { onConflict: "skip", dryRun: true });
    expect(careful.conflicts.map((c) => c.path).sort()).toEqual([".env", "run.sh"]);

    const out = await planAndRestore(t, t.checkpointFor("u1")!, { onConflict: "overwrite", dryRun: false });
    expect(out.changes.map((c) => c.path).sort()).toEqual([".env", "run.sh"]);
    expect(fs.readFileSync(abs(".env"), "utf8")).toBe("TOKEN=old\n");
    expect(modeOf(".env")).toBe(0o600);
    expect(fs.readFileSync(abs("run.sh"), "utf8")).toBe("echo old\n");
    expect(modeOf("run.sh")).toBe(0o750);
  });

  it("shadow-git: a file deleted since comes back with git's executable bit", async () => {
    writeTree(root, { "tool.sh": "echo hi\n", "data.txt": "x\n" });
    fs.chmodSync(abs("tool.sh"), 0o755);
    const t = tracker({ mode: "shadow-git" });
    await t.beginTurn("u1");
    fs.rmSync(abs("tool.sh"));
    fs.rmSync(abs("data.txt"));
    await t.beginTurn("u2");
    const out = await planAndRestore(t, t.checkpointFor("u1")!, { onConflict: "overwrite", dryRun: false });
    expect(out.changes.map((c) => [c.path, c.action])).toEqual([
      ["data.txt", "create"],
      ["tool.sh", "create"],
    ]);
    expect(modeOf("tool.sh") & 0o111).toBe(0o111);
    expect(modeOf("data.txt") & 0o111).toBe(0);
  });

  it("tools mode: a deleted 0600 file is recreated 0600", async () => {
    writeTree(root, { "secret.txt": "s3cret\n" });
    fs.chmodSync(abs("secret.txt"), 0o600);
    const t = tracker();
    await t.beginTurn("u1");
    await t.beforeWrite("secret.txt");
    fs.rmSync(abs("secret.txt"));
    await t.afterWrite("secret.txt", null);
    const out = await planAndRestore(t, t.checkpointFor("u1")!, { onConflict: "skip", dryRun: false });
    expect(out.changes).toEqual([{ path: "secret.txt", action: "create", insertions: 1, deletions: 0 }]);
    expect(modeOf("secret.txt")).toBe(0o600);
  });
});

describe("a backup that cannot be read", () => {
  /** Replaces a blob with a folder: reading it fails with EISDIR, as a damaged file history can. */
  function breakBlob(t: CheckpointTracker, hash: string): void {
    const file = t.blobs.pathOf(hash);
    fs.rmSync(file);
    fs.mkdirSync(file);
  }

  it("does not abort the rewind: the other files are restored and recorded as ipuaro's writes, the broken one is reported", async () => {
    writeTree(root, { "a.ts": "a original\n", "b.ts": "b original\n", "c.ts": "c original\n" });
    const t = tracker();
    await t.beginTurn("u1");
    for (const f of ["a.ts", "b.ts", "c.ts"]) await agentWrite(t, f, `${f} by the agent\n`);
    breakBlob(t, sha256(Buffer.from("b original\n")));

    const dry = await planAndRestore(t, t.checkpointFor("u1")!, { onConflict: "skip", dryRun: true });
    expect(dry.changes.map((c) => c.path)).toEqual(["a.ts", "c.ts"]);
    expect(dry.skipped).toEqual([expect.objectContaining({ path: "b.ts", reason: "io_error" })]);

    const out = await planAndRestore(t, t.checkpointFor("u1")!, { onConflict: "skip", dryRun: false });
    expect(out.changes.map((c) => c.path)).toEqual(["a.ts", "c.ts"]);
    expect(out.skipped).toEqual([expect.objectContaining({ path: "b.ts", reason: "io_error" })]);
    expect(out.written).toEqual([
      ["a.ts", sha256(Buffer.from("a original\n"))],
      ["c.ts", sha256(Buffer.from("c original\n"))],
    ]);
    expect(fs.readFileSync(abs("a.ts"), "utf8")).toBe("a original\n");
    expect(fs.readFileSync(abs("b.ts"), "utf8")).toBe("b.ts by the agent\n");
    expect(fs.readFileSync(abs("c.ts"), "utf8")).toBe("c original\n");
  });

  it("a backup gone from the file history: the preview says so instead of promising a restore", async () => {
    writeTree(root, { "a.ts": "a original\n" });
    const t = tracker();
    await t.beginTurn("u1");
    await agentWrite(t, "a.ts", "by the agent\n");
    fs.rmSync(t.blobs.pathOf(sha256(Buffer.from("a original\n"))));
    const dry = await planAndRestore(t, t.checkpointFor("u1")!, { onConflict: "skip", dryRun: true });
    expect(dry.changes).toEqual([]);
    expect(dry.skipped).toEqual([expect.objectContaining({ path: "a.ts", reason: "missing_backup" })]);
  });
});

describe("a file whose backup cannot be made", () => {
  /** Makes storing a backup of `bytes` fail: its shard folder is taken by a file (as a full disk would fail it). */
  function blockBackupOf(t: CheckpointTracker, bytes: string): void {
    const shard = path.dirname(t.blobs.pathOf(sha256(Buffer.from(bytes))));
    fs.rmSync(shard, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(shard), { recursive: true });
    fs.writeFileSync(shard, "in the way");
  }

  it("costs only that file, not the whole turn's checkpoint: the other files' edits stay restorable", async () => {
    writeTree(root, { "a.ts": "a one\n", "b.ts": "b one\n" });
    const notices: string[] = [];
    const t = tracker({}, notices);
    await t.beginTurn("u1");
    await agentWrite(t, "a.ts", "a two\n");
    await agentWrite(t, "b.ts", "b two\n");
    fs.writeFileSync(abs("b.ts"), "b changed by hand\n");
    blockBackupOf(t, "b changed by hand\n");

    await t.beginTurn("u2");
    expect(t.checkpointFor("u2")).not.toBeNull();
    expect(t.checkpointFor("u2")!.files["b.ts"]).toMatchObject({ state: "skipped", reason: "backup_failed" });
    expect(notices.join("\n")).toContain("could not back up b.ts");
    await agentWrite(t, "a.ts", "a three\n");

    const out = await planAndRestore(t, t.checkpointFor("u2")!, { onConflict: "skip", dryRun: false });
    expect(fs.readFileSync(abs("a.ts"), "utf8")).toBe("a two\n");
    expect(out.changes.map((c) => c.path)).toEqual(["a.ts"]);
    expect(out.skipped).toEqual([{ path: "b.ts", reason: "backup_failed" }]);
  });

  it("a file first written in a turn whose backup fails is listed as not restorable, not passed over", async () => {
    writeTree(root, { "a.ts": "a one\n" });
    const notices: string[] = [];
    const t = tracker({}, notices);
    await t.beginTurn("u1");
    blockBackupOf(t, "a one\n");
    await agentWrite(t, "a.ts", "a two\n");
    expect(notices.join("\n")).toContain("could not back up a.ts before writing it");
    const dry = await planAndRestore(t, t.checkpointFor("u1")!, { onConflict: "skip", dryRun: true });
    expect(dry.skipped).toEqual([{ path: "a.ts", reason: "backup_failed" }]);
  });

  it("an edit of a file over checkpoints.maxFileBytes is announced when it happens, not only at rewind time", async () => {
    writeTree(root, { "big.json": "x".repeat(2000) });
    const notices: string[] = [];
    const t = tracker({ maxFileBytes: 1000 }, notices);
    await t.beginTurn("u1");
    await agentWrite(t, "big.json", "small now");
    expect(notices).toEqual([expect.stringContaining("big.json is larger than checkpoints.maxFileBytes (2000 > 1000 bytes)")]);
  });
});

describe("changes made between two messages", () => {
  it.each(["tools", "shadow-git"] as const)("%s: a rewind past them keeps what the user changed, and takes back what ipuaro wrote", async (mode) => {
    writeTree(root, { "a.ts": "a0\n", "b.ts": "b0\n", "c.ts": "c0\n" });
    const t = tracker({ mode });
    await t.beginTurn("u1");
    await agentWrite(t, "a.ts", "a1 by ipuaro\n");
    await agentWrite(t, "b.ts", "b1 by ipuaro\n");
    // Between the turns: a hand edit of a file ipuaro wrote, and (shadow-git sees every file) of one it never did.
    fs.appendFileSync(abs("b.ts"), "b2 by hand\n");
    fs.writeFileSync(abs("c.ts"), "c1 by hand\n");
    await t.beginTurn("u2");
    expect(t.checkpointFor("u2")!.changedOutside).toEqual(mode === "tools" ? ["b.ts"] : ["b.ts", "c.ts"]);
    // ipuaro's own writes in the second turn are not changes from outside.
    await agentWrite(t, "a.ts", "a2 by ipuaro\n");
    await t.beginTurn("u3");
    expect(t.checkpointFor("u3")!.changedOutside).toBeUndefined();

    // A rewind to the message the hand edits came before loses none of them: only ipuaro's write goes.
    const toSecond = await planAndRestore(t, t.checkpointFor("u2")!, { onConflict: "skip", dryRun: true });
    expect([toSecond.changes.map((c) => c.path), toSecond.conflicts]).toEqual([["a.ts"], []]);

    const out = await planAndRestore(t, t.checkpointFor("u1")!, { onConflict: "skip", dryRun: false });
    expect(out.changes.map((c) => c.path)).toEqual(["a.ts"]);
    expect(out.conflicts.map((c) => c.path)).toEqual(mode === "tools" ? ["b.ts"] : ["b.ts", "c.ts"]);
    expect(fs.readFileSync(abs("a.ts"), "utf8")).toBe("a0\n");
    expect(fs.readFileSync(abs("b.ts"), "utf8")).toBe("b1 by ipuaro\nb2 by hand\n");
    expect(fs.readFileSync(abs("c.ts"), "utf8")).toBe("c1 by hand\n");
  });
});
