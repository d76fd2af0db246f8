// One project's index in Redis: files, ast, meta, stat, indexes and config hashes (keys.ts).
// Writes take already-serialised values so batching on the main thread stays cheap; whole-hash reads
// go through HSCAN so neither Redis nor the event loop is blocked by one giant reply.
import type { Redis } from "ioredis";
import type { FileAST, FileMeta } from "../../workers/ast-types.js";
import type { KnownFileState, WireHashes } from "../../workers/protocol.js";
import type { GraphRewrite, IndexStorePort, RecordBatch } from "../../pipeline/index-store-port.js";
import { INDEX_RUN_FIELD } from "../../pipeline/index-run-mark.js";
import { holdAofRewrites, type AofRewriteRelease } from "./aof-rewrite-hold.js";
import { redisOp, toRedisError } from "./connection.js";
import { PROJECT_KEY_PARTS, projectKeys, projectNameFor, type ProjectKeyPart, type ProjectKeys } from "./keys.js";
import { GraphWrites, type StringEntries } from "./graph-writes.js";
import { execTransaction, FramedCommand, type Pipeline } from "./redis-commands.js";
import { writeIndexBatch, type IndexBatch, type IndexBatchIo } from "./index-batch.js";
import { indexRunLeaseHeld, waitForIndexRunLease } from "./index-run-lease.js";
import { fileLines, type FileLines } from "./file-lines.js";
import { cpuSecondsIn, keysMemoryBytes, processIdIn, usedMemoryIn, waitForPersistenceIdle } from "./server-stats.js";
import { corruptEntry, decodeStat, parseAst, parseMeta, parseStoredFile, type StoredFile } from "./stored-values.js";
import { newerSchemaError, SCHEMA_VERSION, storedSchema } from "./schema-version.js";

export type { FieldEntries } from "./redis-commands.js";
export type { IndexBatch } from "./index-batch.js";
export type { FileLines } from "./file-lines.js";

export { SCHEMA_VERSION } from "./schema-version.js";

export type IndexName = "symbols" | "deps_graph" | "call_graph";

/** Fields of `project:{name}:config` other modules may set. `schemaVersion` is managed here. */
export type ConfigField = "root" | "last_indexed" | "settings" | "whitelist" | (string & {});

const SCHEMA_FIELD = "schemaVersion";

const DEFAULT_SCAN_COUNT = 500;

export class ProjectStore implements IndexStorePort {
  readonly name: string;
  readonly keys: ProjectKeys;
  /** The connection; other modules of src/main/store (index queries, sessions) share it. */
  readonly redis: Redis;

  /** The server is ipuaro's own (managed), so the store may tune it for a bulk load. */
  private readonly ownServer: boolean;
  /** `ipuaro index --force`: an index a newer ipuaro wrote is rebuilt instead of refused. */
  private readonly replaceNewerSchema: boolean;
  /** What the store lends the writers and the index-run lease: connection, keys, error mapping. */
  private readonly io: IndexBatchIo;
  private readonly graph: GraphWrites;

  constructor(opts: { redis: Redis; project: string; ownServer?: boolean; replaceNewerSchema?: boolean }) {
    this.redis = opts.redis;
    this.name = opts.project;
    this.keys = projectKeys(opts.project);
    this.ownServer = opts.ownServer ?? false;
    this.replaceNewerSchema = opts.replaceNewerSchema ?? false;
    this.io = {
      redis: this.redis,
      keys: this.keys,
      op: (action, fn) => this.op(action, fn),
      execPipeline: (action, pipeline) => this.execPipeline(action, pipeline),
      sendFramed: (action, bytes) => this.sendFramed(action, bytes),
    };
    this.graph = new GraphWrites(this.io);
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

  claimIndexRun(by: string, onWait: (holder: string) => void, signal?: AbortSignal): Promise<() => Promise<void>> {
    return waitForIndexRunLease(this.io, this.name, by, onWait, signal);
  }

  /** Whether a process holds the index-run lease now (an index run, or `ipuaro index --drop`, is under way). */
  indexRunHeld(): Promise<boolean> {
    return indexRunLeaseHeld(this.io, this.name);
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

  /** Removals, framed commands, then HSETs, in an order that never lands a stat entry before its file (index-batch.ts). */
  writeBatch(batch: IndexBatch): Promise<void> {
    return writeIndexBatch(this.io, batch);
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
    return file ? fileLines(path, file, start, end) : null;
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

  writeGraph(meta: StringEntries, indexFields: StringEntries, clearIndexes: boolean): Promise<void> {
    return this.graph.write(meta, indexFields, clearIndexes);
  }

  beginGraphRewrite(): GraphRewrite {
    return this.graph.beginRewrite();
  }

  writeGraphDelta(meta: StringEntries, setFields: StringEntries, deleteFields: readonly string[]): Promise<void> {
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

  /**
   * Waits (up to `timeoutMs`) until Redis runs no background AOF rewrite or RDB save, so a measurement
   * that follows does not share the CPU with one. True when it went quiet in time.
   */
  waitForPersistenceIdle(timeoutMs: number): Promise<boolean> {
    return waitForPersistenceIdle(() => this.op("reading persistence state", () => this.redis.info("persistence")), timeoutMs);
  }

  /** CPU seconds the Redis server has used so far, its forks (AOF rewrites, saves) included. */
  cpuSeconds(): Promise<number> {
    return this.op("reading CPU usage", async () => cpuSecondsIn(await this.redis.info("cpu")));
  }

  /** The server's pid on its own host (INFO server); 0 when it does not say. */
  serverProcessId(): Promise<number> {
    return this.op("reading the server's pid", async () => processIdIn(await this.redis.info("server")));
  }

  /** Redis's whole used_memory (INFO memory), in bytes. */
  memoryUsedBytes(): Promise<number> {
    return this.op("reading memory usage", async () => usedMemoryIn(await this.redis.info("memory")));
  }

  /** Bytes held by this project's keys (MEMORY USAGE … SAMPLES 0: exact, O(fields)). */
  projectMemoryBytes(): Promise<number> {
    return this.op("measuring the project's memory", () => keysMemoryBytes(this.redis, PROJECT_KEY_PARTS.map((p) => this.keys[p])));
  }
}
