// Which files changed between two turns other than by ipuaro's own writes (a hand edit, a rename, a
// checkout before the next message). A checkpoint lists them (CheckpointData.changedOutside), and a
// rewind past that checkpoint treats them as conflicts: restoring them would throw the change away.
import { readDiskFile } from "./disk-file.js";
import type { FileRecord } from "./checkpoint-types.js";
import { absPath } from "./file-snapshot.js";
import type { ShadowGit } from "./shadow-git.js";

/** sha256 per path of what ipuaro last wrote (null: it deleted the file). */
export type LastWrites = ReadonlyMap<string, string | null>;

/**
 * Whether `now` is what ipuaro left in the file: its previous record, or ipuaro's last write of it. A
 * record without content (too large, not regular) is judged by its state and size alone.
 */
export function leftByIpuaro(rel: string, previous: FileRecord | undefined, now: FileRecord, written: LastWrites): boolean {
  if (!previous) return true;
  if (now.state === "skipped") return previous.state === "skipped" && previous.reason === now.reason && previous.size === now.size;
  const sha = now.state === "file" ? now.blob : null;
  if (sha === (previous.state === "file" ? previous.blob : previous.state === "absent" ? null : undefined)) return true;
  return written.has(rel) && written.get(rel) === sha;
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
      if ((now.kind === "absent" ? null : now.kind === "file" ? now.sha256 : undefined) === mine) continue;
    }
    out.push(rel);
  }
  return out;
}
