// One tracked file into a checkpoint record: missing → "absent" (with the topmost of its folders that is
// missing too, so a rewind that deletes the file can remove the folders it leaves empty); a symlink →
// "symlink" with its target; another non-regular file, or one over checkpoints.maxFileBytes → "skipped"
// (with its size and mtime, so a rewind can tell it has not changed since); otherwise its bytes go to
// the blob store. A file
// untouched since its previous record (same size, mtime, inode, mode, and not modified in the moments
// before that record was made) reuses the record without being read again.
import fsp from "node:fs/promises";
import path from "node:path";
import type { BlobStore } from "./blob-store.js";
import type { FileRecord } from "./checkpoint-types.js";
import { isMissing, readDiskFile, realDir } from "./disk-file.js";

/**
 * A file modified this close to the moment it was hashed may have changed again within the same
 * mtime tick; its record is not trusted for reuse.
 */
export const MTIME_SLACK_MS = 1000;

export interface SnapshotOptions {
  root: string;
  rel: string;
  blobs: BlobStore;
  maxFileBytes: number;
  previous?: FileRecord | undefined;
  now?: number;
}

export function absPath(root: string, rel: string): string {
  return path.join(root, ...rel.split("/"));
}

/** The topmost folder of the project-relative file `rel` that does not exist (a symlink counts as existing). */
async function topMissingDir(root: string, rel: string): Promise<string | undefined> {
  const parts = rel.split("/").slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const dir = parts.slice(0, i).join("/");
    try {
      await fsp.lstat(absPath(root, dir));
    } catch (error) {
      if (isMissing(error)) return dir;
      throw error;
    }
  }
  return undefined;
}

export async function snapshotFile(opts: SnapshotOptions): Promise<FileRecord> {
  const now = opts.now ?? Date.now();
  const abs = absPath(opts.root, opts.rel);
  const parent = await realDir(path.dirname(abs)).catch(() => null);
  let st;
  try {
    st = await fsp.lstat(abs);
  } catch (error) {
    if (!isMissing(error)) throw error;
    const newDir = parent ? undefined : await topMissingDir(opts.root, opts.rel);
    return { state: "absent", ...(parent ? { realParentDir: parent } : {}), ...(newDir ? { newDir } : {}), at: now };
  }
  if (!st.isFile() && !st.isSymbolicLink()) return { state: "skipped", reason: "not_regular", size: st.size, mtimeMs: st.mtimeMs, at: now };
  if (st.isFile() && st.size > opts.maxFileBytes) return { state: "skipped", reason: "too_large", size: st.size, mtimeMs: st.mtimeMs, at: now };
  const prev = opts.previous;
  if (
    prev?.state === "file" &&
    prev.size === st.size &&
    prev.mtimeMs === st.mtimeMs &&
    prev.ino === st.ino &&
    prev.mode === (st.mode & 0o7777) &&
    prev.realParentDir === parent &&
    prev.mtimeMs < prev.at - MTIME_SLACK_MS
  ) {
    return prev;
  }
  const disk = await readDiskFile(abs, opts.maxFileBytes);
  if (disk.kind === "absent") return { state: "absent", ...(parent ? { realParentDir: parent } : {}), at: now };
  if (disk.kind === "symlink") return { state: "symlink", target: disk.target, ...(parent ? { realParentDir: parent } : {}), at: now };
  if (disk.kind !== "file") return { state: "skipped", reason: "not_regular", at: now };
  if (!disk.bytes) return { state: "skipped", reason: "too_large", size: disk.size, mtimeMs: disk.mtimeMs, at: now };
  const blob = await opts.blobs.put(disk.bytes);
  return { state: "file", blob, mode: disk.mode, size: disk.size, mtimeMs: disk.mtimeMs, ino: disk.ino, realParentDir: parent ?? path.dirname(abs), at: now };
}
