// The CLI's one call to get a project's store: Redis per config (explicit URL or ipuaro's own server)
// plus the ProjectStore for the project at `root`.
import type { Redis } from "ioredis";
import type { IpuaroConfig } from "../config/schema.js";
import { acquireRedis } from "./acquire-redis.js";
import type { ManagedRedisInfo, ManagedRedisOptions } from "./managed-redis.js";
import { resolveProjectName } from "./project-name.js";
import { ProjectStore } from "./project-store.js";

export interface OpenedProjectStore {
  store: ProjectStore;
  redis: Redis;
  /** The URL or socket in use, for status lines. */
  description: string;
  managed: ManagedRedisInfo | null;
  /** Closes the connection (and stops ipuaro's own redis-server when this was its last user). */
  release(): Promise<void>;
}

export interface ProjectStoreOptions {
  /** `ipuaro index --force`: rebuild an index a newer ipuaro wrote instead of refusing it. */
  replaceNewerSchema?: boolean;
}

export async function openProjectStore(
  config: Pick<IpuaroConfig, "redis">,
  root: string,
  managedOptions: Omit<ManagedRedisOptions, "db"> = {},
  storeOptions: ProjectStoreOptions = {},
): Promise<OpenedProjectStore> {
  const handle = await acquireRedis({ ...config.redis, ...managedOptions });
  let project: string;
  try {
    project = await resolveProjectName(handle.redis, root);
  } catch (error) {
    await handle.release();
    throw error;
  }
  return {
    store: new ProjectStore({ redis: handle.redis, project, ownServer: handle.managed !== null, ...storeOptions }),
    redis: handle.redis,
    description: handle.description,
    managed: handle.managed,
    release: handle.release,
  };
}
