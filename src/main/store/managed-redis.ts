// ipuaro's own redis-server, used when no Redis URL is configured. One server per IPUARO_HOME, shared
// by every ipuaro process of the user: the first starts it (detached, so Ctrl+C in one terminal does not
// take it from the others), later ones reuse it, and the last to release it shuts it down (SHUTDOWN
// fsyncs the AOF).
//
// Who is a user: every connection named ipuaro:<pid> (CLIENT SETNAME) of a live process. A crashed
// process's connection disappears with it: no bookkeeping to go stale. Other clients (a redis-cli left
// open, a monitor) do not keep the server up. Start, reuse and the last-user check all run under one
// lock file, so a starter and a releaser never interleave.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import type { Redis } from "ioredis";
import { ipuaroHome } from "../config/paths.js";
import { errorMessage, IpuaroError } from "../errors.js";
import { liftAbandonedAofHold } from "./aof-rewrite-hold.js";
import { closeRedis, connectRedis, setRevive } from "./connection.js";
import { claimed, startedUnclaimed } from "./unclaimed-servers.js";
import { logSince, logTail, managedRedisConf, managedRedisLayout, rotateLog, type ManagedRedisLayout } from "./managed-redis-layout.js";
import { aofRepairSuggestion, isAofLoadFailure } from "./aof-repair-hint.js";
import { isPidAlive, withFileLock } from "./process-lock.js";
import { probeRedisSocket } from "./socket-probe.js";
import { processIdIn } from "./server-stats.js";

export interface ManagedRedisOptions {
  /** Defaults to ipuaroHome() (IPUARO_HOME, else ~/.local/share/ipuaro). */
  home?: string;
  /** Defaults to $IPUARO_REDIS_SERVER, else `redis-server` from PATH. */
  redisServerBin?: string;
  /** Start-up includes loading the AOF, which takes a while for big indexes. */
  startTimeoutMs?: number;
  db?: number;
}

export interface ManagedRedisInfo {
  pid: number;
  socketPath: string;
  dataDir: string;
  logFile: string;
  /** This acquire spawned the server (false: reused one already running). */
  started: boolean;
}

export interface RedisHandle {
  redis: Redis;
  /** Closes this user's connection; the last user of a managed server also shuts the server down. */
  release(): Promise<void>;
  /** For status lines and messages: the URL or socket in use. */
  description: string;
  /** Set when the server is ipuaro's own. */
  managed: ManagedRedisInfo | null;
}

const DEFAULT_START_TIMEOUT_MS = 60_000;
const SHUTDOWN_TIMEOUT_MS = 15_000;
const POLL_MS = 50;

export const REDIS_INSTALL_SUGGESTION =
  "Install Redis (`sudo apt-get install redis-server` on Debian/Ubuntu, `brew install redis` on macOS), " +
  "set IPUARO_REDIS_SERVER to the redis-server binary, or point ipuaro at a running Redis with " +
  "IPUARO_REDIS_URL=redis://host:port (or redis.url in the config).";

function lockOptions(startTimeoutMs: number) {
  // A starter may hold the lock for the whole start-up; waiters must outlast it.
  return { timeoutMs: startTimeoutMs + 15_000, staleMs: startTimeoutMs * 2 + 30_000 };
}

function readPid(file: string): number | null {
  try {
    const pid = Number(fs.readFileSync(file, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Before signalling a pid from a pidfile, make sure it was not reused by an unrelated process. */
function isRedisProcess(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("redis");
  } catch {
    // No procfs (macOS): ask ps. If that fails too, never signal a process we cannot identify.
    try {
      return execFileSync("ps", ["-p", String(pid), "-o", "command="], { encoding: "utf8", timeout: 2000 }).includes("redis");
    } catch {
      return false;
    }
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isPidAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(POLL_MS);
  }
  return true;
}

async function waitForReady(socketPath: string, timeoutMs: number, stillAlive: () => boolean): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await probeRedisSocket(socketPath)) === "ready") return true;
    if (!stillAlive()) return false;
    await sleep(POLL_MS);
  }
  return false;
}

/**
 * true when a server answers on the socket (waiting for it to finish loading). Otherwise clears what a
 * dead or unreachable server left behind: stops it if it is alive but unreachable, removes pidfile and
 * socket file.
 */
async function findOrClearServer(layout: ManagedRedisLayout, timeoutMs: number): Promise<boolean> {
  const socketExists = fs.existsSync(layout.socketPath);
  const probe = socketExists ? await probeRedisSocket(layout.socketPath) : "down";
  if (probe === "ready") return true;
  if (probe === "loading") {
    // Started by another ipuaro (possibly one that died meanwhile) and still reading its AOF.
    if (await waitForReady(layout.socketPath, timeoutMs, () => true)) return true;
    throw new IpuaroError("redis", `ipuaro's redis-server on ${layout.socketPath} is still loading its data after ${timeoutMs} ms`, {
      suggestion: `Wait and retry; progress is in ${layout.logFile}.`,
    });
  }
  const pid = readPid(layout.pidFile);
  const alive = pid !== null && isPidAlive(pid) && isRedisProcess(pid);
  // A server that is alive but briefly not answering (busy) gets a few seconds before it is stopped.
  if (alive && socketExists && (await waitForReady(layout.socketPath, 3000, () => isPidAlive(pid)))) return true;
  if (alive) {
    // Alive but unreachable (socket removed by a temp cleaner, or hung): SIGTERM still fsyncs the AOF.
    process.kill(pid, "SIGTERM");
    if (!(await waitForExit(pid, SHUTDOWN_TIMEOUT_MS))) {
      throw new IpuaroError("redis", `ipuaro's redis-server (pid ${pid}) does not answer on ${layout.socketPath} and did not stop`, {
        suggestion: `Stop it (kill ${pid}) and retry.`,
      });
    }
  }
  fs.rmSync(layout.pidFile, { force: true });
  fs.rmSync(layout.socketPath, { force: true });
  return false;
}

/** null once the process runs; the spawn error (ENOENT, EACCES) otherwise. */
function spawnOutcome(child: ChildProcess): Promise<NodeJS.ErrnoException | null> {
  return new Promise((resolve) => {
    child.once("spawn", () => resolve(null));
    child.once("error", (err) => resolve(err));
  });
}

async function spawnServer(bin: string, layout: ManagedRedisLayout): Promise<ChildProcess> {
  fs.writeFileSync(layout.confFile, managedRedisConf(layout), { mode: 0o600 });
  // Errors before redis opens its logfile (bad config, missing libs) go to stderr: same file.
  const logFd = fs.openSync(layout.logFile, "a", 0o600);
  try {
    const child = spawn(bin, [layout.confFile], { cwd: layout.dataDir, detached: true, stdio: ["ignore", logFd, logFd] });
    const err = await spawnOutcome(child);
    if (err) {
      const missing = err?.code === "ENOENT";
      throw new IpuaroError(
        "redis",
        missing ? `redis-server not found (tried "${bin}"): ipuaro needs it to store its index` : `Cannot run ${bin}: ${errorMessage(err)}`,
        { recoverable: false, suggestion: REDIS_INSTALL_SUGGESTION, cause: err },
      );
    }
    // Keep a listener so a later spawn error can't surface as an unhandled 'error' event.
    child.on("error", () => {});
    child.unref();
    return child;
  } finally {
    fs.closeSync(logFd);
  }
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** Starts the server; until a connection of this process claims it, it is stopped if the process ends (unclaimed-servers.ts). */
async function startServer(bin: string, layout: ManagedRedisLayout, timeoutMs: number): Promise<void> {
  rotateLog(layout.logFile);
  const logStart = fileSize(layout.logFile);
  const child = await spawnServer(bin, layout);
  if (child.pid !== undefined) startedUnclaimed(child.pid);
  let exited: string | null = null;
  child.once("exit", (code, signal) => {
    exited = signal ? `signal ${signal}` : `exit code ${code}`;
  });
  const ready = await waitForReady(layout.socketPath, timeoutMs, () => exited === null);
  if (ready) return;
  if (child.pid !== undefined) claimed(child.pid);
  if (exited === null && child.pid !== undefined) {
    process.kill(child.pid, "SIGTERM");
    await waitForExit(child.pid, 5000);
  }
  const why = exited !== null ? `it stopped with ${exited}` : `it did not answer PING within ${timeoutMs} ms`;
  const damagedAof = exited !== null && isAofLoadFailure(logSince(layout.logFile, logStart) ?? "");
  const what = damagedAof ? `${why} because its append-only file is damaged` : why;
  throw new IpuaroError("redis", `ipuaro's redis-server failed to start: ${what}. Last log lines (${layout.logFile}):\n${logTail(layout.logFile, 12, logStart)}`, {
    recoverable: !damagedAof,
    suggestion: damagedAof
      ? aofRepairSuggestion(layout.dataDir, bin)
      : "Fix the problem shown in the log, or point ipuaro at another Redis with IPUARO_REDIS_URL.",
  });
}

async function serverPid(redis: Redis): Promise<number> {
  return processIdIn(await redis.info("server"));
}

/** What ipuaro names its connections (CLIENT SETNAME); aof-rewrite-hold.ts may append a suffix. */
export function ipuaroConnectionName(pid = process.pid): string {
  return `ipuaro:${pid}`;
}

const IPUARO_NAME = /(?:^| )name=ipuaro:(\d+)(?::\S*)?(?: |$)/;

/**
 * Other ipuaro users of the server: connections named ipuaro:<pid> of a live process, other than
 * `redis`'s own. A redis-cli left open or a monitoring client is no user: counted, it kept the server
 * running for good. A named connection of a dead process (not yet noticed by the server) is none either.
 */
export async function otherIpuaroClientCount(redis: Redis): Promise<number> {
  const ownId = String(await redis.client("ID"));
  const list = String(await redis.client("LIST"));
  return list.split("\n").filter((line) => {
    if (!line.startsWith("id=") || line.startsWith(`id=${ownId} `)) return false;
    const pid = IPUARO_NAME.exec(line)?.[1];
    return pid !== undefined && isPidAlive(Number(pid));
  }).length;
}

async function shutdownServer(redis: Redis, pid: number): Promise<void> {
  // The server closes the connection instead of replying; don't wait on the reply.
  redis.call("SHUTDOWN").catch(() => {});
  const stopped = await waitForExit(pid, SHUTDOWN_TIMEOUT_MS);
  redis.disconnect();
  if (!stopped && isRedisProcess(pid)) process.kill(pid, "SIGTERM");
}

function managedSetup(opts: ManagedRedisOptions) {
  const layout = managedRedisLayout(opts.home ?? ipuaroHome());
  const bin = opts.redisServerBin ?? (process.env.IPUARO_REDIS_SERVER || "redis-server");
  const timeoutMs = opts.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  return { layout, bin, timeoutMs, locking: lockOptions(timeoutMs) };
}

/** Early starts this process made, by lock file (see startManagedRedisEarly). */
const earlyStarts = new Map<string, Promise<void>>();

/**
 * Starts ipuaro's redis-server when none runs, without connecting, and returns at once: the server
 * starts and reads its data (≈ 0.25 s for a 12K-file index) in its own process while this one loads the
 * rest of itself. acquireManagedRedis then finds it running. A failure is left for acquireManagedRedis,
 * which meets it again and reports it.
 */
export function startManagedRedisEarly(opts: Omit<ManagedRedisOptions, "db"> = {}): void {
  const { layout, bin, timeoutMs, locking } = managedSetup(opts);
  if (earlyStarts.has(layout.lockFile)) return;
  const starting = withFileLock(layout.lockFile, locking, async () => {
    if (!(await findOrClearServer(layout, timeoutMs))) await startServer(bin, layout, timeoutMs);
  });
  earlyStarts.set(
    layout.lockFile,
    starting.catch(() => {}),
  );
}

export async function acquireManagedRedis(opts: ManagedRedisOptions = {}): Promise<RedisHandle> {
  const { layout, bin, timeoutMs, locking } = managedSetup(opts);
  // An early start holds the lock until its server answers: waited for here, not polled for (50 ms steps).
  await earlyStarts.get(layout.lockFile);

  // Connect while holding the lock, so a releaser checking for other users already sees us.
  const { redis, pid, started } = await withFileLock(layout.lockFile, locking, async () => {
    const running = await findOrClearServer(layout, timeoutMs);
    if (!running) await startServer(bin, layout, timeoutMs);
    const redis = await connectRedis({ url: layout.socketPath, db: opts.db ?? 0, connectionName: ipuaroConnectionName(), managedLogFile: layout.logFile });
    // An index run that died while holding off AOF rewrites left them off (aof-rewrite-hold.ts).
    if (running) await liftAbandonedAofHold(redis).catch(() => false);
    return { redis, pid: await serverPid(redis), started: !running };
  });
  claimed(pid);
  setRevive(redis, () =>
    withFileLock(layout.lockFile, locking, async () => {
      if (!(await findOrClearServer(layout, timeoutMs))) await startServer(bin, layout, timeoutMs);
      // The connection being revived takes it over at once.
      const revived = readPid(layout.pidFile);
      if (revived !== null) claimed(revived);
    }),
  );

  let releasing: Promise<void> | null = null;
  const release = (): Promise<void> => {
    releasing ??= withFileLock(layout.lockFile, locking, async () => {
      let others: number;
      let currentPid: number;
      try {
        others = await otherIpuaroClientCount(redis);
        // Asked again: the client may have reconnected to a server restarted by another ipuaro.
        currentPid = await serverPid(redis);
      } catch {
        redis.disconnect(); // the server is already gone
        return;
      }
      if (others > 0) await closeRedis(redis);
      else await shutdownServer(redis, currentPid || pid);
    });
    return releasing;
  };

  return {
    redis,
    release,
    description: `ipuaro's redis-server (${layout.socketPath})`,
    managed: { pid, socketPath: layout.socketPath, dataDir: layout.dataDir, logFile: layout.logFile, started },
  };
}
