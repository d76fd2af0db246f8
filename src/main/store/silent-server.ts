// A Redis that accepted the connection but sends nothing back: a port that is not Redis and waits for its
// own protocol first, a black-hole proxy, a server stopped with SIGSTOP or held in a debugger. The kernel
// accepts the connection for it (a stopped redis-server's listen backlog too), so no refused connect and no
// closed socket ever come: without a bound the handshake, and every command after it, waits forever.
//
// The bound is ioredis's `socketTimeout`. It measures silence, not how long a command takes: armed when a
// command is written while none is pending, restarted by every chunk the server sends while replies are
// still owed. A big pipelined index load gets replies all along, and a server still loading its data
// answers INFO with `loading:1`, so neither trips it.
import type { Redis } from "ioredis";

/** While connecting: a server answers HELLO/INFO/PING in milliseconds; a few seconds of nothing say it never will. */
export const CONNECT_ANSWER_TIMEOUT_MS = 5_000;

/**
 * Once connected: how long the server may send nothing while a reply is owed. Legitimate silences are far
 * shorter. The longest seen in a 12K-file index load (cold and --force, 2 shared cores) was 0.13–0.51 s,
 * event-loop stalls of this process included: replies waiting unread in the socket count as silence, as
 * the timer fires before they are read. Redis holds its writes for up to 2 s behind a slow AOF fsync
 * (`appendfsync everysec`); ipuaro's longest single commands (a RENAME over the graph's index hash, an
 * HSET of a few MB) take milliseconds; nothing blocks (no BLPOP, no BLOCK). The margin is for a slow disk
 * throttling Redis's AOF writes, or a machine swapping.
 */
export const ANSWER_TIMEOUT_MS = 15_000;

/** ioredis 6 gives its socket-timeout error no code: the message is its only mark (a test pins it). */
export function isSilenceError(err: unknown): boolean {
  return err instanceof Error && err.message.startsWith("Socket timeout.");
}

/**
 * Runs a connect (or a reconnect) under the connect bound, then puts the in-use bound back. ioredis reads
 * the option each time it arms the timer, so the change applies from the next command on.
 */
export async function whileConnecting<T>(redis: Redis, connect: () => Promise<T>): Promise<T> {
  redis.options.socketTimeout = CONNECT_ANSWER_TIMEOUT_MS;
  try {
    return await connect();
  } finally {
    redis.options.socketTimeout = ANSWER_TIMEOUT_MS;
  }
}

export function seconds(ms: number): string {
  return `${ms / 1000} s`;
}

/** What to do about a server that stopped answering, by where it is. */
export function silentServerSuggestion(where: { description: string; socketPath: string | null; managedLogFile?: string }): string {
  if (where.managedLogFile) {
    return `If ipuaro's own redis-server was stopped (SIGSTOP, a debugger), let it continue; otherwise retry: ipuaro stops a server that stays silent and starts it again from its AOF (its log: ${where.managedLogFile}).`;
  }
  if (where.socketPath) {
    return `Check that the redis-server on ${where.socketPath} is not stopped (SIGSTOP, a debugger) or overloaded, or unset IPUARO_REDIS_URL / redis.url so ipuaro starts its own redis-server.`;
  }
  return `Check redis.url / IPUARO_REDIS_URL: ${where.description} must be a running Redis server (not another service, not stopped or overloaded); or unset them so ipuaro starts its own redis-server.`;
}
