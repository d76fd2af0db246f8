// Which files changed between two turns other than by ipuaro's own writes (a hand edit, a rename, a
// checkout before the next message). A checkpoint lists them (CheckpointData.changedOutside), and a
// rewind past that checkpoint treats them as conflicts: restoring them would throw the change away.
import { contentId, readDiskFile } from "./disk-file.js";
import type { FileRecord } from "./checkpoint-types.js";
import { absPath } from "./file-snapshot.js";
import type { ShadowGit } from "./shadow-git.js";
import { symlinkHash } from "../../workers/protocol.js";

/** What ipuaro last wrote per path, as contentId names it (sha256, `link:TARGET`; null: it deleted the file). */
export type LastWrites = ReadonlyMap<string, string | null>;

/** A record's content as disk-file.ts's contentId names it (undefined: a record without content). */
export function recordContentId(record: FileRecord): string | null | undefined {
  if (record.state === "file") return record.blob;
  if (record.state === "symlink") return symlinkHash(record.target);
  return record.state === "absent" ? null : undefined;
}

/**
 * Whether `now` is what ipuaro left in the file: its previous record, or ipuaro's last write of it. A
 * record without content (too large, not regular) is judged by its state and size alone.
 */
export function leftByIpuaro(rel: string, previous: FileRecord | undefined, now: FileRecord, written: LastWrites): boolean {
  if (!previous) return true;
  if (now.state === "skipped") return previous.state === "skipped" && previous.reason === now.reason && previous.size === now.size;
  const id = recordContentId(now);
  if (id === recordContentId(previous)) return true;
  return written.has(rel) && written.get(rel) === id;
}

/**
 * Files of the project (beyond the tracked ones, judged by their records) that changed between the
 * previous shadow snapshot and this one other than by ipuaro's own last write.
 */
export async function shadowChangedOutside(
  shadow: ShadowGit,
  snapshots: { previous: string; now: string },
  tracked: Record<string, FileRecord>,
  written: LastWrites,
  disk: { root: string; maxFileBytes: number },
): Promise<string[]> {
  const out: string[] = [];
  for (const change of await shadow.changes(snapshots.previous, snapshots.now)) {
    const rel = change.path;
    if (rel in tracked) continue;
    const mine = written.get(rel);
    if (mine !== undefined) {
      const now = await readDiskFile(absPath(disk.root, rel), disk.maxFileBytes);
      if (contentId(now) === mine) continue;
    }
    out.push(rel);
  }
  return out;
}
