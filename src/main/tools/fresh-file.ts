// The index's copy of a file, checked against the disk before a read tool serves it. Without a watcher
// (`ipuaro run`), or before the watcher has caught up, a file that a command (a formatter, `sed -i`) or
// another program just rewrote would be served as it was, and every edit of it refused as stale.
import fsp from "node:fs/promises";
import { hashContent } from "../../pipeline/watch/content-hash.js";
import { readRegularFile } from "../fs/regular-file.js";
import type { StoredFile } from "../store/stored-values.js";
import type { ToolContext } from "./tool-types.js";

/** Whether the disk still holds what `stored` describes: same size and mtime, or (touched) the same bytes. */
async function matchesDisk(stored: Exclude<StoredFile, { kind: "symlink" }>, abs: string): Promise<boolean> {
  let size: number;
  let mtime: number;
  try {
    const st = await fsp.lstat(abs);
    if (!st.isFile()) return false;
    size = st.size;
    mtime = Math.floor(st.mtimeMs);
  } catch {
    return false;
  }
  if (size === stored.size && mtime === stored.lastModified) return true;
  if (size !== stored.size) return false;
  // Through readRegularFile: a FIFO swapped in after the lstat is not opened for a blocking read.
  const read = await readRegularFile(abs);
  return read.kind === "file" && (await hashContent(read.bytes)) === stored.hash;
}

/** The stored file (null when the index has none), brought up to date first when the disk differs. */
export async function freshStoredFile(ctx: Pick<ToolContext, "store" | "services">, rel: string, abs: string): Promise<StoredFile | null> {
  const stored = await ctx.store.getFile(rel);
  if (!stored || stored.kind === "symlink" || (await matchesDisk(stored, abs))) return stored;
  await ctx.services.refreshIndex([rel]);
  return ctx.store.getFile(rel);
}
