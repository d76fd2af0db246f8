// What every shadow operation works on: the project's Redis connection and keys, its root on disk, the
// index store, and a clock (tests and the CLI's reports pin it).
import type { Redis } from "ioredis";
import { redisOp } from "../store/connection.js";
import type { ProjectStore } from "../store/project-store.js";
import { shadowKeys, type ShadowKeys } from "../store/shadow-keys.js";

export interface ShadowScope {
  readonly store: ProjectStore;
  readonly redis: Redis;
  readonly keys: ShadowKeys;
  readonly project: string;
  /** Project root on disk (git history and note conditions read it). */
  readonly root: string;
  now(): number;
}

export interface ShadowScopeOptions {
  now?: () => number;
}

export function shadowScope(store: ProjectStore, root: string, opts: ShadowScopeOptions = {}): ShadowScope {
  return { store, redis: store.redis, keys: shadowKeys(store.name), project: store.name, root, now: opts.now ?? Date.now };
}

/** One Redis operation of the shadow store, failing as the store's typed redis error. */
export function shadowOp<T>(scope: Pick<ShadowScope, "redis" | "project">, action: string, fn: () => Promise<T>): Promise<T> {
  return redisOp(scope.redis, `${action} (project ${scope.project})`, fn);
}

/** JSON values of a hash, skipping entries that do not parse (one bad entry must not hide the rest). */
export function parseJsonValues<T>(values: Iterable<string>): T[] {
  const out: T[] = [];
  for (const raw of values) {
    try {
      out.push(JSON.parse(raw) as T);
    } catch {
      // A hand-edited or truncated entry: skipped.
    }
  }
  return out;
}

/** The scope of a tool call. The session id is read when the context carries one (`sessionId`). */
export function scopeForTool(ctx: { store: ProjectStore; root: string }): ShadowScope {
  return shadowScope(ctx.store, ctx.root);
}

/** The calling session's id, when the orchestrator put one on the tool context; null otherwise. */
export function sessionIdOf(ctx: object): string | null {
  const id = (ctx as { sessionId?: unknown }).sessionId;
  return typeof id === "string" && id ? id : null;
}
