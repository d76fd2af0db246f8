// The one entry point the CLI uses to get Redis: an explicit server when a URL is configured,
// ipuaro's own redis-server otherwise.
import { closeRedis, connectRedis, resolveRedisTarget } from "./connection.js";
import { acquireManagedRedis, ipuaroConnectionName, startManagedRedisEarly, type ManagedRedisOptions, type RedisHandle } from "./managed-redis.js";

export interface AcquireRedisOptions extends Omit<ManagedRedisOptions, "db"> {
  /** redis://, rediss://, unix:///path or an absolute socket path. Set: use that server. */
  url?: string | null;
  host?: string;
  port?: number;
  db?: number;
  /**
   * Default: managed when no url is set. `false` with no url connects to host/port/db instead
   * (config's host/port carry defaults, so they alone cannot signal "use TCP").
   */
  managed?: boolean;
}

/** The options for ipuaro's own redis-server, or null when these name another server. */
function managedOptionsOf(opts: AcquireRedisOptions): ManagedRedisOptions | null {
  const url = opts.url?.trim() || null;
  if (url !== null || opts.managed === false) return null;
  const managedOpts: ManagedRedisOptions = {};
  if (opts.home !== undefined) managedOpts.home = opts.home;
  if (opts.redisServerBin !== undefined) managedOpts.redisServerBin = opts.redisServerBin;
  if (opts.startTimeoutMs !== undefined) managedOpts.startTimeoutMs = opts.startTimeoutMs;
  if (opts.db !== undefined) managedOpts.db = opts.db;
  return managedOpts;
}

/**
 * When these options mean ipuaro's own redis-server, starts it now if it is not running (see
 * startManagedRedisEarly); acquireRedis later finds it up. Nothing to do for another server.
 */
export function startRedisEarly(opts: AcquireRedisOptions = {}): void {
  const managedOpts = managedOptionsOf(opts);
  if (managedOpts) startManagedRedisEarly(managedOpts);
}

export async function acquireRedis(opts: AcquireRedisOptions = {}): Promise<RedisHandle> {
  const url = opts.url?.trim() || null;
  const managedOpts = managedOptionsOf(opts);
  if (managedOpts) return acquireManagedRedis(managedOpts);
  const target = { url, host: opts.host, port: opts.port, db: opts.db };
  const { description } = resolveRedisTarget(target);
  const redis = await connectRedis({ ...target, connectionName: ipuaroConnectionName() });
  let releasing: Promise<void> | null = null;
  return {
    redis,
    release: () => (releasing ??= closeRedis(redis)),
    description,
    managed: null,
  };
}
