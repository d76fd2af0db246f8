// One project's index in Redis: files, ast, meta, stat, indexes and config hashes (keys.ts).
// Writes take already-serialised values so batching on the main thread stays cheap; whole-hash reads
// go through HSCAN so neither Redis nor the event loop is blocked by one giant reply.
import { setTimeout as sleep } from "node:timers/promises";
import type { Redis } from "ioredis";
import type { FileAST, FileMeta } from "../../workers/ast-types.js";
import type { KnownFileState, WireHashes } from "../../workers/protocol.js";
import type { GraphRewrite, IndexStorePort, RecordBatch } from "../../pipeline/index-store-port.js";
import { INDEX_RUN_FIELD } from "../../pipeline/index-run-mark.js";
import { IpuaroError } from "../errors.js";
import { holdAofRewrites, type AofRewriteRelease } from "./aof-rewrite-hold.js";
import { redisOp, toRedisError } from "./connection.js";
import { PROJECT_KEY_PARTS, projectIndexLeaseKey, projectKeys, projectNameFor, type ProjectKeyPart, type ProjectKeys } from "./keys.js";
import { describeHolder, RedisLease, takeLease } from "./redis-lease.js";
import { GraphWrites, markGraphStale } from "./graph-writes.js";
import { addHdel, addHset, execTransaction, FramedCommand, type FieldEntries, type Pipeline } from "./redis-commands.js";
import { corruptEntry, decodeStat, parseAst, parseMeta, parseStoredFile, type StoredFile } from "./stored-values.js";
import { newerSchemaError, SCHEMA_VERSION, storedSchema } from "./schema-version.js";

export type { FieldEntries } from "./redis-commands.js";

export { SCHEMA_VERSION } from "./schema-version.js";

export type IndexName = "symbols" | "deps_graph" | "call_graph";

/** Fields of `project:{name}:config` other modules may set. `schemaVersion` is managed here. */
export type ConfigField = "root" | "last_indexed" | "settings" | "whitelist" | (string & {});

const SCHEMA_FIELD = "schemaVersion";

export interface IndexBatch {
  /** FileData JSON, or binaryFileJson / symlinkFileJson. */
  files?: FieldEntries;
  /** FileAST JSON. */
  ast?: FieldEntries;
  /** FileMeta JSON. */
  meta?: FieldEntries;
  /** encodeStat(...) values. */
  stat?: FieldEntries;
  /** GraphFacts (+ complexity) JSON, read back by scanFacts for the graph pass. */
  facts?: FieldEntries;
  /** Paths deleted from every per-file hash. */
  remove?: readonly string[];
  /** Complete HSET commands in Redis's wire format (framed by the index workers), sent as they are. */
  wire?: readonly Uint8Array[];
  /** These writes change the graph's input (facts, removals): mark the graph stale first. */
  graphStale?: boolean;
}

export interface FileLines {
  /** The requested lines, 1-based `start`..`end` inclusive, clamped to the file. */
  lines: string[];
  start: number;
  end: number;
  total: number;
}

const DEFAULT_SCAN_COUNT = 500;
/** How often a run waiting for another one's index run looks again. */
const INDEX_RUN_POLL_MS = 250;

const PER_FILE_PARTS = ["files", "ast", "meta", "stat", "facts"] as const;

export class ProjectStore implements IndexStorePort {
  readonly name: string;
  readonly keys: ProjectKeys;
  /** The connection; other modules of src/main/store (index queries, sessions) share it. */
  readonly redis: Redis;

  /** The server is ipuaro's own (managed), so the store may tune it for a bulk load. */
  private readonly ownServer: boolean;
  /** `ipuaro index --force`: an index a newer ipuaro wrote is rebuilt instead of refused. */
  private readonly replaceNewerSchema: boolean;
  private readonly graph: GraphWrites;

  constructor(opts: { redis: Redis; project: string; ownServer?: boolean; replaceNewerSchema?: boolean }) {
    this.redis = opts.redis;
    this.name = opts.project;
    this.keys = projectKeys(opts.project);
    this.ownServer = opts.ownServer ?? false;
    this.replaceNewerSchema = opts.replaceNewerSchema ?? false;
    this.graph = new GraphWrites({
      redis: this.redis,
      keys: this.keys,
      op: (action, fn) => this.op(action, fn),
      execPipeline: (action, pipeline) => this.execPipeline(action, pipeline),
    });
  }

  get projectName(): string {
    return this.name;
  }

  static forRoot(redis: Redis, root: string, opts: { ownServer?: boolean } = {}): ProjectStore {
    return new ProjectStore({ redis, project: projectNameFor(root), ...opts });
  }

  async holdAofRewrites(): Promise<AofRewriteRelease> {
    if (!this.ownServer) return async () => {};
    return this.op("holding off AOF rewrites", () => holdAofRewrites(this.redis));
  }

  async claimIndexRun(by: string, onWait: (holder: string) => void, signal?: AbortSignal): Promise<() => Promise<void>> {
    const key = projectIndexLeaseKey(this.name);
    let told = false;
    for (;;) {
      signal?.throwIfAborted();
      const taken = await this.op("taking the index run lease", () => takeLease(this.redis, key, by));
      if ("value" in taken) {
        const lease = new RedisLease(this.redis, key, taken.value);
        return () => lease.release();
      }
      if (!told) onWait(describeHolder(taken.heldBy));
      told = true;
      await sleep(INDEX_RUN_POLL_MS, undefined, { signal }).catch(() => signal?.throwIfAborted());
    }
  }

  /** Whether a process holds the index-run lease now (an index run, or `ipuaro index --drop`, is under way). */
  indexRunHeld(): Promise<boolean> {
    return this.op("looking for an index run", async () => (await this.redis.exists(projectIndexLeaseKey(this.name))) > 0);
  }

  private op<T>(action: string, fn: () => Promise<T>): Promise<T> {
    return redisOp(this.redis, `${action} (project ${this.name})`, fn);
  }

  /**
   * A framed command goes to the socket on its own: in a pipeline, ioredis would first copy every
   * command of the batch into one new buffer (megabytes per batch, fresh pages each time).
   */
  private async sendFramed(action: string, bytes: Uint8Array): Promise<void> {
    try {
      await this.redis.sendCommand(new FramedCommand(bytes));
    } catch (err) {
      throw toRedisError(err, this.redis, `${action} (project ${this.name})`);
    }
  }

  private async execPipeline(action: string, pipeline: Pipeline): Promise<void> {
    const results = await pipeline.exec();
    for (const [err] of results ?? []) if (err) throw toRedisError(err, this.redis, `${action} (project ${this.name})`);
  }

  /**
   * 'ok': stored data matches SCHEMA_VERSION, or nothing was stored yet (the version is recorded now).
   * 'reset': data of an older (or of no recorded) version was deleted: index from scratch.
   * An index a newer ipuaro wrote is refused (IpuaroError 'config'), unless `replaceNewer` (index --force;
   * by default the store's `replaceNewerSchema`).
   */
  ensureSchema(opts: { replaceNewer?: boolean } = {}): Promise<"ok" | "reset"> {
    return this.op("checking the schema version", async () => {
      const version = await this.redis.hget(this.keys.config, SCHEMA_FIELD);
      const stored = storedSchema(version);
      if (stored === "current") return "ok";
      if (stored === "newer" && !(opts.replaceNewer ?? this.replaceNewerSchema)) throw newerSchemaError(this.name, version!);
      const all = PROJECT_KEY_PARTS.map((p) => this.keys[p]);
      if (version === null && (await this.redis.exists(...all)) === 0) {
        await this.redis.hset(this.keys.config, SCHEMA_FIELD, String(SCHEMA_VERSION));
        return "ok";
      }
      await execTransaction(this.redis.multi().unlink(...all).hset(this.keys.config, SCHEMA_FIELD, String(SCHEMA_VERSION)));
      return "reset";
    });
  }

  /**
   * Marks the graph stale when the batch says so, HDELs removed paths, then the framed commands, then
   * HSET files, ast, meta, facts and stat last, all on one connection in that order. Redis applies them in order, so a stat entry (what a warm run
   * trusts to skip a file) never lands before its file and AST.
   */
  writeBatch(batch: IndexBatch): Promise<void> {
    return this.op("writing an index batch", async () => {
      const removals = this.redis.pipeline();
      if (batch.graphStale) markGraphStale(removals, this.keys.config);
      if (batch.remove?.length) {
        for (const part of PER_FILE_PARTS) addHdel(removals, this.keys[part], batch.remove);
      }
      const sets = this.redis.pipeline();
      addHset(sets, this.keys.files, batch.files);
      addHset(sets, this.keys.ast, batch.ast);
      addHset(sets, this.keys.meta, batch.meta);
      addHset(sets, this.keys.facts, batch.facts);
      addHset(sets, this.keys.stat, batch.stat);
      const action = "writing an index batch";
      // All in one synchronous stretch, so they reach the socket in this order.
      const sent: Promise<unknown>[] = [];
      if (removals.length) sent.push(this.execPipeline(action, removals));
      for (const command of batch.wire ?? []) sent.push(this.sendFramed(action, command));
      if (sets.length) sent.push(this.execPipeline(action, sets));
      await Promise.all(sent);
    });
  }

  /** IndexStorePort: same as writeBatch. */
  writeRecords(batch: RecordBatch): Promise<void> {
    return this.writeBatch(batch);
  }

  wireHashes(): WireHashes {
    return { files: this.keys.files, ast: this.keys.ast, facts: this.keys.facts };
  }

  /** Paths removed from files, ast, meta, facts and stat. */
  removePaths(paths: readonly string[]): Promise<void> {
    return this.writeBatch({ remove: paths });
  }

  getFile(path: string): Promise<StoredFile | null> {
    return this.op(`reading ${path}`, async () => {
      const raw = await this.redis.hget(this.keys.files, path);
      return raw === null ? null : parseStoredFile(this.keys.files, path, raw);
    });
  }

  /**
   * Lines `start`..`end` (1-based, inclusive, clamped). null when the path is not indexed; throws
   * IpuaroError('file') for binary files and symlinks, which have no lines.
   */
  async getLines(path: string, start = 1, end = Number.MAX_SAFE_INTEGER): Promise<FileLines | null> {
    const file = await this.getFile(path);
    if (!file) return null;
    if (file.kind !== "text") {
      throw new IpuaroError("file", `${path} is ${file.kind === "binary" ? "a binary file" : `a symlink to ${file.target}`}; it has no lines`, {
        recoverable: false,
      });
    }
    const total = file.lines.length;
    const from = Math.max(1, Math.floor(start));
    const to = Math.min(total, Math.floor(end));
    return { lines: from <= to ? file.lines.slice(from - 1, to) : [], start: from, end: Math.max(from - 1, to), total };
  }

  hasFile(path: string): Promise<boolean> {
    return this.op(`checking ${path}`, async () => (await this.redis.hexists(this.keys.files, path)) === 1);
  }

  getAst(path: string): Promise<FileAST | null> {
    return this.op(`reading the AST of ${path}`, async () => {
      const raw = await this.redis.hget(this.keys.ast, path);
      return raw === null ? null : parseAst(this.keys.ast, path, raw);
    });
  }

  /** ASTs of several paths in one round trip; missing paths are absent from the map. */
  getAsts(paths: readonly string[]): Promise<Map<string, FileAST>> {
    return this.readMany("reading ASTs", this.keys.ast, paths, (path, raw) => parseAst(this.keys.ast, path, raw));
  }

  /** One HMGET of `paths`, each value parsed; missing (or unparsable, when `parse` gives null) ones absent. */
  private readMany<T>(action: string, key: string, paths: readonly string[], parse: (path: string, raw: string) => T | null): Promise<Map<string, T>> {
    return this.op(action, async () => {
      const out = new Map<string, T>();
      if (!paths.length) return out;
      const values = await this.redis.hmget(key, ...paths);
      values.forEach((raw, i) => {
        const value = raw === null ? null : parse(paths[i]!, raw);
        if (value !== null) out.set(paths[i]!, value);
      });
      return out;
    });
  }

  getMeta(path: string): Promise<FileMeta | null> {
    return this.op(`reading the metadata of ${path}`, async () => {
      const raw = await this.redis.hget(this.keys.meta, path);
      return raw === null ? null : parseMeta(this.keys.meta, path, raw);
    });
  }

  /** Accepts objects or already-serialised JSON; one pipeline. */
  setMetaMany(entries: Iterable<readonly [string, FileMeta | string]>): Promise<void> {
    const serialised: [string, string][] = [];
    for (const [path, meta] of entries) serialised.push([path, typeof meta === "string" ? meta : JSON.stringify(meta)]);
    return this.writeBatch({ meta: serialised });
  }

  /**
   * Raw `[field, value]` chunks of one hash via HSCAN: no single huge reply, and the caller's loop
   * yields to the event loop between chunks. A field changed during the scan may appear twice.
   */
  async *scanRaw(part: ProjectKeyPart, count = DEFAULT_SCAN_COUNT): AsyncGenerator<[string, string][]> {
    const key = this.keys[part];
    let cursor = "0";
    do {
      const [next, flat] = await this.op(`scanning ${part}`, () => this.redis.hscan(key, cursor, "COUNT", count));
      cursor = next;
      const chunk: [string, string][] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) chunk.push([flat[i]!, flat[i + 1]!]);
      if (chunk.length) yield chunk;
    } while (cursor !== "0");
  }

  /** Every AST, parsed one HSCAN chunk at a time. */
  async *iterateAsts(count = DEFAULT_SCAN_COUNT): AsyncGenerator<[string, FileAST]> {
    for await (const chunk of this.scanRaw("ast", count)) {
      for (const [path, raw] of chunk) yield [path, parseAst(this.keys.ast, path, raw)];
    }
  }

  async getAllAsts(): Promise<Map<string, FileAST>> {
    const out = new Map<string, FileAST>();
    for await (const [path, ast] of this.iterateAsts()) out.set(path, ast);
    return out;
  }

  async getAllMeta(): Promise<Map<string, FileMeta>> {
    const out = new Map<string, FileMeta>();
    for await (const chunk of this.scanRaw("meta")) {
      for (const [path, raw] of chunk) out.set(path, parseMeta(this.keys.meta, path, raw));
    }
    return out;
  }

  /** What a warm re-index compares against: path → size, mtimeMs, hash. */
  async getAllStats(): Promise<Map<string, KnownFileState>> {
    const out = new Map<string, KnownFileState>();
    for await (const chunk of this.scanRaw("stat", 2000)) {
      for (const [path, raw] of chunk) {
        const state = decodeStat(raw);
        if (!state) throw corruptEntry(this.keys.stat, path, `bad stat "${raw}"`);
        out.set(path, state);
      }
    }
    return out;
  }

  /** Stat entries of several paths in one round trip (a symlink's hash is `link:<target>`); missing ones absent. */
  getStats(paths: readonly string[]): Promise<Map<string, KnownFileState>> {
    return this.readMany("reading file states", this.keys.stat, paths, (_path, raw) => decodeStat(raw));
  }

  /** IndexStorePort name for getAllStats. */
  loadKnownStats(): Promise<Map<string, KnownFileState>> {
    return this.getAllStats();
  }

  /** Paths that have graph facts, i.e. were indexed as text. */
  async loadGraphMembers(): Promise<Set<string>> {
    return new Set(await this.op("listing graph members", () => this.redis.hkeys(this.keys.facts)));
  }

  /** Stored facts records as raw `[path, json]` chunks. */
  getFacts(paths: readonly string[]): Promise<[string, string][]> {
    return this.op("reading graph facts", async () => {
      if (!paths.length) return [];
      const values = await this.redis.hmget(this.keys.facts, ...paths);
      const out: [string, string][] = [];
      values.forEach((v, i) => {
        if (v !== null) out.push([paths[i] as string, v]);
      });
      return out;
    });
  }

  scanFacts(): AsyncIterable<[string, string][]> {
    return this.scanRaw("facts");
  }

  writeGraph(meta: FieldEntries, indexFields: FieldEntries, clearIndexes: boolean): Promise<void> {
    return this.graph.write(meta, indexFields, clearIndexes);
  }

  beginGraphRewrite(): GraphRewrite {
    return this.graph.beginRewrite();
  }

  writeGraphDelta(meta: FieldEntries, setFields: FieldEntries, deleteFields: readonly string[]): Promise<void> {
    return this.graph.writeDelta(meta, setFields, deleteFields);
  }

  graphStale(): Promise<boolean> {
    return this.graph.isStale();
  }

  /** Several config fields at once (root, last_indexed, files …). */
  async setIndexInfo(info: Record<string, string>): Promise<void> {
    if (SCHEMA_FIELD in info) throw new Error(`${SCHEMA_FIELD} is managed by ensureSchema()`);
    return this.op("writing index info", async () => {
      if (Object.keys(info).length) await this.redis.hset(this.keys.config, info);
    });
  }

  /** The mark of the index run that last wrote the index (index-run-mark.ts), as stored. */
  lastIndexRun(): Promise<string | null> {
    return this.getConfigField(INDEX_RUN_FIELD);
  }

  listPaths(): Promise<string[]> {
    return this.op("listing files", () => this.redis.hkeys(this.keys.files));
  }

  fileCount(): Promise<number> {
    return this.op("counting files", () => this.redis.hlen(this.keys.files));
  }

  setIndex(name: IndexName, json: string): Promise<void> {
    return this.op(`writing the ${name} index`, async () => {
      await this.redis.hset(this.keys.indexes, name, json);
    });
  }

  getIndexJson(name: IndexName): Promise<string | null> {
    return this.op(`reading the ${name} index`, () => this.redis.hget(this.keys.indexes, name));
  }

  async getIndex<T>(name: IndexName): Promise<T | null> {
    const raw = await this.getIndexJson(name);
    if (raw === null) return null;
    try {
      return JSON.parse(raw) as T;
    } catch {
      throw corruptEntry(this.keys.indexes, name, "not valid JSON");
    }
  }

  async setConfigField(field: ConfigField, value: string): Promise<void> {
    if (field === SCHEMA_FIELD) throw new Error(`${SCHEMA_FIELD} is managed by ensureSchema()`);
    return this.op(`writing config ${field}`, async () => {
      await this.redis.hset(this.keys.config, field, value);
    });
  }

  getConfigField(field: ConfigField): Promise<string | null> {
    return this.op(`reading config ${field}`, () => this.redis.hget(this.keys.config, field));
  }

  /** Every config field (small hash), schemaVersion included. */
  async getConfig(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for await (const chunk of this.scanRaw("config")) for (const [k, v] of chunk) out.set(k, v);
    return out;
  }

  /** Deletes the project's index keys (UNLINK frees memory off the main Redis thread). Sessions are kept. */
  deleteProject(): Promise<void> {
    return this.op("deleting the project index", async () => {
      await this.redis.unlink(...PROJECT_KEY_PARTS.map((p) => this.keys[p]));
    });
  }

  /** Redis's whole used_memory (INFO memory), in bytes. */
  /**
   * Waits (up to `timeoutMs`) until Redis runs no background AOF rewrite or RDB save, so a measurement
   * that follows does not share the CPU with one. True when it went quiet in time.
   */
  async waitForPersistenceIdle(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const info = await this.op("reading persistence state", () => this.redis.info("persistence"));
      const busy = /^(aof_rewrite_in_progress|aof_rewrite_scheduled|rdb_bgsave_in_progress):1/m.test(info);
      if (!busy) return true;
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** CPU seconds the Redis server has used so far, its forks (AOF rewrites, saves) included. */
  cpuSeconds(): Promise<number> {
    return this.op("reading CPU usage", async () => {
      const info = await this.redis.info("cpu");
      let total = 0;
      for (const m of info.matchAll(/^used_cpu_(?:sys|user)(?:_children)?:([\d.]+)/gm)) total += Number(m[1]);
      return total;
    });
  }

  memoryUsedBytes(): Promise<number> {
    return this.op("reading memory usage", async () => {
      const info = await this.redis.info("memory");
      const match = /^used_memory:(\d+)/m.exec(info);
      return match ? Number(match[1]) : 0;
    });
  }

  /** Bytes held by this project's keys (MEMORY USAGE … SAMPLES 0: exact, O(fields)). */
  projectMemoryBytes(): Promise<number> {
    return this.op("measuring the project's memory", async () => {
      const pipeline = this.redis.pipeline();
      for (const part of PROJECT_KEY_PARTS) pipeline.call("MEMORY", "USAGE", this.keys[part], "SAMPLES", "0");
      const results = (await pipeline.exec()) ?? [];
      let total = 0;
      for (const [err, value] of results) {
        if (err) throw err;
        total += typeof value === "number" ? value : 0;
      }
      return total;
    });
  }
}
