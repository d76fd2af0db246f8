// The store's public surface: the rest of src/main imports from here, never ioredis directly.
export { acquireRedis, type AcquireRedisOptions } from "./acquire-redis.js";
export {
  closeRedis,
  connectRedis,
  describeRedis,
  reconnectRedis,
  redisOp,
  resolveRedisTarget,
  toRedisError,
  type ConnectOptions,
  type RedisTarget,
  type ResolvedTarget,
} from "./connection.js";
export {
  PROJECT_KEY_PARTS,
  projectKey,
  projectKeys,
  projectNameFor,
  projectSessionsKey,
  sessionDataKey,
  sessionUndoKey,
  type ProjectKeyPart,
  type ProjectKeys,
} from "./keys.js";
export { managedRedisLayout, type ManagedRedisLayout } from "./managed-redis-layout.js";
export {
  acquireManagedRedis,
  REDIS_INSTALL_SUGGESTION,
  type ManagedRedisInfo,
  type ManagedRedisOptions,
  type RedisHandle,
} from "./managed-redis.js";
export {
  ProjectStore,
  SCHEMA_VERSION,
  type ConfigField,
  type FieldEntries,
  type FileLines,
  type IndexBatch,
  type IndexName,
} from "./project-store.js";
export { binaryFileJson, decodeStat, encodeStat, symlinkFileJson, type StoredFile } from "./stored-values.js";
export type { Redis } from "ioredis";
export { openProjectStore, type OpenedProjectStore } from "./open-project-store.js";
