// A project file as it is on disk now, read without ever following a symlink: lstat first, then open
// with O_NOFOLLOW (and O_NONBLOCK, so a FIFO swapped in cannot hang the read) and check that the
// descriptor is the very file lstat saw (same dev and ino). Hashes are the blob store's sha256 and
// git's object id (for shadow-git snapshots). A symlink is read as its target text (readlink), never
// through it.
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import fsp from "node:fs/promises";
import { symlinkHash } from "../../workers/protocol.js";

export type DiskFile =
  | { kind: "absent" }
  | { kind: "symlink"; target: string }
  | { kind: "not_regular" }
  | {
      kind: "file";
      /** null when the file is bigger than the read limit (the hashes still cover all of it). */
      bytes: Buffer | null;
      sha256: string;
      gitOid: string;
      size: number;
      mode: number;
      nlink: number;
      dev: number;
      ino: number;
      mtimeMs: number;
    };

export type RegularDiskFile = Extract<DiskFile, { kind: "file" }>;

const CHUNK = 1 << 20;
// O_NOFOLLOW is absent on Windows; there the lstat + dev/ino comparison is the only guard.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

export function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

export function isMissing(error: unknown): boolean {
  const code = errnoOf(error);
  return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * What a path holds, as one comparable value: a regular file's sha256, a symlink's target (the index's
 * stat hash of a link, `link:TARGET`), null when nothing is there; undefined for what ipuaro never
 * restores (a folder, a FIFO).
 */
export function contentId(disk: DiskFile): string | null | undefined {
  if (disk.kind === "absent") return null;
  if (disk.kind === "symlink") return symlinkHash(disk.target);
  return disk.kind === "file" ? disk.sha256 : undefined;
}

/** The symlink at `abs`, or what replaced it meanwhile. */
async function readLink(abs: string, readLimit: number): Promise<DiskFile> {
  try {
    return { kind: "symlink", target: await fsp.readlink(abs) };
  } catch (error) {
    if (isMissing(error)) return { kind: "absent" };
    if (errnoOf(error) === "EINVAL") return readDiskFile(abs, readLimit); // no longer a link
    throw error;
  }
}

/** git's object id of a blob with these bytes. */
export function gitBlobOid(bytes: Uint8Array): string {
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/** Reads `abs` (see the file comment); files over `readLimit` bytes are hashed but not kept in memory. */
export async function readDiskFile(abs: string, readLimit: number): Promise<DiskFile> {
  let st;
  try {
    st = await fsp.lstat(abs);
  } catch (error) {
    if (isMissing(error)) return { kind: "absent" };
    throw error;
  }
  if (st.isSymbolicLink()) return readLink(abs, readLimit);
  if (!st.isFile()) return { kind: "not_regular" };
  let handle;
  try {
    handle = await fsp.open(abs, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (error) {
    if (errnoOf(error) === "ELOOP") return readLink(abs, readLimit);
    if (isMissing(error)) return { kind: "absent" };
    throw error;
  }
  try {
    const fst = await handle.stat();
    // Something replaced the path between lstat and open: report what is there now, never read through it.
    if (fst.dev !== st.dev || fst.ino !== st.ino) return readDiskFile(abs, readLimit);
    if (!fst.isFile()) return { kind: "not_regular" };
    const sha = createHash("sha256");
    const git = createHash("sha1").update(`blob ${fst.size}\0`);
    const keep = fst.size <= readLimit;
    const chunks: Buffer[] = [];
    // Sized to the file (one byte more, to see its end in one read): a zeroed 1 MiB per small file was
    // most of the time of copying a few thousand small ignored files before a command.
    const buffer = Buffer.alloc(Math.min(CHUNK, fst.size + 1));
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      const part = buffer.subarray(0, bytesRead);
      sha.update(part);
      git.update(part);
      if (keep) chunks.push(Buffer.from(part));
      total += bytesRead;
    }
    // Grew or shrank while being read: git's header was wrong, recompute from what was read.
    const bytes = keep ? Buffer.concat(chunks) : null;
    const gitOid = total === fst.size ? git.digest("hex") : bytes ? gitBlobOid(bytes) : "";
    return {
      kind: "file",
      bytes,
      sha256: sha.digest("hex"),
      gitOid,
      size: total,
      mode: fst.mode & 0o7777,
      nlink: fst.nlink,
      dev: fst.dev,
      ino: fst.ino,
      mtimeMs: fst.mtimeMs,
    };
  } finally {
    await handle.close();
  }
}

/** realpath of a folder, or null when it does not exist. */
export async function realDir(dir: string): Promise<string | null> {
  try {
    return await fsp.realpath(dir);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}
