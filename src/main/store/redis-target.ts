// Where Redis is, from config: a redis:// or rediss:// URL, unix:///path, a bare socket path, or host/port/db.
// Parsed without connecting (and without ioredis at run time), so the config loader can check redis.url
// and name the file or variable a bad one came from.
import path from "node:path";
import type { RedisOptions } from "ioredis";
import { IpuaroError } from "../errors.js";

export interface RedisTarget {
  /** `redis://`, `rediss://`, `unix:///path/to.sock` or a bare absolute socket path. */
  url?: string | null;
  host?: string;
  port?: number;
  db?: number;
}

export interface ResolvedTarget {
  options: RedisOptions;
  /** For messages: the URL or socket path, password masked. */
  description: string;
  socketPath: string | null;
}

function dbFromSearch(url: URL, fallback: number | undefined): number | undefined {
  const raw = url.searchParams.get("db");
  if (raw === null) return fallback;
  const db = Number(raw);
  if (!Number.isInteger(db) || db < 0) throw new IpuaroError("config", `Invalid db in Redis URL: ${raw}`, { recoverable: false });
  return db;
}

function maskPassword(url: URL): string {
  if (!url.password) return url.toString();
  const copy = new URL(url.toString());
  copy.password = "***";
  return copy.toString();
}

/** Turns config (url or host/port/db) into ioredis options, without connecting. */
export function resolveRedisTarget(target: RedisTarget): ResolvedTarget {
  const url = target.url?.trim();
  if (!url) {
    const host = target.host ?? "127.0.0.1";
    const port = target.port ?? 6379;
    const db = target.db ?? 0;
    return { options: { host, port, db }, description: `redis://${host}:${port}/${db}`, socketPath: null };
  }
  if (url.startsWith("/")) {
    return { options: { path: url, db: target.db ?? 0 }, description: url, socketPath: url };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new IpuaroError("config", `Invalid Redis URL: ${url}`, {
      recoverable: false,
      suggestion: "Use redis://host:port/db, rediss://…, unix:///path/to/redis.sock or an absolute socket path.",
    });
  }
  if (parsed.protocol === "unix:") {
    const socketPath = decodeURIComponent(parsed.pathname);
    if (!path.isAbsolute(socketPath)) throw new IpuaroError("config", `Unix socket URL needs an absolute path: ${url}`, { recoverable: false });
    const db = dbFromSearch(parsed, target.db ?? 0);
    return { options: { path: socketPath, db }, description: socketPath, socketPath };
  }
  if (parsed.protocol === "redis:" || parsed.protocol === "rediss:") {
    const dbPath = parsed.pathname.replace(/^\//, "");
    let db = target.db ?? 0;
    if (dbPath) {
      db = Number(dbPath);
      if (!Number.isInteger(db) || db < 0) throw new IpuaroError("config", `Invalid db in Redis URL: ${url}`, { recoverable: false });
    }
    const options: RedisOptions = {
      host: parsed.hostname.replace(/^\[|\]$/g, "") || "127.0.0.1",
      port: parsed.port ? Number(parsed.port) : 6379,
      db: dbFromSearch(parsed, db),
    };
    if (parsed.username) options.username = decodeURIComponent(parsed.username);
    if (parsed.password) options.password = decodeURIComponent(parsed.password);
    if (parsed.protocol === "rediss:") options.tls = {};
    return { options, description: maskPassword(parsed), socketPath: null };
  }
  throw new IpuaroError("config", `Unsupported Redis URL scheme "${parsed.protocol}" in ${url}`, {
    recoverable: false,
    suggestion: "Use redis://, rediss://, unix:// or an absolute socket path.",
  });
}
