// Every branch of the restore rules (seed 002 §3.2) on real files: records made by snapshotFile, the
// blob store in a temp home, restoreFiles deciding per file.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hashContent } from "../../../src/pipeline/watch/content-hash.js";
import { BlobStore, sha256 } from "../../../src/main/checkpoints/blob-store.js";
import type { FileRecord } from "../../../src/main/checkpoints/checkpoint-types.js";
import { recordTarget } from "../../../src/main/checkpoints/code-plan.js";
import { OwnWrites } from "../../../src/main/indexing/own-writes.js";
import type { DiskFile } from "../../../src/main/checkpoints/disk-file.js";
import { snapshotFile } from "../../../src/main/checkpoints/file-snapshot.js";
import { countLineChanges, restoreFiles, type RestoreItem, type RestoreOptions } from "../../../src/main/checkpoints/restore-files.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";

let root: string;
let home: string;
let outside: string;
let blobs: BlobStore;
const MAX = 1000;

beforeEach(() => {
  root = makeTempDir("ipuaro-restore-");
  home = makeTempDir("ipuaro-home-");
  outside = makeTempDir("ipuaro-outside-");
  blobs = BlobStore.forHome(home);
});
afterEach(() => {
  for (const d of [root, home, outside]) removeDir(d);
});

const abs = (rel: string) => path.join(root, rel);
const read = (rel: string) => (fs.existsSync(abs(rel)) ? fs.readFileSync(abs(rel)) : null);
const record = (rel: string, maxFileBytes = MAX) => snapshotFile({ root, rel, blobs, maxFileBytes });

/** A restore item for a record; `known` says whether the disk content is one ipuaro knows (default: yes). */
function item(rel: string, r: FileRecord, known: (d: DiskFile) => boolean = () => true): RestoreItem {
  return { path: rel, target: recordTarget(r, blobs), known };
}

function restore(items: RestoreItem[], opts: Partial<RestoreOptions> = {}) {
  return restoreFiles(items, { root, onConflict: "skip", dryRun: false, maxFileBytes: MAX, ...opts });
}

describe("restoring files from checkpoint records", () => {
  it("writes back the exact recorded bytes (CRLF, BOM, no final newline) and the recorded mode", async () => {
    const original = Buffer.from("\uFEFFline one\r\nline two\r\nno newline at the end", "utf8");
    writeTree(root, { "bin/run.sh": original });
    fs.chmodSync(abs("bin/run.sh"), 0o755);
    const r = await record("bin/run.sh");
    expect(r).toMatchObject({ state: "file", blob: sha256(original), mode: 0o755, size: original.length });

    fs.writeFileSync(abs("bin/run.sh"), "line one\nchanged\n");
    fs.chmodSync(abs("bin/run.sh"), 0o644);
    const own: Array<[string, string | null]> = [];
    const out = await restore([item("bin/run.sh", r)], { registerOwnWrite: (p, h) => own.push([p, h]) });

    expect(read("bin/run.sh")!.equals(original)).toBe(true);
    expect(fs.statSync(abs("bin/run.sh")).mode & 0o777).toBe(0o755);
    expect(out.changes).toEqual([{ path: "bin/run.sh", action: "restore", insertions: 2, deletions: 1 }]);
    expect(out.written).toEqual([["bin/run.sh", sha256(original)]]);
    // The watcher is told the write is ipuaro's own, with the index's hash of the new content.
    expect(own).toEqual([["bin/run.sh", await hashContent(original)]]);
  });

  it("leaves a file that already has the recorded content alone", async () => {
    writeTree(root, { "a.ts": "same\n" });
    const r = await record("a.ts");
    const before = fs.statSync(abs("a.ts"));
    const out = await restore([item("a.ts", r, () => false)]);
    expect(out).toEqual({ changes: [], conflicts: [], skipped: [], removedFolders: [], written: [] });
    expect(fs.statSync(abs("a.ts")).ino).toBe(before.ino);
  });

  it("a file changed outside ipuaro is a conflict: skipped and listed by default, restored with overwrite", async () => {
    writeTree(root, { "a.ts": "one\ntwo\n" });
    const r = await record("a.ts");
    fs.writeFileSync(abs("a.ts"), "one\ntwo\nby hand\n");
    const handSha = sha256(read("a.ts")!);
    const knownShas = new Set(["not-this"]);
    const known = (d: DiskFile) => d.kind === "file" && knownShas.has(d.sha256);

    const skipped = await restore([item("a.ts", r, known)]);
    expect(skipped.conflicts).toEqual([{ path: "a.ts", action: "restore", insertions: 0, deletions: 1 }]);
    expect(skipped.changes).toEqual([]);
    expect(read("a.ts")!.toString()).toBe("one\ntwo\nby hand\n");

    // What ipuaro itself last wrote is not a conflict.
    knownShas.add(handSha);
    const dry = await restore([item("a.ts", r, known)], { dryRun: true });
    expect(dry.conflicts).toEqual([]);
    expect(dry.changes).toHaveLength(1);
    knownShas.clear();

    const forced = await restore([item("a.ts", r, known)], { onConflict: "overwrite" });
    expect(forced.conflicts).toEqual([]);
    expect(forced.changes.map((c) => c.path)).toEqual(["a.ts"]);
    expect(read("a.ts")!.toString()).toBe("one\ntwo\n");
  });

  it("never writes through a symlink, even with overwrite", async () => {
    writeTree(root, { "a.ts": "mine\n" });
    writeTree(outside, { "secret.txt": "not yours\n" });
    const r = await record("a.ts");
    fs.rmSync(abs("a.ts"));
    fs.symlinkSync(path.join(outside, "secret.txt"), abs("a.ts"));
    const out = await restore([item("a.ts", r)], { onConflict: "overwrite" });
    expect(out.skipped).toEqual([{ path: "a.ts", reason: "symlink" }]);
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("not yours\n");
    expect(fs.lstatSync(abs("a.ts")).isSymbolicLink()).toBe(true);
  });

  it("a symlink is recorded by its target and made again in place of a deleted, re-pointed or replaced link", async () => {
    writeTree(outside, { "secret.txt": "not yours\n" });
    fs.symlinkSync("../outside-target.txt", abs("a.ts"));
    const r = await record("a.ts");
    expect(r).toMatchObject({ state: "symlink", target: "../outside-target.txt", realParentDir: fs.realpathSync(root) });
    for (const change of [() => fs.rmSync(abs("a.ts")), () => fs.symlinkSync(path.join(outside, "secret.txt"), abs("a.ts")), () => fs.writeFileSync(abs("a.ts"), "a file now\n")]) {
      change();
      const own: Array<[string, string | null]> = [];
      // The watcher's registry takes the link's hash as it is (the UI's rewind failed on it).
      const watcherOwn = new OwnWrites();
      const out = await restore([item("a.ts", r)], { onConflict: "overwrite", registerOwnWrite: (p, h) => (own.push([p, h]), watcherOwn.register(p, h)) });
      expect(out.skipped).toEqual([]);
      expect(out.written).toEqual([["a.ts", "link:../outside-target.txt"]]);
      expect(own).toEqual([["a.ts", "link:../outside-target.txt"]]);
      expect(fs.readlinkSync(abs("a.ts"))).toBe("../outside-target.txt");
      // No temp name is left beside it, and nothing was written through the old link.
      expect(fs.readdirSync(root)).toEqual(["a.ts"]);
      expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("not yours\n");
      fs.rmSync(abs("a.ts"));
    }
  });

  it("a record of no file deletes a link there, never what it points to", async () => {
    writeTree(outside, { "secret.txt": "not yours\n" });
    const r = await record("a.ts");
    expect(r).toMatchObject({ state: "absent" });
    fs.symlinkSync(path.join(outside, "secret.txt"), abs("a.ts"));
    const out = await restore([item("a.ts", r)], { onConflict: "overwrite" });
    expect(out).toMatchObject({ changes: [{ path: "a.ts", action: "delete" }], skipped: [], written: [["a.ts", null]] });
    expect(fs.existsSync(abs("a.ts"))).toBe(false);
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("not yours\n");
  });

  it("never writes a file that has other hard links", async () => {
    writeTree(root, { "a.ts": "v1\n" });
    const r = await record("a.ts");
    fs.writeFileSync(abs("a.ts"), "v2\n");
    fs.linkSync(abs("a.ts"), path.join(outside, "other-name.ts"));
    const out = await restore([item("a.ts", r)], { onConflict: "overwrite" });
    expect(out.skipped).toEqual([{ path: "a.ts", reason: "hard_link", detail: "2 links" }]);
    expect(fs.readFileSync(path.join(outside, "other-name.ts"), "utf8")).toBe("v2\n");
    expect(read("a.ts")!.toString()).toBe("v2\n");
  });

  it("never writes into a folder that was replaced by a symlink (its realpath moved)", async () => {
    writeTree(root, { "src/a.ts": "v1\n" });
    const r = await record("src/a.ts");
    expect(r).toMatchObject({ realParentDir: path.join(root, "src") });
    fs.renameSync(abs("src"), path.join(outside, "src"));
    fs.writeFileSync(path.join(outside, "src", "a.ts"), "v2 elsewhere\n");
    fs.symlinkSync(path.join(outside, "src"), abs("src"));
    const out = await restore([item("src/a.ts", r)], { onConflict: "overwrite" });
    expect(out.skipped).toMatchObject([{ path: "src/a.ts", reason: "parent_moved" }]);
    expect(fs.readFileSync(path.join(outside, "src", "a.ts"), "utf8")).toBe("v2 elsewhere\n");
  });

  it("refuses a record whose folder was elsewhere when it was made", async () => {
    writeTree(root, { "src/a.ts": "v1\n" });
    const r = await record("src/a.ts");
    fs.writeFileSync(abs("src/a.ts"), "v2\n");
    const moved = { ...r, realParentDir: path.join(outside, "src") } as FileRecord;
    const out = await restore([item("src/a.ts", moved)]);
    expect(out.skipped).toMatchObject([{ path: "src/a.ts", reason: "parent_moved" }]);
    expect(read("src/a.ts")!.toString()).toBe("v2\n");
  });

  it("recreates a deleted file, its folders included", async () => {
    writeTree(root, { "deep/er/a.ts": "content\n" });
    const r = await record("deep/er/a.ts");
    fs.rmSync(abs("deep"), { recursive: true });
    const out = await restore([item("deep/er/a.ts", r)]);
    expect(out.changes).toEqual([{ path: "deep/er/a.ts", action: "create", insertions: 1, deletions: 0 }]);
    expect(read("deep/er/a.ts")!.toString()).toBe("content\n");
  });

  it("deletes a file the record says did not exist", async () => {
    const r = await record("new.ts");
    expect(r.state).toBe("absent");
    writeTree(root, { "new.ts": "created later\nsecond line\n" });
    const dry = await restore([item("new.ts", r)], { dryRun: true });
    expect(dry.changes).toEqual([{ path: "new.ts", action: "delete", insertions: 0, deletions: 2 }]);
    expect(read("new.ts")).not.toBeNull();
    const out = await restore([item("new.ts", r)]);
    expect(out.changes.map((c) => c.action)).toEqual(["delete"]);
    expect(out.written).toEqual([["new.ts", null]]);
    expect(read("new.ts")).toBeNull();
  });

  it("does not delete a folder standing where the recorded-absent file was", async () => {
    const r = await record("thing");
    fs.mkdirSync(abs("thing"));
    const out = await restore([item("thing", r)], { onConflict: "overwrite" });
    expect(out.skipped).toEqual([{ path: "thing", reason: "not_regular" }]);
    expect(fs.statSync(abs("thing")).isDirectory()).toBe(true);
  });

  it("records a file over maxFileBytes as too large and reports it as not restorable", async () => {
    writeTree(root, { "big.json": "x".repeat(2000) });
    const r = await record("big.json");
    expect(r).toMatchObject({ state: "skipped", reason: "too_large", size: 2000 });
    fs.writeFileSync(abs("big.json"), "small now");
    const out = await restore([item("big.json", r)]);
    expect(out.skipped).toEqual([{ path: "big.json", reason: "too_large" }]);
    expect(read("big.json")!.toString()).toBe("small now");
  });

  it("records a FIFO as not regular, and does not hang on one standing where a file was", async () => {
    execFileSync("mkfifo", [abs("pipe")]);
    expect(await record("pipe")).toMatchObject({ state: "skipped", reason: "not_regular" });
    writeTree(root, { "a.ts": "v1\n" });
    const r = await record("a.ts");
    fs.rmSync(abs("a.ts"));
    execFileSync("mkfifo", [abs("a.ts")]);
    const out = await restore([item("a.ts", r)], { onConflict: "overwrite" });
    expect(out.skipped).toEqual([{ path: "a.ts", reason: "not_regular" }]);
  });

  it("reports a backup that is gone instead of writing anything", async () => {
    writeTree(root, { "a.ts": "v1\n" });
    const r = await record("a.ts");
    fs.writeFileSync(abs("a.ts"), "v2\n");
    fs.rmSync(blobs.pathOf((r as Extract<FileRecord, { state: "file" }>).blob));
    const out = await restore([item("a.ts", r)]);
    expect(out.skipped).toMatchObject([{ path: "a.ts", reason: "missing_backup" }]);
    expect(read("a.ts")!.toString()).toBe("v2\n");
  });

  it("a dry run changes nothing and counts the lines each file would gain and lose", async () => {
    writeTree(root, { "a.ts": "1\n2\n3\n4\n", "b.ts": "keep\n" });
    const ra = await record("a.ts");
    const rb = await record("b.ts");
    fs.writeFileSync(abs("a.ts"), "1\nTWO\n3\n4\n5\n6\n");
    fs.rmSync(abs("b.ts"));
    const out = await restore([item("a.ts", ra), item("b.ts", rb)], { dryRun: true });
    expect(out.changes).toEqual([
      { path: "a.ts", action: "restore", insertions: 1, deletions: 3 },
      { path: "b.ts", action: "create", insertions: 1, deletions: 0 },
    ]);
    expect(out.written).toEqual([]);
    expect(read("a.ts")!.toString()).toBe("1\nTWO\n3\n4\n5\n6\n");
    expect(read("b.ts")).toBeNull();
  });

  it("stores a content once however many records share it", async () => {
    writeTree(root, { "a.ts": "same bytes\n", "b.ts": "same bytes\n" });
    const [ra, rb] = [await record("a.ts"), await record("b.ts")];
    expect((ra as { blob: string }).blob).toBe((rb as { blob: string }).blob);
    const shard = path.join(blobs.dir, (ra as { blob: string }).blob.slice(0, 2));
    expect(fs.readdirSync(shard)).toEqual([(ra as { blob: string }).blob]);
  });
});

describe("line counts", () => {
  it("counts from the disk's content to the recorded one", () => {
    expect(countLineChanges(Buffer.from("a\nb\nc\n"), Buffer.from("a\nc\n"))).toEqual({ insertions: 0, deletions: 1 });
    expect(countLineChanges(null, Buffer.from("a\nb\n"))).toEqual({ insertions: 2, deletions: 0 });
    expect(countLineChanges(Buffer.from("x\r\ny\r\n"), null)).toEqual({ insertions: 0, deletions: 2 });
    // Binary content has no lines to count.
    expect(countLineChanges(Buffer.from([0, 1, 2]), Buffer.from("a\n"))).toEqual({ insertions: 1, deletions: 0 });
  });
});
