// Garbage collection of the file history (seed 002 §1.4). Mark: every blob any session in Redis still
// refers to. Sweep: blobs nobody refers to AND older than a day are deleted (the grace covers a blob
// written for a checkpoint that is not stored yet, and other ipuaro processes mid-turn), as are temp
// files a killed process left behind. Run by `ipuaro sessions prune` and after a session is deleted.
// When another Redis database keeps checkpoints in the same file history (store-registry.ts), no blob
// is removed: that database's references cannot be seen from here.
import fsp from "node:fs/promises";
import path from "node:path";
import { ipuaroHome } from "../config/paths.js";
import { BLOB_TEMP_MARKER, fileHistoryDir, isBlobName } from "./blob-store.js";
import { referencedBlobs } from "./checkpoint-store.js";
import type { Redis } from "./store-access.js";
import { otherStores, storeIdOf } from "./store-registry.js";

export const BLOB_GRACE_MS = 24 * 3600 * 1000;

export interface GcReport {
  removedBlobs: number;
  freedBytes: number;
  keptBlobs: number;
  keptBytes: number;
  /**
   * Marker files of other Redis databases whose checkpoints use this file history: their references
   * cannot be read from here, so nothing was removed. Delete a marker once that Redis is gone for good.
   */
  sharedWith?: string[];
}

export interface FileHistoryUsage {
  dir: string;
  blobs: number;
  blobBytes: number;
  /** shadow-git directories (checkpoints.mode "shadow-git"). */
  shadowBytes: number;
}

async function* blobFiles(blobsDir: string): AsyncGenerator<{ file: string; name: string }> {
  let shards: string[];
  try {
    shards = await fsp.readdir(blobsDir);
  } catch {
    return;
  }
  for (const shard of shards) {
    let names: string[];
    try {
      names = await fsp.readdir(path.join(blobsDir, shard));
    } catch {
      continue;
    }
    for (const name of names) yield { file: path.join(blobsDir, shard, name), name };
  }
}

export async function collectGarbage(redis: Redis, opts: { home?: string; now?: number; graceMs?: number } = {}): Promise<GcReport> {
  const home = opts.home ?? ipuaroHome();
  const blobsDir = path.join(fileHistoryDir(home), "blobs");
  const now = opts.now ?? Date.now();
  const grace = opts.graceMs ?? BLOB_GRACE_MS;
  const sharedWith = await otherStores(home, await storeIdOf(redis));
  const refs = await referencedBlobs(redis);
  const report: GcReport = { removedBlobs: 0, freedBytes: 0, keptBlobs: 0, keptBytes: 0, ...(sharedWith.length ? { sharedWith } : {}) };
  for await (const { file, name } of blobFiles(blobsDir)) {
    let st;
    try {
      st = await fsp.lstat(file);
    } catch {
      continue;
    }
    const old = now - st.mtimeMs > grace;
    const garbage = isBlobName(name) ? !sharedWith.length && !refs.has(name) && old : name.includes(BLOB_TEMP_MARKER) && old;
    if (!garbage) {
      report.keptBlobs++;
      report.keptBytes += st.size;
      continue;
    }
    try {
      await fsp.unlink(file);
      report.removedBlobs++;
      report.freedBytes += st.size;
    } catch {
      // Gone already, or not ours to delete: the next prune tries again.
    }
  }
  return report;
}

export async function folderBytes(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  let entries;
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch {
    return { files, bytes };
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      const sub = await folderBytes(p);
      files += sub.files;
      bytes += sub.bytes;
    } else if (e.isFile()) {
      try {
        bytes += (await fsp.lstat(p)).size;
        files++;
      } catch {
        // Removed meanwhile.
      }
    }
  }
  return { files, bytes };
}

/** Space the file history takes (`ipuaro doctor`). */
export async function fileHistoryUsage(home = ipuaroHome()): Promise<FileHistoryUsage> {
  const dir = fileHistoryDir(home);
  const blobs = await folderBytes(path.join(dir, "blobs"));
  const shadow = await folderBytes(path.join(dir, "shadow"));
  return { dir, blobs: blobs.files, blobBytes: blobs.bytes, shadowBytes: shadow.bytes };
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}
