// Holding off Redis's automatic AOF rewrite while an index run bulk-loads ipuaro's own server.
//
// A cold index of a 12K-file project appends ~100 MB, so the rewrite (auto-aof-rewrite-min-size 64mb)
// fires half-way through: Redis forks and writes a snapshot that is stale a moment later, on a machine
// whose cores are all parsing. Held, the run ends ~0.2 s sooner (2 cores) and the one rewrite the load
// made due starts as the hold is lifted, in the background. Only ever done to ipuaro's own server: a
// Redis the user points us at keeps its settings.
//
// A holder marks its connection by name, so a holder that died (its connection gone) cannot leave
// rewrites off for good: whoever next opens the server restores the setting when no holder is left.
import type { Redis } from "ioredis";
import { MANAGED_AOF_REWRITE_PERCENTAGE } from "./managed-redis-layout.js";

const HOLDER_SUFFIX = ":holding-aof-rewrite";

/** Lifts a hold; never throws (a server that went away has lost the hold anyway). */
export type AofRewriteRelease = () => Promise<void>;

async function holdersConnected(redis: Redis): Promise<number> {
  const list = String(await redis.client("LIST"));
  return list.split("\n").filter((line) => new RegExp(` name=\\S*${HOLDER_SUFFIX} `).test(line)).length;
}

async function configNumber(redis: Redis, key: string): Promise<number> {
  const [, value] = (await redis.config("GET", key)) as [string, string];
  return Number(value);
}

/** Starts the rewrite Redis would have started during the hold, the way its own check decides it. */
async function rewriteIfDue(redis: Redis): Promise<boolean> {
  const info = await redis.info("persistence");
  const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, "m").exec(info)?.[1] ?? 0);
  if (field("aof_enabled") !== 1 || field("aof_rewrite_in_progress") === 1) return false;
  const current = field("aof_current_size");
  const base = field("aof_base_size") || 1;
  const minSize = await configNumber(redis, "auto-aof-rewrite-min-size");
  const percentage = await configNumber(redis, "auto-aof-rewrite-percentage");
  if (percentage <= 0 || current <= minSize || ((current - base) * 100) / base < percentage) return false;
  try {
    await redis.bgrewriteaof();
    return true;
  } catch {
    // One already running or scheduled: that one will do.
    return false;
  }
}

export async function holdAofRewrites(redis: Redis): Promise<AofRewriteRelease> {
  const ownName = (await redis.client("GETNAME")) as string | null;
  await redis.client("SETNAME", `${ownName ?? "ipuaro"}${HOLDER_SUFFIX}`);
  await redis.config("SET", "auto-aof-rewrite-percentage", "0");
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    try {
      await redis.client("SETNAME", ownName ?? "");
      if ((await holdersConnected(redis)) > 0) return; // the last holder lifts it
      await redis.config("SET", "auto-aof-rewrite-percentage", String(MANAGED_AOF_REWRITE_PERCENTAGE));
      await rewriteIfDue(redis);
    } catch {
      // Redis went away: a restarted server reads its config file, where rewrites are on.
    }
  };
}

/** Turns rewrites back on when a holder died holding them (no holder connected, the setting still 0). */
export async function liftAbandonedAofHold(redis: Redis): Promise<boolean> {
  if ((await configNumber(redis, "auto-aof-rewrite-percentage")) !== 0) return false;
  if ((await holdersConnected(redis)) > 0) return false;
  await redis.config("SET", "auto-aof-rewrite-percentage", String(MANAGED_AOF_REWRITE_PERCENTAGE));
  return true;
}
