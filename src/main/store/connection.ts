// Opens ioredis connections that fail fast and never crash the process: every client gets an `error`
// listener, a retry strategy that gives up after a few seconds, a bound on how long a server may stay
// silent (silent-server.ts), and every failure reaching callers is an IpuaroError('redis') naming the
// server that was tried.
import { Redis } from "ioredis";
import { errorMessage, IpuaroError } from "../errors.js";
import { handshakeProblem } from "./handshake-errors.js";
import { resolveRedisTarget, type RedisTarget } from "./redis-target.js";
import { ANSWER_TIMEOUT_MS, isSilenceError, seconds, silentServerSuggestion, whileConnecting } from "./silent-server.js";

export { resolveRedisTarget, type RedisTarget, type ResolvedTarget } from "./redis-target.js";

export interface ConnectOptions extends RedisTarget {
  /** Shown in CLIENT LIST; the managed server uses it to tell its users apart. */
  connectionName?: string;
  /** Per-command client-side timeout. Off by default: one HSET of a big batch may legitimately take a while. */
  commandTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** The server is ipuaro's own (managed-redis.ts), logging here: errors say so instead of naming URLs. */
  managedLogFile?: string;
}

/** After this many failed reconnects (≈3 s in all) the client gives up and commands reject. */
const RECONNECT_ATTEMPTS = 8;
const DEFAULT_CONNECT_TIMEOUT_MS = 3000;

interface ConnectionState {
  description: string;
  socketPath: string | null;
  lastError: Error | null;
  /** lastError is the server's silence: the bound (ms) it outlasted. */
  silentMs: number | null;
  managedLogFile?: string;
  /** ipuaro's own server: starts it again if it is gone, before a reconnect (see setRevive). */
  revive?: () => Promise<void>;
}

const states = new WeakMap<Redis, ConnectionState>();

function connectionSuggestion(state: Pick<ConnectionState, "socketPath" | "description" | "managedLogFile">): string {
  if (state.managedLogFile) {
    return `ipuaro's own redis-server stopped (its log: ${state.managedLogFile}). Retry, or run the command again: ipuaro starts it again, and what it had stored is kept in its AOF.`;
  }
  if (state.socketPath) {
    return `Check that redis-server is running with unixsocket ${state.socketPath}, or unset IPUARO_REDIS_URL / redis.url so ipuaro starts its own redis-server.`;
  }
  return `Start Redis at ${state.description} (e.g. \`redis-server\`), fix redis.url / IPUARO_REDIS_URL, or unset them so ipuaro starts its own redis-server.`;
}

function isReplyError(err: unknown): err is Error {
  return err instanceof Error && err.name === "ReplyError";
}

/** Maps anything a Redis call threw into IpuaroError('redis'); IpuaroErrors pass through. */
export function toRedisError(err: unknown, redis: Redis | null, action: string): IpuaroError {
  if (err instanceof IpuaroError) return err;
  const state = redis ? states.get(redis) : undefined;
  const where = state?.description ?? "Redis";
  if (state?.silentMs && !isReplyError(err)) {
    return new IpuaroError("redis", `Redis at ${where} stopped answering while ${action}: no reply within ${seconds(state.silentMs)}`, {
      cause: err,
      suggestion: silentServerSuggestion(state),
    });
  }
  const problem = state && handshakeProblem(err, state);
  if (problem) return new IpuaroError("redis", `${problem.message} (while ${action})`, { cause: err, suggestion: problem.suggestion });
  if (isReplyError(err)) {
    const msg = err.message;
    let suggestion: string | undefined;
    if (/^OOM/.test(msg)) suggestion = "Redis is out of memory: raise its maxmemory or free space, then retry.";
    else if (/^LOADING/.test(msg)) suggestion = "Redis is still loading its data from disk; retry in a moment.";
    return new IpuaroError("redis", `Redis at ${where} refused ${action}: ${msg}`, {
      cause: err,
      ...(suggestion ? { suggestion } : {}),
    });
  }
  // The error the client hands back ("Connection is closed.", its retry limit) says little; the socket
  // error seen by the `error` listener (ECONNREFUSED, ENOENT …) says why.
  const clientSide = err instanceof Error && (err.name === "MaxRetriesPerRequestError" || err.message === "Connection is closed.");
  const socketProblem = clientSide && state ? handshakeProblem(state.lastError, state) : null;
  if (socketProblem) return new IpuaroError("redis", `${socketProblem.message} (while ${action})`, { cause: err, suggestion: socketProblem.suggestion });
  const detail = state?.lastError ? (clientSide ? state.lastError.message : `${errorMessage(err)} (${state.lastError.message})`) : errorMessage(err);
  return new IpuaroError("redis", `Lost connection to Redis at ${where} while ${action}: ${detail}`, {
    cause: err,
    suggestion: state ? connectionSuggestion(state) : "Check that the Redis server is running, then retry.",
  });
}

/**
 * Runs one store operation, converting every failure into a typed redis error. With ipuaro's own server,
 * a lost connection first brings the server back (setRevive) and runs the operation once more: a
 * server killed under a running TUI or watcher does not fail every later operation.
 */
export async function redisOp<T>(redis: Redis, action: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!isReplyError(err) && !(err instanceof IpuaroError) && states.get(redis)?.revive) {
      try {
        await reconnectRedis(redis);
        return await fn();
      } catch {
        // Still down: the first failure is the one to report.
      }
    }
    throw toRedisError(err, redis, action);
  }
}

export function describeRedis(redis: Redis): string {
  return states.get(redis)?.description ?? "Redis";
}

function connectFailure(state: ConnectionState, err: unknown): IpuaroError {
  if (state.silentMs) {
    return new IpuaroError("redis", `Redis at ${state.description} accepted the connection but did not answer within ${seconds(state.silentMs)}`, {
      cause: state.lastError ?? err,
      suggestion: silentServerSuggestion(state),
    });
  }
  // The handshake's own error reaches only the `error` listener (lastError); the caller gets "Connection is closed.".
  const problem = handshakeProblem(err, state) ?? handshakeProblem(state.lastError, state);
  if (problem) return new IpuaroError("redis", problem.message, { cause: err, suggestion: problem.suggestion });
  if (isReplyError(err)) {
    return new IpuaroError("redis", `Redis at ${state.description} rejected the connection: ${err.message}`, {
      cause: err,
      suggestion: /DB index is out of range/.test(err.message)
        ? "The server has fewer logical databases (its `databases` setting, 16 by default): pick a lower db in redis.url / IPUARO_REDIS_URL or redis.db."
        : connectionSuggestion(state),
    });
  }
  const cause = state.lastError ?? err;
  return new IpuaroError("redis", `Cannot connect to Redis at ${state.description}: ${errorMessage(cause)}`, {
    cause,
    suggestion: connectionSuggestion(state),
  });
}

/** Connects and PINGs; rejects with IpuaroError('redis') naming the target when it is not reachable. */
export async function connectRedis(opts: ConnectOptions): Promise<Redis> {
  const resolved = resolveRedisTarget(opts);
  const state: ConnectionState = {
    description: resolved.description,
    socketPath: resolved.socketPath,
    lastError: null,
    silentMs: null,
    ...(opts.managedLogFile ? { managedLogFile: opts.managedLogFile } : {}),
  };
  const redis = new Redis({
    ...resolved.options,
    lazyConnect: true,
    connectTimeout: opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    socketTimeout: ANSWER_TIMEOUT_MS,
    // Commands issued during a short reconnect wait for it; after two failed attempts they reject.
    enableOfflineQueue: true,
    maxRetriesPerRequest: 1,
    // A server that went silent is not reconnected to: the reconnect would be accepted and then hang in
    // its handshake, and ioredis keeps the commands that were owed replies aside for a reconnect that never
    // becomes ready — they would wait forever. Ending here rejects them at once, and toRedisError says why.
    retryStrategy: (times) => (times > RECONNECT_ATTEMPTS || state.silentMs !== null ? null : Math.min(times * 100, 500)),
    ...(opts.commandTimeoutMs ? { commandTimeout: opts.commandTimeoutMs } : {}),
    ...(opts.connectionName ? { connectionName: opts.connectionName } : {}),
  });
  states.set(redis, state);
  // Without a listener an unreachable server would be an unhandled 'error' event and kill the process.
  redis.on("error", (err: Error) => {
    state.lastError = err;
    // Emitted before the socket's close, so the retry strategy above already sees it.
    state.silentMs = isSilenceError(err) ? (redis.options.socketTimeout ?? null) : null;
  });
  redis.on("ready", () => {
    state.lastError = null;
    state.silentMs = null;
  });
  try {
    await whileConnecting(redis, async () => {
      await redis.connect();
      await redis.ping();
      // ioredis selects the db on connect but only reports a refused SELECT as an 'error' event, and then
      // goes on in db 0: asked again here, a db the server does not have stops the command instead.
      const db = resolved.options.db ?? 0;
      if (db !== 0) await redis.select(db);
    });
  } catch (err) {
    redis.disconnect();
    throw connectFailure(state, err);
  }
  return redis;
}

/**
 * For ipuaro's own server: what brings it back when it died (killed, crashed) while this process still
 * uses it, so a Retry in the TUI or the watcher's retry loop carries on instead of failing for good.
 */
export function setRevive(redis: Redis, revive: () => Promise<void>): void {
  const state = states.get(redis);
  if (state) state.revive = revive;
}

/** How long a revived server's client may take to reconnect by itself before it is reconnected anew. */
const REVIVE_WAIT_MS = 3000;

/** Resolves when the client is ready or has given up (end), or after `ms`. */
function settled(redis: Redis, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off("ready", done);
      redis.off("end", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    redis.once("ready", done);
    redis.once("end", done);
  });
}

/** For a "Retry" after the client gave up: reconnects a client whose status is `end`. */
export async function reconnectRedis(redis: Redis): Promise<void> {
  const state = states.get(redis) ?? { description: "Redis", socketPath: null, lastError: null, silentMs: null };
  if (redis.status === "ready") return;
  try {
    if (state.revive) {
      await state.revive();
      // The client may be between its own retries: it reconnects by itself, or gives up (end).
      const status: string = redis.status; // changed while revive() ran
      if (status !== "ready" && status !== "wait" && status !== "end") await settled(redis, REVIVE_WAIT_MS);
    }
    await whileConnecting(redis, async () => {
      if (redis.status === "end" || redis.status === "wait") await redis.connect();
      await redis.ping();
    });
  } catch (err) {
    // revive()'s own verdict (a server that does not answer and did not stop) says more than the socket.
    if (err instanceof IpuaroError) throw err;
    throw connectFailure(state, err);
  }
}

/** Closes politely (QUIT), falling back to a hard disconnect when the server is already gone. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === "end") return;
  if (redis.status !== "ready") {
    redis.disconnect();
    return;
  }
  // QUIT resolves on the server's OK; the socket closes (status `end`) a moment later.
  const ended = new Promise<void>((resolve) => redis.once("end", () => resolve()));
  try {
    await redis.quit();
    await Promise.race([ended, new Promise<void>((resolve) => setTimeout(resolve, 1000).unref())]);
  } catch {
    // the server went away meanwhile
  }
  if ((redis.status as string) !== "end") redis.disconnect();
}
