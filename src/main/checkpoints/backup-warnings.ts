// What the user is told about a file a checkpoint cannot back up because it is over
// checkpoints.maxFileBytes: before the change is confirmed (the user decides knowing a rewind cannot
// undo it), or after the write when nothing was said before.
import fsp from "node:fs/promises";
import type { FileRecord } from "./checkpoint-types.js";
import { absPath } from "./file-snapshot.js";

export function tooLargeText(rel: string, size: number | undefined, maxFileBytes: number, beforeConfirm: boolean): string {
  const what = beforeConfirm ? "it is not backed up, so once this change is applied a rewind to this message cannot restore it" : "it is not backed up, and a rewind cannot restore it";
  return `${rel} is larger than checkpoints.maxFileBytes (${size ?? "?"} > ${maxFileBytes} bytes): ${what}`;
}

/**
 * The size of `rel` when this turn's checkpoint will not back it up (too large), null when it has or
 * will. `record`: the turn's record of it, if any. Throws when the file cannot be read (a new file).
 */
export async function tooLargeToBackUp(root: string, rel: string, record: FileRecord | undefined, maxFileBytes: number): Promise<number | null | undefined> {
  // Backed up (or known absent) at the turn's start or first write: a rewind restores that.
  if (record && !(record.state === "skipped" && record.reason === "too_large")) return null;
  if (record) return record.size;
  const st = await fsp.lstat(absPath(root, rel));
  return st.isFile() && st.size > maxFileBytes ? st.size : null;
}
