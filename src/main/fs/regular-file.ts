// Reading a file a tool names by path. Only a regular file is read: opening a FIFO for reading waits
// for a writer that may never come (it froze `ipuaro tool get_lines` and would freeze the TUI's event
// loop), and a character device such as /dev/zero never ends. So the path is lstat'ed first, and opened
// with O_NONBLOCK (a FIFO swapped in after the lstat cannot hang the open) and O_NOFOLLOW; the open
// descriptor is checked again before a byte is read. A file is read whole, so the size is capped too:
// a 600 MB log read for a few lines took 745 MB of memory, and past 2 GiB readFile throws.
import { constants, type Stats } from "node:fs";
import fsp from "node:fs/promises";

/**
 * The most a tool reads whole. Above the largest generated sources the index parses (a 41 MB client),
 * far below what a line read needs: the bytes, the decoded text and its lines take several times this.
 */
export const MAX_READ_BYTES = 64 * 1024 * 1024;

// O_NOFOLLOW and O_NONBLOCK are absent on Windows; there the lstat and the descriptor's check remain.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export type RegularFileRead =
  | { kind: "file"; bytes: Buffer }
  | { kind: "missing" }
  | { kind: "folder" }
  | { kind: "symlink" }
  /** A FIFO, socket or device: `what` names it for a message ("a FIFO (named pipe)"). */
  | { kind: "special"; what: string }
  | { kind: "too_large"; size: number; limit: number }
  /** The system refused or failed the read: `reason` says what happened (EACCES, EIO …). */
  | { kind: "unreadable"; code: string | undefined; reason: string };

/** What a non-regular entry is, in words. */
export function specialFileKind(st: Stats): string {
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  return "not a regular file";
}

function classify(st: Stats, maxBytes: number): RegularFileRead | null {
  if (st.isDirectory()) return { kind: "folder" };
  if (st.isSymbolicLink()) return { kind: "symlink" };
  if (!st.isFile()) return { kind: "special", what: specialFileKind(st) };
  if (st.size > maxBytes) return { kind: "too_large", size: st.size, limit: maxBytes };
  return null;
}

function failure(error: unknown): RegularFileRead {
  const e = error as NodeJS.ErrnoException;
  if (e?.code === "ENOENT" || e?.code === "ENOTDIR") return { kind: "missing" };
  if (e?.code === "ELOOP") return { kind: "symlink" };
  if (e?.code === "EISDIR") return { kind: "folder" };
  // ERR_FS_FILE_TOO_LARGE cannot happen here (the size is checked first); anything else is told as it is.
  return { kind: "unreadable", code: e?.code, reason: e instanceof Error ? e.message : String(error) };
}

/** Reads `abs` (a path without symlinks: it is not followed) if it is a regular file of at most `maxBytes`. */
export async function readRegularFile(abs: string, maxBytes = MAX_READ_BYTES): Promise<RegularFileRead> {
  let handle: fsp.FileHandle | undefined;
  try {
    const refused = classify(await fsp.lstat(abs), maxBytes);
    if (refused) return refused;
    handle = await fsp.open(abs, OPEN_FLAGS);
    // The path may have been replaced since the lstat: what was opened is what counts.
    const opened = classify(await handle.stat(), maxBytes);
    if (opened) return opened;
    const bytes = await handle.readFile();
    // Grew past the cap while being read (a log being written).
    if (bytes.length > maxBytes) return { kind: "too_large", size: bytes.length, limit: maxBytes };
    return { kind: "file", bytes };
  } catch (error) {
    return failure(error);
  } finally {
    await handle?.close().catch(() => {});
  }
}

