// A cross-process mutex made of one O_EXCL file holding the owner's pid. A lock whose owner is dead,
// or which is older than `staleMs`, is taken over, so a crash never leaves ipuaro stuck.
import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { IpuaroError } from "../errors.js";

export interface FileLockOptions {
  /** Give up waiting after this long. */
  timeoutMs: number;
  /** A lock older than this is considered abandoned even if its pid is alive (pid reuse). */
  staleMs: number;
}

const POLL_MS = 50;

/** true when a process with this pid exists (EPERM: exists but belongs to someone else). */
export function isPidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Returns the content written, or null when the lock is taken. */
function tryCreate(lockPath: string): string | null {
  let fd: number;
  try {
    fd = fs.openSync(lockPath, "wx", 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return null;
    throw err;
  }
  const content = `${process.pid}\n${Date.now()}\n${Math.random().toString(36).slice(2)}\n`;
  try {
    fs.writeSync(fd, content);
  } finally {
    fs.closeSync(fd);
  }
  return content;
}

interface LockHolder {
  content: string;
  pid: number | null;
  ageMs: number;
}

function readHolder(lockPath: string): LockHolder | null {
  try {
    const content = fs.readFileSync(lockPath, "utf8");
    const ageMs = Date.now() - fs.statSync(lockPath).mtimeMs;
    const pid = Number(content.split("\n")[0]);
    return { content, pid: Number.isInteger(pid) && pid > 0 ? pid : null, ageMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** A lock without a pid is a holder between open and write, a moment; one older than this never wrote it (killed, disk full). */
const UNWRITTEN_STALE_MS = 2000;

function isStale(holder: LockHolder, staleMs: number): boolean {
  if (holder.ageMs > staleMs) return true;
  if (holder.pid === null) return holder.ageMs > UNWRITTEN_STALE_MS;
  return !isPidAlive(holder.pid);
}

/** Removes a stale lock only if it still holds what we judged stale, so we don't remove a new holder's lock. */
function removeIfUnchanged(lockPath: string, content: string): void {
  try {
    if (fs.readFileSync(lockPath, "utf8") === content) fs.unlinkSync(lockPath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

export async function acquireFileLock(lockPath: string, opts: FileLockOptions): Promise<() => void> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const content = tryCreate(lockPath);
    if (content !== null) {
      let released = false;
      return () => {
        if (released) return;
        released = true;
        // Only our own lock: if we overstayed staleMs someone may have taken it over.
        removeIfUnchanged(lockPath, content);
      };
    }
    const holder = readHolder(lockPath);
    if (holder && isStale(holder, opts.staleMs)) {
      removeIfUnchanged(lockPath, holder.content);
      continue;
    }
    if (Date.now() > deadline) {
      throw new IpuaroError("redis", `Timed out waiting for ${lockPath} (held by pid ${holder?.pid ?? "?"})`, {
        suggestion: `Another ipuaro is starting or stopping Redis. If none is, delete ${lockPath} and retry.`,
      });
    }
    await sleep(POLL_MS);
  }
}

export async function withFileLock<T>(lockPath: string, opts: FileLockOptions, fn: () => Promise<T>): Promise<T> {
  const release = await acquireFileLock(lockPath, opts);
  try {
    return await fn();
  } finally {
    release();
  }
}
