// Which files a code rewind to a checkpoint touches, and how each is judged. In tools mode every file
// the session tracks is compared with its record in the checkpoint (or its first record). A checkpoint
// with a shadow-git snapshot also covers every file the snapshot holds: the files that differ between
// it and a fresh snapshot of the work tree are restored from git's objects.
import type { BlobStore } from "./blob-store.js";
import type { CheckpointTracker } from "./checkpoint-tracker.js";
import type { CheckpointData, FileRecord, OnConflict } from "./checkpoint-types.js";
import { contentId, type DiskFile } from "./disk-file.js";
import { recordContentId } from "./outside-changes.js";
import { restoreFiles, type RestoreItem, type RestoreOptions, type RestoreOutcome, type RestoreTarget } from "./restore-files.js";
import type { ShadowGit } from "./shadow-git.js";

const GIT_REGULAR = 0o100000;
const GIT_TYPE_MASK = 0o170000;
const GIT_SYMLINK = 0o120000;

async function shadowLink(shadow: ShadowGit, oid: string): Promise<RestoreTarget> {
  const bytes = await shadow.readBlob(oid);
  return bytes ? { kind: "symlink", target: bytes.toString("utf8") } : { kind: "unrestorable", reason: "backup_failed" };
}

/** What restoring a tools-mode record means: write the blob, delete the file, or report it cannot. */
export function recordTarget(record: FileRecord, blobs: BlobStore): RestoreTarget {
  if (record.state === "skipped") {
    const since = record.size !== undefined && record.mtimeMs !== undefined ? { size: record.size, mtimeMs: record.mtimeMs } : {};
    return { kind: "unrestorable", reason: record.reason, ...since };
  }
  if (record.state === "absent") return { kind: "absent", ...(record.realParentDir ? { realParentDir: record.realParentDir } : {}), ...(record.newDir ? { newDir: record.newDir } : {}) };
  if (record.state === "symlink") return { kind: "symlink", target: record.target, ...(record.realParentDir ? { realParentDir: record.realParentDir } : {}) };
  return { kind: "file", sha256: record.blob, mode: record.mode, realParentDir: record.realParentDir, load: () => blobs.get(record.blob) };
}

/**
 * The disk holds ipuaro's last write, or what the latest checkpoint recorded, and nothing changed the
 * file outside ipuaro between the target checkpoint and the latest one (a hand edit before a later
 * message). Non-regular files are left to the safety checks.
 */
function knownTo(tracker: CheckpointTracker, checkpoint: CheckpointData, rel: string): (disk: DiskFile) => boolean {
  return (disk) => {
    if (tracker.changedOutsideSince(checkpoint, rel)) return false;
    const id = contentId(disk);
    if (id === undefined) return true;
    const written = tracker.lastWritten(rel);
    if (written !== undefined && written === id) return true;
    const latest = tracker.latestRecord(rel);
    return latest !== undefined && recordContentId(latest) === id;
  };
}

/** Per-listing cache: one fresh shadow snapshot serves every checkpoint compared against it. */
export interface PlanCache {
  shadowTree?: Promise<string>;
}

async function shadowItems(tracker: CheckpointTracker, checkpoint: CheckpointData, cache: PlanCache): Promise<{ items: RestoreItem[]; covered: Set<string> }> {
  const shadow: ShadowGit = tracker.shadowGit();
  cache.shadowTree ??= shadow.init().then(() => shadow.currentTree());
  const tree = await cache.shadowTree;
  const target = checkpoint.shadowCommit!;
  const latest = [...tracker.checkpoints()].reverse().find((c) => c.shadowCommit)?.shadowCommit ?? target;
  const [changes, sinceLatest, targetPaths, treePaths] = await Promise.all([shadow.changes(target, tree), shadow.changes(latest, tree), shadow.paths(target), shadow.paths(tree)]);
  const changedSinceLatest = new Set(sinceLatest.map((c) => c.path));
  const items: RestoreItem[] = await Promise.all(changes.map(async (c) => {
    const from = c.from;
    let t: RestoreTarget;
    // git keeps no folders, only files: which folders are new is known from ipuaro's own record, if any.
    const own = tracker.recordAt(checkpoint, c.path);
    if (!from) t = { kind: "absent", ...(own?.state === "absent" && own.newDir ? { newDir: own.newDir } : {}) };
    // A symlink's blob is its target text.
    else if ((from.mode & GIT_TYPE_MASK) === GIT_SYMLINK) t = await shadowLink(shadow, from.oid);
    else if ((from.mode & GIT_TYPE_MASK) !== GIT_REGULAR) t = { kind: "unrestorable", reason: "not_regular" };
    // git keeps only 644 or 755: the executable bit is all it knows of the mode.
    else t = { kind: "file", gitOid: from.oid, executable: (from.mode & 0o111) !== 0, load: () => shadow.readBlob(from.oid) };
    const rel = c.path;
    return {
      path: rel,
      target: t,
      known: (disk: DiskFile) => {
        if (tracker.changedOutsideSince(checkpoint, rel)) return false;
        if (!changedSinceLatest.has(rel)) return true;
        const id = contentId(disk);
        const written = tracker.lastWritten(rel);
        return id === undefined || (written !== undefined && written === id);
      },
    };
  }));
  return { items, covered: new Set([...targetPaths, ...treePaths]) };
}

/** The restore items of a rewind to `checkpoint`, tools records and shadow snapshot merged (shadow first). */
export async function restoreItems(tracker: CheckpointTracker, blobs: BlobStore, checkpoint: CheckpointData, cache: PlanCache = {}): Promise<{ items: RestoreItem[]; warnings: string[] }> {
  const warnings: string[] = [];
  let shadow: { items: RestoreItem[]; covered: Set<string> } = { items: [], covered: new Set() };
  if (checkpoint.shadowCommit) {
    try {
      shadow = await shadowItems(tracker, checkpoint, cache);
    } catch (error) {
      warnings.push(`the shadow-git snapshot could not be read (${error instanceof Error ? error.message : String(error)}); only files ipuaro tracked itself are restored`);
    }
  }
  // A command that was running when ipuaro stopped (kill -9, a crash) in a turn this rewind undoes: what
  // it changed was never recorded, so "no code changes" would be a claim nobody can make.
  for (const c of tracker.checkpoints()) {
    if (c.seq < checkpoint.seq || !c.runningCommand || c === tracker.running) continue;
    const what = c.runningCommand.command ? `\`${c.runningCommand.command.slice(0, 80)}\`` : "a command";
    warnings.push(`ipuaro stopped while ${what} was running (${new Date(c.runningCommand.at).toLocaleString("en-GB")}): the files it changed are not known, so this rewind may not undo them; check \`git status\``);
  }
  const items = [...shadow.items];
  for (const rel of tracker.trackedFiles()) {
    if (shadow.covered.has(rel)) continue;
    const record = tracker.recordAt(checkpoint, rel);
    if (!record) continue;
    items.push({ path: rel, target: recordTarget(record, blobs), known: knownTo(tracker, checkpoint, rel) });
  }
  items.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { items, warnings };
}

export async function planAndRestore(
  tracker: CheckpointTracker,
  checkpoint: CheckpointData,
  opts: Omit<RestoreOptions, "root" | "maxFileBytes"> & { onConflict: OnConflict },
  cache: PlanCache = {},
): Promise<RestoreOutcome & { warnings: string[] }> {
  const { items, warnings } = await restoreItems(tracker, tracker.blobs, checkpoint, cache);
  const outcome = await restoreFiles(items, { ...opts, root: tracker.root, maxFileBytes: tracker.settings.maxFileBytes });
  return { ...outcome, warnings };
}
