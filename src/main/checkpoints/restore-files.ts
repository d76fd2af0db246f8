// Putting files back as a checkpoint recorded them (seed 002 §3.2), in this order for each file:
//  1. a record that could not be backed up (too large, not regular, not in the index) → skipped;
//  2. the disk already holds the recorded content → nothing to do;
//  3. the disk holds neither what ipuaro last wrote nor the latest checkpoint's record → conflict: the
//     user changed it outside ipuaro; left alone unless onConflict is "overwrite";
//  4. never through a symlink (a file's bytes), into a non-regular file, into a file with other hard links, or into a
//     folder whose realpath moved (a folder swapped for a symlink) → skipped;
//  5. a record of "did not exist" deletes the file, and the folders it was the last thing in, if they
//     did not exist at the checkpoint either (empty-folders.ts);
//  6. otherwise the bytes are written back (atomic temp + rename) after the path was opened with
//     O_NOFOLLOW and its dev/ino checked against lstat, and the recorded mode restored (a shadow-git
//     record knows only the executable bit: the file's other bits stay);
//  7. a symlink record makes the link again (a new link renamed over the path): the link itself is
//     restored, never anything through it, so what it replaces may be a link too.
// A dry run stops after 4 (and says when a backup is gone) and counts the lines each file would gain
// and lose. One file's failure is reported as skipped and never stops the others. A record that could
// not be backed up (1.) is reported only when the file changed since: same size and mtime as then means
// there is nothing to restore.
import { constants } from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { diffArrays } from "diff";
import { hashContent } from "../../pipeline/watch/content-hash.js";
import { AtomicWriteError, deleteFileAtomic, tempPathFor, writeFileAtomic } from "../fs/atomic-write.js";
import { symlinkHash } from "../../workers/protocol.js";
import { sha256 } from "./blob-store.js";
import type { FileChange, OnConflict, RecordSkipReason, SkippedFile } from "./checkpoint-types.js";
import { errnoOf, isMissing, readDiskFile, realDir, type DiskFile } from "./disk-file.js";
import { newFoldersOf, removeEmptyFolders } from "./empty-folders.js";
import { absPath } from "./file-snapshot.js";

export type RestoreTarget =
  | {
      kind: "file";
      /** Identity of the content: sha256 (blob store) and/or git object id (shadow git). */
      sha256?: string;
      gitOid?: string;
      /** Exact permission bits to restore (tools records). */
      mode?: number;
      /**
       * Only the executable bit is known (git records 644 or 755): the file keeps its other bits, so a
       * 0600 secret is not made world-readable by a shadow-git restore.
       */
      executable?: boolean;
      realParentDir?: string;
      /** The bytes to write; null when the backup is gone. */
      load(): Promise<Buffer | null>;
    }
  /** A symbolic link with this target text. */
  | { kind: "symlink"; target: string; realParentDir?: string }
  /** `newDir`: see FileRecord; the folders up to it are removed when the deletion leaves them empty. */
  | { kind: "absent"; realParentDir?: string; newDir?: string }
  /** `size` and `mtimeMs`: the file's when recorded, if known (unchanged since → nothing to report). */
  | { kind: "unrestorable"; reason: RecordSkipReason; size?: number; mtimeMs?: number };

export interface RestoreItem {
  path: string;
  target: RestoreTarget;
  /** The disk holds content ipuaro knows (its own last write, or the latest checkpoint's): not a conflict. */
  known(disk: DiskFile): boolean;
}

export interface RestoreOptions {
  root: string;
  onConflict: OnConflict;
  dryRun: boolean;
  /** Files bigger than this are not read into memory for line counts. */
  maxFileBytes: number;
  /** Called just before each write or delete (hash of the new content as the index computes it; null = delete). */
  registerOwnWrite?(path: string, hash: string | null): void;
  /**
   * Called right after each file is written or deleted (sha256 now on disk, null = deleted), before the
   * next one: a rewind killed half-way has still recorded what it wrote as ipuaro's own.
   */
  onWritten?(path: string, sha: string | null): Promise<void>;
}

export interface RestoreOutcome {
  /** Files restored, created or deleted (planned, on a dry run). */
  changes: FileChange[];
  /** Left alone because they changed outside ipuaro (with what a restore would have changed). */
  conflicts: FileChange[];
  skipped: SkippedFile[];
  /** sha256 now on disk per written path (null = deleted), for the tracker's "last written" record. */
  written: Array<[string, string | null]>;
  /** Folders removed because the deletions left them empty (none on a dry run). */
  removedFolders: string[];
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;
/** Line counts are given up on (whole sides counted) past this long a diff. */
const DIFF_TIMEOUT_MS = 200;

export function isTargetContent(target: RestoreTarget, disk: DiskFile): boolean {
  if (target.kind === "absent") return disk.kind === "absent";
  if (target.kind === "symlink") return disk.kind === "symlink" && disk.target === target.target;
  if (target.kind !== "file" || disk.kind !== "file") return false;
  if (target.sha256 !== undefined) return target.sha256 === disk.sha256;
  return target.gitOid !== undefined && target.gitOid === disk.gitOid;
}

function splitLines(bytes: Buffer | null): string[] {
  if (!bytes || bytes.length === 0 || bytes.includes(0)) return [];
  const lines = bytes.toString("utf8").replace(/^\uFEFF/, "").split(/\r\n?|\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Lines a restore adds and removes, going from the disk's content to the recorded one. */
export function countLineChanges(from: Buffer | null, to: Buffer | null): { insertions: number; deletions: number } {
  const a = splitLines(from);
  const b = splitLines(to);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  if (midA.length === 0 || midB.length === 0) return { insertions: midB.length, deletions: midA.length };
  const parts = diffArrays(midA, midB, { timeout: DIFF_TIMEOUT_MS });
  if (!parts) return { insertions: midB.length, deletions: midA.length };
  let insertions = 0;
  let deletions = 0;
  for (const p of parts) {
    if (p.added) insertions += p.count;
    else if (p.removed) deletions += p.count;
  }
  return { insertions, deletions };
}

/** The folder `rel` should be in, as a real path: `realRoot` joined with its folders. */
function expectedParent(realRoot: string, rel: string): string {
  const dir = path.posix.dirname(rel);
  return dir === "." ? realRoot : path.join(realRoot, ...dir.split("/"));
}

/** Why the path cannot be written safely, or null. */
async function safetyProblem(realRoot: string, rel: string, disk: DiskFile, target: RestoreTarget): Promise<SkippedFile | null> {
  // Only writing a file's bytes could go through a link; making a link again or deleting one replaces
  // or removes the link itself.
  if (disk.kind === "symlink" && target.kind === "file") return { path: rel, reason: "symlink" };
  if (disk.kind === "not_regular") return { path: rel, reason: "not_regular" };
  if (disk.kind === "file" && disk.nlink > 1) return { path: rel, reason: "hard_link", detail: `${disk.nlink} links` };
  const expected = expectedParent(realRoot, rel);
  const recorded = target.kind === "unrestorable" ? undefined : target.realParentDir;
  // The nearest folder that exists must be exactly where the project's own folders put it.
  let relDir = path.posix.dirname(rel);
  for (;;) {
    const want = relDir === "." ? realRoot : path.join(realRoot, ...relDir.split("/"));
    const real = await realDir(want);
    if (real !== null) {
      if (real !== want) return { path: rel, reason: "parent_moved", detail: `${relDir} resolves to ${real}` };
      break;
    }
    if (relDir === ".") return { path: rel, reason: "parent_moved", detail: "the project folder is gone" };
    relDir = path.posix.dirname(relDir);
  }
  if (recorded && recorded !== expected && (await realDir(expected)) !== null) {
    return { path: rel, reason: "parent_moved", detail: `recorded in ${recorded}, now ${expected}` };
  }
  return null;
}

/** Opens the path without following a symlink and checks it is the single-link regular file lstat sees. */
async function verifiedInPlace(abs: string, rel: string): Promise<SkippedFile | null> {
  let handle;
  try {
    handle = await fsp.open(abs, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (error) {
    if (errnoOf(error) === "ELOOP") return { path: rel, reason: "symlink" };
    if (isMissing(error)) return null; // gone meanwhile: writing creates it, deleting has nothing to do
    throw error;
  }
  try {
    const fst = await handle.stat();
    const lst = await fsp.lstat(abs);
    if (lst.isSymbolicLink()) return { path: rel, reason: "symlink" };
    if (!fst.isFile()) return { path: rel, reason: "not_regular" };
    if (fst.dev !== lst.dev || fst.ino !== lst.ino) return { path: rel, reason: "io_error", detail: "the file was replaced while being restored" };
    if (fst.nlink > 1) return { path: rel, reason: "hard_link", detail: `${fst.nlink} links` };
    return null;
  } finally {
    await handle.close();
  }
}

async function chmodNoFollow(abs: string, mode: number): Promise<void> {
  const handle = await fsp.open(abs, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  try {
    if (((await handle.stat()).mode & 0o7777) !== mode) await handle.chmod(mode);
  } finally {
    await handle.close();
  }
}

/** The mode a restored file gets: the recorded one, or the disk's (0644 for a new file) with git's executable bit. */
export function restoredMode(target: Extract<RestoreTarget, { kind: "file" }>, disk: DiskFile): number | undefined {
  if (target.mode !== undefined) return target.mode;
  if (target.executable === undefined) return undefined;
  const base = disk.kind === "file" ? disk.mode : 0o644;
  return target.executable ? base | ((base & 0o444) >> 2) : base & ~0o111;
}

/** Creates the folders `rel` goes in; they must be the project's own (nothing swapped in a symlink meanwhile). */
async function madeParent(abs: string, rel: string, realRoot: string): Promise<SkippedFile | null> {
  await fsp.mkdir(path.dirname(abs), { recursive: true });
  if ((await realDir(path.dirname(abs))) === expectedParent(realRoot, rel)) return null;
  return { path: rel, reason: "parent_moved", detail: `${path.posix.dirname(rel)} moved while being created` };
}

/** Deletes the link itself (unlink never touches what it points to), if it still is one. */
async function removeLink(abs: string, rel: string, opts: RestoreOptions): Promise<{ skipped: SkippedFile } | { written: null }> {
  try {
    if (!(await fsp.lstat(abs)).isSymbolicLink()) return { skipped: { path: rel, reason: "io_error", detail: "the link was replaced while being restored" } };
    opts.registerOwnWrite?.(rel, null);
    await fsp.unlink(abs);
  } catch (error) {
    if (!isMissing(error)) return { skipped: ioSkip(rel, error) };
  }
  return { written: null };
}

/** Makes the link under a temp name beside it, then renames it over whatever is at the path. */
async function restoreLink(linkTarget: string, abs: string, rel: string, disk: DiskFile, realRoot: string, opts: RestoreOptions): Promise<{ skipped: SkippedFile } | { written: string }> {
  if (disk.kind === "absent") {
    const moved = await madeParent(abs, rel, realRoot);
    if (moved) return { skipped: moved };
  }
  const id = symlinkHash(linkTarget);
  opts.registerOwnWrite?.(rel, id);
  const temp = tempPathFor(abs);
  try {
    await fsp.symlink(linkTarget, temp);
    await fsp.rename(temp, abs);
  } catch (error) {
    await fsp.rm(temp, { force: true }).catch(() => undefined);
    return { skipped: ioSkip(rel, error) };
  }
  return { written: id };
}

const MISSING_BACKUP = (rel: string): SkippedFile => ({ path: rel, reason: "missing_backup", detail: "the backup is gone from the file history" });

function ioSkip(rel: string, error: unknown): SkippedFile {
  return { path: rel, reason: "io_error", detail: error instanceof Error ? error.message : String(error) };
}

async function applyOne(item: RestoreItem, abs: string, disk: DiskFile, realRoot: string, opts: RestoreOptions): Promise<{ skipped: SkippedFile } | { written: string | null }> {
  const { target } = item;
  const rel = item.path;
  if (target.kind === "absent") {
    if (disk.kind === "symlink") return removeLink(abs, rel, opts);
    const problem = await verifiedInPlace(abs, rel);
    if (problem) return { skipped: problem };
    opts.registerOwnWrite?.(rel, null);
    try {
      await deleteFileAtomic(abs);
    } catch (error) {
      if (error instanceof AtomicWriteError && error.reason === "MISSING") return { written: null };
      return { skipped: ioSkip(rel, error) };
    }
    return { written: null };
  }
  if (target.kind === "symlink") return restoreLink(target.target, abs, rel, disk, realRoot, opts);
  if (target.kind !== "file") throw new Error("unreachable");
  const bytes = await target.load();
  if (!bytes) return { skipped: MISSING_BACKUP(rel) };
  const exists = disk.kind !== "absent";
  if (exists) {
    const problem = await verifiedInPlace(abs, rel);
    if (problem) return { skipped: problem };
  } else {
    const moved = await madeParent(abs, rel, realRoot);
    if (moved) return { skipped: moved };
  }
  opts.registerOwnWrite?.(rel, await hashContent(bytes));
  const mode = restoredMode(target, disk);
  try {
    // A new file gets its mode before it appears under its name (no moment as 0644 for a 0600 secret).
    await writeFileAtomic(abs, bytes, { exclusive: !exists, ...(!exists && mode !== undefined ? { mode } : {}) });
    if (mode !== undefined) await chmodNoFollow(abs, mode);
  } catch (error) {
    if (error instanceof AtomicWriteError && error.reason === "SYMLINK") return { skipped: { path: rel, reason: "symlink" } };
    return { skipped: ioSkip(rel, error) };
  }
  return { written: sha256(bytes) };
}

/** Same size and mtime as when recorded: the file has not changed since (nothing to restore). */
async function unchangedSince(abs: string, target: Extract<RestoreTarget, { kind: "unrestorable" }>): Promise<boolean> {
  if (target.size === undefined || target.mtimeMs === undefined) return false;
  try {
    const st = await fsp.lstat(abs);
    return st.size === target.size && st.mtimeMs === target.mtimeMs;
  } catch {
    return false;
  }
}

export async function restoreFiles(items: readonly RestoreItem[], opts: RestoreOptions): Promise<RestoreOutcome> {
  const out: RestoreOutcome = { changes: [], conflicts: [], skipped: [], written: [], removedFolders: [] };
  const realRoot = await fsp.realpath(opts.root);
  const emptied: string[] = [];
  for (const item of items) {
    const rel = item.path;
    const { target } = item;
    const abs = absPath(opts.root, rel);
    if (target.kind === "unrestorable") {
      if (!(await unchangedSince(abs, target))) out.skipped.push({ path: rel, reason: target.reason });
      continue;
    }
    let disk: DiskFile;
    try {
      disk = await readDiskFile(abs, opts.maxFileBytes);
    } catch (error) {
      out.skipped.push(ioSkip(rel, error));
      continue;
    }
    if (isTargetContent(target, disk)) continue;
    try {
      const writes = out.written.length;
      await restoreOne(item, abs, disk, realRoot, opts, out);
      // Deleted (not left as a conflict or skipped): its new folders may be empty now.
      if (target.kind === "absent" && out.written.length > writes) emptied.push(...newFoldersOf(rel, target.newDir));
    } catch (error) {
      // One file's failure (a backup that cannot be read) must not abort the rest: the files already
      // written would go unreported and unrecorded as ipuaro's own, and the conversation not rewound.
      out.skipped.push(ioSkip(rel, error));
    }
  }
  // After every file: a folder two deleted files shared is empty only once both are gone.
  if (emptied.length) out.removedFolders = await removeEmptyFolders(realRoot, emptied);
  return out;
}

async function restoreOne(item: RestoreItem, abs: string, disk: DiskFile, realRoot: string, opts: RestoreOptions, out: RestoreOutcome): Promise<void> {
  const rel = item.path;
  const { target } = item;
  const action: FileChange["action"] = target.kind === "absent" ? "delete" : disk.kind === "absent" ? "create" : "restore";
  let loaded: Promise<Buffer | null> | undefined;
  const load = () => (loaded ??= target.kind === "file" ? target.load() : Promise.resolve(null));
  const counts = async (): Promise<FileChange> => {
    const from = disk.kind === "file" ? disk.bytes : null;
    return { path: rel, action, ...countLineChanges(from, await load()) };
  };
  if (!item.known(disk) && opts.onConflict === "skip") {
    out.conflicts.push(await counts());
    return;
  }
  const problem = await safetyProblem(realRoot, rel, disk, target);
  if (problem) {
    out.skipped.push(problem);
    return;
  }
  // A preview must not promise a restore the backup cannot give.
  if (target.kind === "file" && (await load()) === null) {
    out.skipped.push(MISSING_BACKUP(rel));
    return;
  }
  const change = await counts();
  if (opts.dryRun) {
    out.changes.push(change);
    return;
  }
  let result;
  try {
    result = await applyOne(item, abs, disk, realRoot, opts);
  } catch (error) {
    result = { skipped: ioSkip(rel, error) };
  }
  if ("skipped" in result) out.skipped.push(result.skipped);
  else {
    out.changes.push(change);
    out.written.push([rel, result.written]);
    await opts.onWritten?.(rel, result.written);
  }
}
