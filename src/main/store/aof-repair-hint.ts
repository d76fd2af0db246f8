// When ipuaro's own redis-server will not start because its AOF is damaged (a crash mid-write, a full
// disk), the fix is redis-check-aof on the manifest; redis's own log line only says
// "./redis-check-aof --fix <filename.manifest>", which names neither the tool's location nor the file.
import fs from "node:fs";
import path from "node:path";

/** Redis 7's defaults; managedRedisConf sets neither appenddirname nor appendfilename. */
const AOF_DIR_NAME = "appendonlydir";
const DEFAULT_MANIFEST = "appendonly.aof.manifest";

/** Log lines redis writes when loading the AOF fails (aof.c), or its RDB base (rdb.c, after "RDB is base AOF"). */
const AOF_FAILURE = /reading the append only file|AOF manifest|redis-check-aof/i;
const BASE_LOADING = /(RDB is base AOF|base file on AOF loading)/i;
const RDB_FAILURE = /(Internal error in RDB|Wrong RDB checksum|Short read or OOM loading DB|Unexpected EOF reading RDB)/i;

export function isAofLoadFailure(log: string): boolean {
  return AOF_FAILURE.test(log) || (BASE_LOADING.test(log) && RDB_FAILURE.test(log));
}

/** Quotes for a POSIX shell only when needed, so the common path is copied as it is. */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The manifest redis reads: the one in appendonlydir (there is one), else the default name. */
export function aofManifestPath(dataDir: string): string {
  const dir = path.join(dataDir, AOF_DIR_NAME);
  let found: string | undefined;
  try {
    found = fs.readdirSync(dir).find((f) => f.endsWith(".manifest"));
  } catch {
    // no appendonlydir: the default name is still what to look for
  }
  return path.join(dir, found ?? DEFAULT_MANIFEST);
}

/** redis-check-aof next to the redis-server in use (IPUARO_REDIS_SERVER=/opt/redis/bin/…), else from PATH. */
function checkAofBinary(redisServerBin: string): string {
  if (!redisServerBin.includes(path.sep)) return "redis-check-aof";
  const sibling = path.join(path.dirname(redisServerBin), "redis-check-aof");
  return fs.existsSync(sibling) ? sibling : "redis-check-aof";
}

/** The exact repair command for a damaged AOF. */
export function aofRepairCommand(dataDir: string, redisServerBin: string): string {
  return `${shellQuote(checkAofBinary(redisServerBin))} --fix ${shellQuote(aofManifestPath(dataDir))}`;
}

/** What to tell the user when the server stopped on a damaged AOF: back up, repair, or start empty. */
export function aofRepairSuggestion(dataDir: string, redisServerBin: string): string {
  const aofDir = shellQuote(path.join(dataDir, AOF_DIR_NAME));
  const backup = shellQuote(path.join(dataDir, `${AOF_DIR_NAME}.bak`));
  return (
    `Its append-only file (ipuaro's index and sessions) is damaged. Back it up (cp -a ${aofDir} ${backup}), ` +
    `repair it with \`${aofRepairCommand(dataDir, redisServerBin)}\` (it cuts the file at the first bad command and asks before it does), then run ipuaro again. ` +
    `If it cannot be repaired, move ${aofDir} away: ipuaro then starts with an empty store (indexes are rebuilt, sessions are lost).`
  );
}
