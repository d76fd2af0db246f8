// Where ipuaro's own redis-server keeps its files, and the redis.conf it runs with.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { IpuaroError } from "../errors.js";

export interface ManagedRedisLayout {
  home: string;
  /** `$IPUARO_HOME/redis`: AOF directory, redis.conf, redis.log, redis.pid, start.lock. */
  dataDir: string;
  /** 0700 directory holding only the socket. */
  socketDir: string;
  socketPath: string;
  pidFile: string;
  confFile: string;
  logFile: string;
  lockFile: string;
}

/**
 * sun_path holds 108 bytes on Linux and 104 on macOS, both including the NUL; 100 leaves margin.
 */
const MAX_SOCKET_PATH = 100;

function currentUid(): number | null {
  return typeof process.getuid === "function" ? process.getuid() : null;
}

/**
 * `mkdir -p`, one level at a time: Node's recursive mkdir never returns under /proc (it keeps meeting
 * ENOENT and retrying), so IPUARO_HOME=/proc/x hung instead of failing.
 */
function makeDirs(dir: string, mode: number): void {
  const missing: string[] = [];
  for (let d = path.resolve(dir); !fs.existsSync(d) && path.dirname(d) !== d; d = path.dirname(d)) missing.push(d);
  for (const d of missing.reverse()) {
    try {
      fs.mkdirSync(d, { mode });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
}

/** A folder ipuaro needs for its Redis could not be made: what, why, and the two ways out. */
function unusableDir(dir: string, err: unknown): IpuaroError {
  const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  return new IpuaroError("config", `cannot create ${dir} for ipuaro's own Redis (${reason})`, {
    recoverable: false,
    suggestion: "Set IPUARO_HOME to a folder you can write to, or IPUARO_REDIS_URL to a Redis of your own.",
  });
}

/** Creates `dir` as 0700 and refuses one that another user owns (a planted socket dir in /tmp). */
export function ensurePrivateDir(dir: string): void {
  try {
    makeDirs(dir, 0o700);
  } catch (err) {
    throw unusableDir(dir, err);
  }
  const st = fs.lstatSync(dir);
  if (!st.isDirectory()) {
    throw new IpuaroError("redis", `${dir} exists but is not a directory`, {
      recoverable: false,
      suggestion: `Remove ${dir} or point IPUARO_HOME elsewhere.`,
    });
  }
  const uid = currentUid();
  if (uid !== null && st.uid !== uid) {
    throw new IpuaroError("redis", `${dir} belongs to another user (uid ${st.uid}); ipuaro will not put its Redis socket there`, {
      recoverable: false,
      suggestion: `Remove ${dir} or set IPUARO_HOME to a directory of your own.`,
    });
  }
  if ((st.mode & 0o777) !== 0o700) fs.chmodSync(dir, 0o700);
}

/** Computes the paths and creates the directories (data dir and socket dir, both 0700). */
export function managedRedisLayout(home: string): ManagedRedisLayout {
  try {
    makeDirs(home, 0o700);
  } catch (err) {
    throw unusableDir(home, err);
  }
  const realHome = fs.realpathSync(home);
  const dataDir = path.join(realHome, "redis");
  let socketDir = path.join(realHome, "run");
  if (path.join(socketDir, "redis.sock").length > MAX_SOCKET_PATH) {
    // A deep IPUARO_HOME would overflow sun_path and bind() would fail. The fallback lives in the
    // temp dir under a name derived from the home, so every ipuaro using this home finds the same socket;
    // ensurePrivateDir makes sure the directory is ours and 0700 since /tmp is shared.
    const digest = createHash("sha1").update(realHome).digest("hex").slice(0, 12);
    const tmp = os.tmpdir().length < 60 ? os.tmpdir() : "/tmp";
    socketDir = path.join(tmp, `ipuaro-${currentUid() ?? "u"}-${digest}`);
  }
  ensurePrivateDir(dataDir);
  ensurePrivateDir(socketDir);
  return {
    home: realHome,
    dataDir,
    socketDir,
    socketPath: path.join(socketDir, "redis.sock"),
    pidFile: path.join(dataDir, "redis.pid"),
    confFile: path.join(dataDir, "redis.conf"),
    logFile: path.join(dataDir, "redis.log"),
    lockFile: path.join(dataDir, "start.lock"),
  };
}

/** A value for redis.conf: double-quoted with the escapes its parser (sdssplitargs) understands. */
function confString(value: string): string {
  const escaped = value.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
  return `"${escaped}"`;
}

/** auto-aof-rewrite-percentage of ipuaro's own server; an index run holds rewrites off (aof-rewrite-hold.ts). */
export const MANAGED_AOF_REWRITE_PERCENTAGE = 100;

export function managedRedisConf(layout: ManagedRedisLayout): string {
  return [
    "# Written by ipuaro on every start of its own redis-server; edits here are overwritten.",
    "daemonize no",
    "port 0",
    `unixsocket ${confString(layout.socketPath)}`,
    "unixsocketperm 700",
    `dir ${confString(layout.dataDir)}`,
    `pidfile ${confString(layout.pidFile)}`,
    `logfile ${confString(layout.logFile)}`,
    "loglevel notice",
    "always-show-logo no",
    'save ""',
    "appendonly yes",
    "appendfsync everysec",
    `auto-aof-rewrite-percentage ${MANAGED_AOF_REWRITE_PERCENTAGE}`,
    "auto-aof-rewrite-min-size 64mb",
    "",
  ].join("\n");
}

/** What the log holds from byte `since` on, at most its last `maxBytes`; null when there is no log. */
export function logSince(logFile: string, since = 0, maxBytes = 64 * 1024): string | null {
  try {
    const fd = fs.openSync(logFile, "r");
    try {
      const size = fs.fstatSync(fd).size;
      const length = Math.min(Math.max(0, size - since), maxBytes);
      const buf = Buffer.alloc(length);
      fs.readSync(fd, buf, 0, length, size - length);
      return buf.toString("utf8");
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
}

/** The log's last lines, only from byte `since` on (what this start wrote, not an earlier run's). */
export function logTail(logFile: string, lines = 12, since = 0): string {
  const text = logSince(logFile, since, 4096);
  if (text === null) return "(no log)";
  if (text.length === 0) return "(it wrote nothing to its log)";
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}

/** redis.log is moved aside at a start once it is past this size. */
export const MAX_LOG_BYTES = 5 * 1024 * 1024;

/**
 * redis.log over `maxBytes` becomes redis.log.1 (replacing the one before): redis appends to it for as
 * long as the home is used, and nothing else trims it. Called before a start, when no server writes it.
 */
export function rotateLog(logFile: string, maxBytes = MAX_LOG_BYTES): boolean {
  try {
    if (fs.statSync(logFile).size <= maxBytes) return false;
    fs.renameSync(logFile, `${logFile}.1`);
    return true;
  } catch {
    // No log yet, or it cannot be moved: redis appends to it as before.
    return false;
  }
}
