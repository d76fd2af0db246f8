// Reads of single fields of the `indexes` hash (`sym:`, `deps:`, `calls:`) and of several `meta` entries,
// which the search and analysis tools need and ProjectStore has no method for. Everything goes through
// redisOp, so a lost connection surfaces as the same typed redis error as the store's own reads.
import type { Redis } from "ioredis";
import type { FileMeta } from "../../workers/ast-types.js";
import type { ResolvedCall, SymbolLocation } from "../../pipeline/graph/graph-builder.js";
import { INDEX_FIELD } from "../../pipeline/graph/graph-serialiser.js";
import { redisOp } from "./connection.js";
import type { ProjectKeys } from "./keys.js";
import type { ProjectStore } from "./project-store.js";
import { corruptEntry, parseMeta, parseStoredFile } from "./stored-values.js";

export type { ResolvedCall, SymbolLocation } from "../../pipeline/graph/graph-builder.js";

/** What the queries need: a connection and the project's keys. */
export interface IndexReader {
  readonly redis: Redis;
  readonly keys: Pick<ProjectKeys, "indexes" | "meta">;
  readonly project: string;
}

/** The reader behind a ProjectStore. */
export function indexReaderOf(store: ProjectStore): IndexReader {
  return { redis: store.redis, keys: store.keys, project: store.name };
}

const SYMBOL_PREFIX = INDEX_FIELD.symbol("");
const HSCAN_COUNT = 1000;

function parseArray<T>(key: string, field: string, raw: string): T[] {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw corruptEntry(key, field, "not valid JSON");
  }
  if (!Array.isArray(value)) throw corruptEntry(key, field, "not a JSON array");
  return value as T[];
}

/** Escapes Redis glob metacharacters so a name is matched literally by HSCAN MATCH. */
export function globLiteral(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/** Declarations of one name from the symbol index (`Class.method` names included); [] when unknown. */
export function symbolLocations(reader: IndexReader, name: string): Promise<SymbolLocation[]> {
  const field = INDEX_FIELD.symbol(name);
  return redisOp(reader.redis, `reading symbol ${name} (project ${reader.project})`, async () => {
    const raw = await reader.redis.hget(reader.keys.indexes, field);
    return raw === null ? [] : parseArray<SymbolLocation>(reader.keys.indexes, field, raw);
  });
}

/**
 * Every indexed symbol whose field matches a glob over the name (`*` = all), one HSCAN chunk at a time.
 * The glob is applied by Redis, so callers that want one method name across classes (`*.add`) move
 * only the matching entries.
 */
export async function* scanSymbols(reader: IndexReader, nameGlob = "*"): AsyncGenerator<Array<[string, SymbolLocation[]]>> {
  let cursor = "0";
  do {
    const [next, flat] = await redisOp(reader.redis, `scanning the symbol index (project ${reader.project})`, () =>
      reader.redis.hscan(reader.keys.indexes, cursor, "MATCH", `${globLiteral(SYMBOL_PREFIX)}${nameGlob}`, "COUNT", HSCAN_COUNT),
    );
    cursor = next;
    const chunk: Array<[string, SymbolLocation[]]> = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const field = flat[i]!;
      chunk.push([field.slice(SYMBOL_PREFIX.length), parseArray<SymbolLocation>(reader.keys.indexes, field, flat[i + 1]!)]);
    }
    if (chunk.length) yield chunk;
  } while (cursor !== "0");
}

const CALLS_PREFIX = INDEX_FIELD.calls("");

/**
 * Every call site whose target is one of `targets` (`file#name`), with the calling file: the call graph
 * read in HSCAN chunks, each field parsed only when its text names a target.
 */
export async function callsTargeting(reader: IndexReader, targets: ReadonlySet<string>): Promise<Array<ResolvedCall & { path: string }>> {
  const out: Array<ResolvedCall & { path: string }> = [];
  if (!targets.size) return out;
  const quoted = [...targets].map((t) => JSON.stringify(t));
  let cursor = "0";
  do {
    const [next, flat] = await redisOp(reader.redis, `scanning the call graph (project ${reader.project})`, () =>
      reader.redis.hscan(reader.keys.indexes, cursor, "MATCH", `${globLiteral(CALLS_PREFIX)}*`, "COUNT", HSCAN_COUNT),
    );
    cursor = next;
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const raw = flat[i + 1]!;
      if (!quoted.some((q) => raw.includes(q))) continue;
      const field = flat[i]!;
      for (const c of parseArray<ResolvedCall>(reader.keys.indexes, field, raw)) if (c.target && targets.has(c.target)) out.push({ ...c, path: field.slice(CALLS_PREFIX.length) });
    }
  } while (cursor !== "0");
  return out;
}

/** The call graph's call sites of several files (one HMGET); files without calls are absent. */
export function callSitesOf(reader: IndexReader, paths: readonly string[]): Promise<Map<string, ResolvedCall[]>> {
  return redisOp(reader.redis, `reading call sites (project ${reader.project})`, async () => {
    const out = new Map<string, ResolvedCall[]>();
    if (!paths.length) return out;
    const fields = paths.map((p) => INDEX_FIELD.calls(p));
    const values = await reader.redis.hmget(reader.keys.indexes, ...fields);
    values.forEach((raw, i) => {
      if (raw !== null) out.set(paths[i]!, parseArray<ResolvedCall>(reader.keys.indexes, fields[i]!, raw));
    });
    return out;
  });
}

/** Metadata of several files (one HMGET); unknown paths are absent. */
export function metasOf(reader: IndexReader, paths: readonly string[]): Promise<Map<string, FileMeta>> {
  return redisOp(reader.redis, `reading file metadata (project ${reader.project})`, async () => {
    const out = new Map<string, FileMeta>();
    if (!paths.length) return out;
    const values = await reader.redis.hmget(reader.keys.meta, ...paths);
    values.forEach((raw, i) => {
      if (raw !== null) out.set(paths[i]!, parseMeta(reader.keys.meta, paths[i]!, raw));
    });
    return out;
  });
}

export interface IndexedText {
  path: string;
  lines: string[];
  hash: string;
}

export interface TextScanOptions {
  /** Only paths equal to this or below it (a folder, `/`-separated, no trailing slash). */
  under?: string;
  /** Test on the stored JSON before it is parsed: files failing it are skipped cheaply. */
  mayContain?: (rawJson: string) => boolean;
}

/** Files read per HMGET by readIndexedTexts. */
const TEXT_READ_CHUNK = 200;

/** The given indexed text files (HMGET in chunks), skipping those whose stored JSON fails `mayContain`. */
export async function* readIndexedTexts(store: ProjectStore, paths: readonly string[], mayContain?: (rawJson: string) => boolean): AsyncGenerator<IndexedText> {
  for (let i = 0; i < paths.length; i += TEXT_READ_CHUNK) {
    const chunk = paths.slice(i, i + TEXT_READ_CHUNK);
    const values = await redisOp(store.redis, `reading files (project ${store.projectName})`, () => store.redis.hmget(store.keys.files, ...chunk));
    for (const [j, raw] of values.entries()) {
      const path = chunk[j] as string;
      if (raw === null || (mayContain && !mayContain(raw))) continue;
      const file = parseStoredFile(store.keys.files, path, raw);
      if (file.kind === "text") yield { path, lines: file.lines, hash: file.hash };
    }
  }
}

/**
 * Indexed text files, streamed from the `files` hash. The raw prefilter runs before JSON.parse, which is
 * what keeps a scan of a 12K-file project cheap when only a few files can match.
 */
export async function* scanIndexedTexts(store: ProjectStore, opts: TextScanOptions = {}): AsyncGenerator<IndexedText> {
  const under = opts.under;
  // HSCAN may return a field twice when the hash changes during the scan.
  const seen = new Set<string>();
  for await (const chunk of store.scanRaw("files", 500)) {
    for (const [path, raw] of chunk) {
      if (under && path !== under && !path.startsWith(`${under}/`)) continue;
      if (seen.has(path)) continue;
      seen.add(path);
      if (opts.mayContain && !opts.mayContain(raw)) continue;
      const file = parseStoredFile(store.keys.files, path, raw);
      if (file.kind === "text") yield { path, lines: file.lines, hash: file.hash };
    }
  }
}
