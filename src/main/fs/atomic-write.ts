// Atomic replacement of a project file for ipuaro's own edits. The new content goes to a temp file in
// the same folder (O_EXCL, so nothing else's file is ever reused), is fsynced with the original's mode
// (and owner when running as root), then renamed over the target. A reader, the watcher or a crash sees
// the old file or the new one, never half of it; on any failure the temp is removed and the original is
// left as it was. rename() replaces a symlink rather than following it, and a target that already is a
// symlink is refused, so a write never lands outside the path it names. With `realParent`, the folder's
// real path is checked after the parents are made and again just before the rename or unlink: a folder of
// the path swapped for a symlink while the user decided (or while the write ran) is refused, not written
// through.
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";

export type AtomicWriteFailure = "SYMLINK" | "NOT_A_FILE" | "EXISTS" | "MISSING" | "PARENT_MOVED" | "IO";

export class AtomicWriteError extends Error {
  constructor(
    readonly reason: AtomicWriteFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "AtomicWriteError";
  }
}

/** The file-system calls the writer makes; tests swap one for a failing version. */
export interface AtomicFs {
  open: typeof fsp.open;
  rename: typeof fsp.rename;
  link: typeof fsp.link;
  unlink: typeof fsp.unlink;
  lstat: typeof fsp.lstat;
  mkdir: typeof fsp.mkdir;
  rmdir: typeof fsp.rmdir;
  realpath: typeof fsp.realpath;
}

// Looked up at call time, so a test can also spy on node:fs/promises itself.
function realFs(): AtomicFs {
  return { open: fsp.open, rename: fsp.rename, link: fsp.link, unlink: fsp.unlink, lstat: fsp.lstat, mkdir: fsp.mkdir, rmdir: fsp.rmdir, realpath: fsp.realpath };
}

export interface AtomicWriteOptions {
  /** Fail with EXISTS instead of replacing an existing target (creating a new file). */
  exclusive?: boolean;
  /** Create missing parent folders (removed again if the write fails). */
  createParents?: boolean;
  /** Permission bits of a new file (a file that is replaced keeps its own); default 0666 minus umask. */
  mode?: number;
  /** The real path the target's folder must have (see the file comment); PARENT_MOVED otherwise. */
  realParent?: string;
  fs?: Partial<AtomicFs>;
}

/** Throws PARENT_MOVED when `dir` no longer resolves to `realParent`. */
async function checkParent(fs: AtomicFs, dir: string, realParent: string | undefined): Promise<void> {
  if (realParent === undefined) return;
  let real: string;
  try {
    real = await fs.realpath(dir);
  } catch (error) {
    throw new AtomicWriteError("PARENT_MOVED", `the folder ${dir} is gone`, { cause: error });
  }
  if (real !== realParent) throw new AtomicWriteError("PARENT_MOVED", `the folder ${dir} now resolves to ${real}, not ${realParent}`);
}

/** Temp files carry this marker, so a leftover from a killed process is recognisable. */
export const TEMP_MARKER = ".ipuaro-tmp";
// Keeps `.<name>.<random>.ipuaro-tmp` under the 255-byte name limit for long file names.
const MAX_TEMP_BASE_CHARS = 100;

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

async function lstatOrNull(fs: AtomicFs, target: string) {
  try {
    return await fs.lstat(target);
  } catch (error) {
    if (errno(error) === "ENOENT") return null;
    throw new AtomicWriteError("IO", `cannot inspect ${target}: ${(error as Error).message}`, { cause: error });
  }
}

/** A hidden name beside `target` the watchers and walks know as ipuaro's own temp. */
export function tempPathFor(target: string): string {
  const base = path.basename(target).slice(0, MAX_TEMP_BASE_CHARS);
  return path.join(path.dirname(target), `.${base}.${randomBytes(6).toString("hex")}${TEMP_MARKER}`);
}

/** Best effort: makes the rename itself durable. Some file systems refuse to fsync a folder. */
async function syncFolder(fs: AtomicFs, dir: string): Promise<void> {
  try {
    const handle = await fs.open(dir, constants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Durability of the folder entry is a bonus, not a condition of the write.
  }
}

/** Removes the folders createParents made, deepest first, stopping at the first one that is not empty. */
async function removeCreatedFolders(fs: AtomicFs, dir: string, firstCreated: string | undefined): Promise<void> {
  if (!firstCreated) return;
  for (let current = dir; current.length >= firstCreated.length; current = path.dirname(current)) {
    try {
      await fs.rmdir(current);
    } catch {
      return;
    }
    if (current === firstCreated) return;
  }
}

function isRoot(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

/** Writes `data` to `target` atomically (see the file comment). Throws AtomicWriteError. */
export async function writeFileAtomic(target: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): Promise<void> {
  const fs: AtomicFs = { ...realFs(), ...opts.fs };
  const existing = await lstatOrNull(fs, target);
  if (existing?.isSymbolicLink()) throw new AtomicWriteError("SYMLINK", `${target} is a symlink; ipuaro does not write through symlinks`);
  if (existing && !existing.isFile()) throw new AtomicWriteError("NOT_A_FILE", `${target} is not a regular file`);
  if (existing && opts.exclusive) throw new AtomicWriteError("EXISTS", `${target} already exists`);

  const dir = path.dirname(target);
  let firstCreated: string | undefined;
  if (opts.createParents) {
    try {
      firstCreated = await fs.mkdir(dir, { recursive: true });
    } catch (error) {
      throw new AtomicWriteError("IO", `cannot create the folder ${dir}: ${(error as Error).message}`, { cause: error });
    }
  }

  const temp = tempPathFor(target);
  let tempCreated = false;
  try {
    await checkParent(fs, dir, opts.realParent);
    // A new file gets the usual 0666 minus umask; a replaced one gets its original mode set explicitly.
    const handle = await fs.open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, existing ? 0o600 : 0o666);
    tempCreated = true;
    try {
      await handle.writeFile(data);
      if (!existing && opts.mode !== undefined) await handle.chmod(opts.mode & 0o7777);
      if (existing) {
        // chown before chmod: changing the owner clears setuid/setgid bits.
        if (isRoot()) await handle.chown(existing.uid, existing.gid);
        await handle.chmod(existing.mode & 0o7777);
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    await checkParent(fs, dir, opts.realParent);
    if (opts.exclusive) await linkExclusive(fs, temp, target);
    else await fs.rename(temp, target);
    tempCreated = false;
  } catch (error) {
    if (tempCreated) await fs.unlink(temp).catch(() => {});
    await removeCreatedFolders(fs, dir, firstCreated);
    if (error instanceof AtomicWriteError) throw error;
    throw new AtomicWriteError("IO", `cannot write ${target}: ${(error as Error).message}`, { cause: error });
  }
  await syncFolder(fs, dir);
}

/**
 * Puts the finished temp file in place only if the target still does not exist: link() fails with
 * EEXIST instead of replacing, so a file that appeared meanwhile is never overwritten. File systems
 * without hard links fall back to a last check plus rename.
 */
async function linkExclusive(fs: AtomicFs, temp: string, target: string): Promise<void> {
  try {
    await fs.link(temp, target);
  } catch (error) {
    const code = errno(error);
    if (code === "EEXIST") throw new AtomicWriteError("EXISTS", `${target} already exists`, { cause: error });
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "ENOSYS") throw error;
    if (await lstatOrNull(fs, target)) throw new AtomicWriteError("EXISTS", `${target} already exists`);
    await fs.rename(temp, target);
    return;
  }
  // The content is in place under its name; a leftover second link to it is only clutter.
  await fs.unlink(temp).catch(() => {});
}

/** Deletes a regular file (never a symlink or a folder). unlink is atomic; the folder is fsynced after. */
export async function deleteFileAtomic(target: string, opts: Pick<AtomicWriteOptions, "fs" | "realParent"> = {}): Promise<void> {
  const fs: AtomicFs = { ...realFs(), ...opts.fs };
  await checkParent(fs, path.dirname(target), opts.realParent);
  const existing = await lstatOrNull(fs, target);
  if (!existing) throw new AtomicWriteError("MISSING", `${target} does not exist`);
  if (existing.isSymbolicLink()) throw new AtomicWriteError("SYMLINK", `${target} is a symlink; ipuaro does not delete symlinks`);
  if (!existing.isFile()) throw new AtomicWriteError("NOT_A_FILE", `${target} is not a regular file`);
  try {
    await fs.unlink(target);
  } catch (error) {
    throw new AtomicWriteError("IO", `cannot delete ${target}: ${(error as Error).message}`, { cause: error });
  }
  await syncFolder(fs, path.dirname(target));
}
