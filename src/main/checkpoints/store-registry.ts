// Which Redis databases keep checkpoints whose backups live in this file history. The blobs under
// `$IPUARO_HOME/file-history` are shared by every project of the user, but a project may use another
// Redis server or database (its own `redis.url` / `redis.db`): a GC that marks only from the Redis it
// is connected to would delete the backups the other one's checkpoints still need. So each Redis
// database that stores a checkpoint gets an id (a key in that database) and a marker file named by it
// in `file-history/stores/`; a GC that finds a marker of another database removes nothing.
import { randomUUID } from "node:crypto";
import fsp from "node:fs/promises";
import path from "node:path";
import { fileHistoryDir } from "./blob-store.js";
import type { Redis } from "./store-access.js";

export const FILE_HISTORY_STORE_KEY = "ipuaro:file-history:store-id";
const ID = /^[0-9a-f-]{36}$/;

export function storesDir(home: string): string {
  return path.join(fileHistoryDir(home), "stores");
}

/** This Redis database's id, or null when it never stored a checkpoint. */
export async function storeIdOf(redis: Redis): Promise<string | null> {
  const id = await redis.get(FILE_HISTORY_STORE_KEY);
  return id && ID.test(id) ? id : null;
}

/** Gives this Redis database an id (once) and leaves its marker in the file history. */
export async function registerStore(redis: Redis, home: string): Promise<string> {
  await redis.set(FILE_HISTORY_STORE_KEY, randomUUID(), "NX");
  const id = await storeIdOf(redis);
  if (!id) throw new Error(`${FILE_HISTORY_STORE_KEY} in Redis is not an id`);
  await fsp.mkdir(storesDir(home), { recursive: true });
  await fsp.writeFile(path.join(storesDir(home), id), `${JSON.stringify({ id, since: new Date().toISOString() })}\n`, { flag: "w" });
  return id;
}

/** Marker files of Redis databases other than `ownId` that keep checkpoints in this file history. */
export async function otherStores(home: string, ownId: string | null): Promise<string[]> {
  let names: string[];
  try {
    names = await fsp.readdir(storesDir(home));
  } catch {
    return [];
  }
  return names.filter((n) => ID.test(n) && n !== ownId).map((n) => path.join(storesDir(home), n));
}
