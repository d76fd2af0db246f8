// What a run_command / run_tests call did to the project's files. Before the command: a stat-only walk
// of the project (ignored files of kept folders included, project-walk.ts), the index's stats (size,
// mtime, hash per file), and an in-memory copy of the small ignored files (ignored-copies.ts). After it:
// a second walk. Every file created, changed or deleted joins the turn's checkpoint (if it is not there
// yet) with its content from before the command:
//   created                       → "absent" (a rewind deletes it);
//   a symlink changed or deleted  → "symlink" with its target from the walk before (a rewind makes it again);
//   changed/deleted, and the index held that very version (same size and mtime as on disk before the
//   command, bytes rebuilt to the index's hash)  → backed up from the Redis copy;
//   changed/deleted, ignored, and copied before the command → backed up from that copy;
//   an ignored one over the copy's limits → "not_copied"; anything else (a file the index does not
//   hold, or held at another version) → "not_indexed"; both listed by the rewind preview as things it
//   cannot restore.
// What the command left is not recorded as ipuaro's own write: the walks cannot tell the command's
// writes from the user's (an edit saved while `npm test` ran, a file created meanwhile), so a rewind
// lists such a file as a conflict and overwrites or deletes it only when told to. A file the command
// deleted is the exception: bringing it back loses nothing.
import path from "node:path";
import { hashContent } from "../../pipeline/watch/content-hash.js";
import type { CheckpointTracker } from "./checkpoint-tracker.js";
import type { FileRecord } from "./checkpoint-types.js";
import { contentId, readDiskFile, realDir } from "./disk-file.js";
import { absPath } from "./file-snapshot.js";
import { indexedBytes } from "./index-copy.js";
import { copyIgnoredFiles, IGNORED_COPY_FILE_BYTES, IGNORED_COPY_TOTAL_BYTES, type IgnoredCopies, type IgnoredCopy } from "./ignored-copies.js";
import { diffWalks, walkProject, type WalkEntry } from "./project-walk.js";

/** Past this many files the project is not walked around commands (a notice says so). */
export const COMMAND_WALK_LIMIT = 50_000;

export interface CommandWatch {
  /**
   * Call once the command has ended (whatever its outcome). Never throws. Returns the files the command
   * created or changed (empty when they could not be told), for the session's write-then-execute taint.
   */
  finish(): Promise<string[]>;
}

interface IndexedStat {
  size: number;
  mtimeMs: number;
  hash: string;
}

/** The copies of ignored files each tracker holds between commands (see ignored-copies.ts). */
const ignoredCopies = new WeakMap<CheckpointTracker, IgnoredCopies>();

async function fileRecord(tracker: CheckpointTracker, rel: string, pre: WalkEntry, bytes: Buffer, now: number): Promise<FileRecord> {
  const abs = absPath(tracker.root, rel);
  const blob = await tracker.blobs.put(bytes);
  const parent = (await realDir(path.dirname(abs))) ?? path.dirname(abs);
  return { state: "file", blob, mode: pre.mode, size: pre.size, mtimeMs: pre.mtimeMs, ino: pre.ino, realParentDir: parent, at: now };
}

/** An ignored file the command changed or deleted: from its pre-command copy, if it had one. */
async function ignoredRecord(tracker: CheckpointTracker, rel: string, pre: WalkEntry, copy: IgnoredCopy | undefined, now: number): Promise<FileRecord | "unchanged"> {
  if (!copy) return { state: "skipped", reason: "not_copied", size: pre.size, mtimeMs: pre.mtimeMs, at: now };
  const disk = await readDiskFile(absPath(tracker.root, rel), tracker.settings.maxFileBytes);
  if (disk.kind === "file" && disk.sha256 === copy.sha256) return "unchanged";
  return fileRecord(tracker, rel, pre, copy.bytes, now);
}

/** A symlink the command changed or deleted: its target before, unless it points there again. */
async function linkRecord(tracker: CheckpointTracker, rel: string, target: string, now: number): Promise<FileRecord | "unchanged"> {
  const abs = absPath(tracker.root, rel);
  const disk = await readDiskFile(abs, tracker.settings.maxFileBytes);
  if (disk.kind === "symlink" && disk.target === target) return "unchanged";
  const parent = await realDir(path.dirname(abs));
  return { state: "symlink", target, ...(parent ? { realParentDir: parent } : {}), at: now };
}

async function preCommandRecord(tracker: CheckpointTracker, rel: string, pre: WalkEntry, indexed: IndexedStat | undefined, copy: IgnoredCopy | undefined, now: number): Promise<FileRecord | "unchanged"> {
  if (pre.kind === "symlink" && pre.target !== undefined) return linkRecord(tracker, rel, pre.target, now);
  if (pre.kind !== "file") return { state: "skipped", reason: "not_regular", size: pre.size, mtimeMs: pre.mtimeMs, at: now };
  if (pre.size > tracker.settings.maxFileBytes) return { state: "skipped", reason: "too_large", size: pre.size, mtimeMs: pre.mtimeMs, at: now };
  if (pre.ignored) return ignoredRecord(tracker, rel, pre, copy, now);
  const index = tracker.index;
  // The index's copy is only the pre-command content if the index had caught up with the disk.
  if (!index || !indexed || indexed.size !== pre.size || indexed.mtimeMs !== Math.floor(pre.mtimeMs)) {
    return { state: "skipped", reason: "not_indexed", size: pre.size, mtimeMs: pre.mtimeMs, at: now };
  }
  const bytes = await indexedBytes(index, rel, indexed);
  if (!bytes) return { state: "skipped", reason: "not_indexed", size: pre.size, mtimeMs: pre.mtimeMs, at: now };
  const disk = await readDiskFile(absPath(tracker.root, rel), tracker.settings.maxFileBytes);
  // Touched but not changed (mtime only): nothing to track.
  if (disk.kind === "file" && disk.bytes && (await hashContent(disk.bytes)) === indexed.hash) return "unchanged";
  return fileRecord(tracker, rel, pre, bytes, now);
}

/** What is at `rel` now, as contentId names it (null: nothing). */
async function contentNow(tracker: CheckpointTracker, rel: string): Promise<string | null | undefined> {
  return contentId(await readDiskFile(absPath(tracker.root, rel), tracker.settings.maxFileBytes));
}

/** The topmost folder of `rel` the walk before the command did not find (the command made it), if any. */
function firstNewDir(rel: string, dirsBefore: ReadonlySet<string>): string | undefined {
  const parts = rel.split("/").slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const dir = parts.slice(0, i).join("/");
    if (!dirsBefore.has(dir)) return dir;
  }
  return undefined;
}

export async function startCommandWatch(tracker: CheckpointTracker, opts: { exclude: string[] }): Promise<CommandWatch | null> {
  const walk = () => walkProject(tracker.root, { ignorePatterns: tracker.ignorePatterns, limit: COMMAND_WALK_LIMIT, exclude: opts.exclude, ignoredFiles: true });
  const walked = await walk();
  if (!walked) {
    tracker.notice(`the project has more than ${COMMAND_WALK_LIMIT} files: changes made by commands are not tracked for rewind`);
    return null;
  }
  const before = walked.files;
  const indexed: Map<string, IndexedStat> = tracker.index ? await tracker.index.getAllStats() : new Map();
  const limits = { fileBytes: Math.min(IGNORED_COPY_FILE_BYTES, tracker.settings.maxFileBytes), totalBytes: IGNORED_COPY_TOTAL_BYTES };
  const copies = await copyIgnoredFiles(tracker.root, before, ignoredCopies.get(tracker) ?? new Map(), limits);
  ignoredCopies.set(tracker, copies);
  return {
    finish: () =>
      tracker.runSerial(async () => {
        try {
          const current = tracker.running;
          if (!current) return [];
          const after = await walk();
          if (!after) return [];
          const diff = diffWalks(before, after.files);
          const now = Date.now();
          const records: Array<[string, FileRecord]> = [];
          const written: Array<[string, string | null]> = [];
          for (const rel of diff.created) {
            if (rel in current.files) continue;
            const parent = await realDir(path.dirname(absPath(tracker.root, rel)));
            const newDir = firstNewDir(rel, walked.dirs);
            records.push([rel, { state: "absent", ...(parent ? { realParentDir: parent } : {}), ...(newDir ? { newDir } : {}), at: now }]);
          }
          for (const rel of [...diff.changed, ...diff.deleted]) {
            if (!(rel in current.files)) {
              const record = await preCommandRecord(tracker, rel, before.get(rel)!, indexed.get(rel), copies.get(rel), now);
              if (record === "unchanged") continue;
              records.push([rel, record]);
            }
            if ((await contentNow(tracker, rel)) === null) written.push([rel, null]);
          }
          await tracker.track(records);
          await tracker.storeWritten(written);
          return [...diff.created, ...diff.changed];
        } catch (error) {
          tracker.notice(`could not record the command's file changes (a rewind may not undo them): ${error instanceof Error ? error.message : String(error)}`);
          return [];
        }
      }),
  };
}
