// The copy of ignored files taken before each command. Ignored files in kept folders (`.env`, `*.log`
// next to the code) are not in the index, so Redis holds no copy a rewind could bring them back from
// once a command changed or deleted them. Before a command the small ones are read into memory; only
// those the command then changed or deleted go to the blob store (command-tracking.ts), so a secret in
// `.env` reaches the file history only when a command touched it. Copies are kept between commands and
// reused while the file's stat is unchanged: an idle `.env` is read once a session, not once a command.
//
// Limits: run_command runs often, and ignored files are typically logs, local databases and caches that
// can be big and change all the time. A file over IGNORED_COPY_FILE_BYTES (or checkpoints.maxFileBytes
// when lower) is not copied: ignored files that size are logs and build artefacts, and their read would
// be paid before every command that follows a change to them. All copies together are held to
// IGNORED_COPY_TOTAL_BYTES, smallest first (a `.env` is never crowded out by a log): that bounds the
// memory kept between commands and the bytes read before one. A file left out is recorded as
// "not_copied" when a command changes it, and the rewind preview names it as not restorable.
import type { WalkEntry } from "./project-walk.js";
import { readDiskFile } from "./disk-file.js";
import { absPath, MTIME_SLACK_MS } from "./file-snapshot.js";

export const IGNORED_COPY_FILE_BYTES = 1024 * 1024;
export const IGNORED_COPY_TOTAL_BYTES = 8 * 1024 * 1024;
const READ_CONCURRENCY = 8;

export interface IgnoredCopy {
  entry: WalkEntry;
  bytes: Buffer;
  sha256: string;
  copiedAt: number;
}

/** project-relative path → its content just before the command. */
export type IgnoredCopies = Map<string, IgnoredCopy>;

export interface CopyLimits {
  fileBytes: number;
  totalBytes: number;
}

function sameStat(a: WalkEntry, b: WalkEntry): boolean {
  return a.kind === b.kind && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino && a.mode === b.mode;
}

/**
 * Copies of the ignored regular files of `files` within `limits`, reusing `previous` copies of files
 * untouched since (see MTIME_SLACK_MS: a file modified in the moments before it was copied may have
 * changed again within the same mtime tick, so it is read again). Never throws: a file that cannot be
 * read is left out (and so is "not_copied" if a command changes it).
 */
export async function copyIgnoredFiles(root: string, files: ReadonlyMap<string, WalkEntry>, previous: IgnoredCopies, limits: CopyLimits): Promise<IgnoredCopies> {
  const candidates = [...files].filter(([, e]) => e.ignored && e.kind === "file" && e.size <= limits.fileBytes);
  candidates.sort(([ra, a], [rb, b]) => a.size - b.size || (ra < rb ? -1 : ra > rb ? 1 : 0));
  const out: IgnoredCopies = new Map();
  const toRead: Array<[string, WalkEntry]> = [];
  let total = 0;
  for (const [rel, entry] of candidates) {
    // Sorted by size: once one does not fit, none of the rest does.
    if (total + entry.size > limits.totalBytes) break;
    total += entry.size;
    const kept = previous.get(rel);
    if (kept && sameStat(kept.entry, entry) && entry.mtimeMs < kept.copiedAt - MTIME_SLACK_MS) out.set(rel, kept);
    else toRead.push([rel, entry]);
  }
  // A few reads at a time: the first command in a project with 2,000 small logs waited half as long.
  for (let i = 0; i < toRead.length; i += READ_CONCURRENCY) {
    await Promise.all(toRead.slice(i, i + READ_CONCURRENCY).map(async ([rel, entry]) => {
      const copy = await readCopy(root, rel, entry, limits.fileBytes);
      if (copy) out.set(rel, copy);
    }));
  }
  return out;
}

async function readCopy(root: string, rel: string, entry: WalkEntry, readLimit: number): Promise<IgnoredCopy | null> {
  try {
    const copiedAt = Date.now();
    const disk = await readDiskFile(absPath(root, rel), readLimit);
    // Changed between the walk and the read: the walk's stat would not describe this copy.
    if (disk.kind !== "file" || !disk.bytes || disk.size !== entry.size || disk.mtimeMs !== entry.mtimeMs || disk.ino !== entry.ino) return null;
    return { entry, bytes: disk.bytes, sha256: disk.sha256, copiedAt };
  } catch {
    // Unreadable (permissions, gone meanwhile): not copied.
    return null;
  }
}
