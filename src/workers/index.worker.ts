// Piscina entry: the per-file work of indexing. Reads synchronously (async reads of many small files are
// an order of magnitude slower here), hashes with xxHash64, parses and extracts, and returns records
// whose Redis values are already JSON strings so the main thread only has to batch them.
import fs from "node:fs";
import os from "node:os";
import { workerData } from "node:worker_threads";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { Piscina } from "piscina";
import xxhash from "xxhash-wasm";
import { ValueArena } from "./value-arena.js";
import { fileDataJson, fileDataJsonRoom, writeFileDataJson } from "./file-json.js";
import { extractFileSteps, languageForPath, type ExtractResult } from "./extract/index.js";
import { isGeneratedCode } from "./extract/generated-code.js";
import { utf16Bom } from "./utf16-bom.js";
import type { ImportInfo } from "./ast-types.js";
import { isInternalSpecifier, symlinkHash, type GraphFacts, type SerialisedValue, type SourceLanguage, type IndexedRecord, type IndexTask, type IndexTaskResult, type InternalSpecifiers, type WireHashes } from "./protocol.js";

const { h64Raw } = await xxhash();

// node tree-sitter frees a native tree only when V8 finalises its wrapper, and V8 feels no pressure from
// native memory: without an occasional full GC a worker's RSS grows by gigabytes on a large repo.
v8.setFlagsFromString("--expose-gc");
const collectGarbage = vm.runInNewContext("gc") as () => void;
/** Source bytes parsed between forced collections. */
const GC_EVERY_BYTES = 24 * 1024 * 1024;
/** Characters of a very large file parsed between forced collections (see extract()). */
const PIECES_PER_GC = 4_000_000;
let parsedSinceGc = 0;
/** A task fills and empties it in one synchronous stretch (no await between), so one serves all. */
const sharedArena = new ValueArena();
const utf8 = new TextDecoder("utf-8", { fatal: true });
/** This thread's id as /proc/self/task lists it (Linux), reported with every result; null elsewhere. */
const osThreadId = (() => {
  try {
    return Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
  } catch {
    return null;
  }
})();

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

// A pool for the UI runs its threads below the main thread's priority (setpriority on a thread id is
// per thread on Linux; elsewhere it would renice the whole process, so it is not done there).
const niceness = (workerData as { niceness?: number } | null)?.niceness;
if (niceness && osThreadId !== null) {
  try {
    os.setPriority(osThreadId, niceness);
  } catch {
    // Not allowed or not supported: the threads run at the usual priority.
  }
}

export function hashBytes(buf: Uint8Array): string {
  return h64Raw(buf).toString(16).padStart(16, "0");
}

/**
 * The call graph keeps calls that can land in the project: to a symbol declared in the file, to a binding
 * imported from an internal module, or to `this.…`. Calls to builtins and external packages
 * (`console.log`, `arr.map`, `React.useState`) would be most of the payload and resolve to nothing.
 */
function projectCalls(facts: GraphFacts, imports: ImportInfo[]): GraphFacts["calls"] {
  const calls = facts.calls;
  if (!calls.length) return calls;
  const local = new Set<string>();
  for (const s of facts.symbols) {
    const name = s.name;
    const dot = name.indexOf(".");
    if (dot === -1) {
      local.add(name);
      continue;
    }
    local.add(name.slice(0, dot));
    // Inside `namespace util`, `assertEqual()` calls `util.assertEqual` (resolveCalls looks there).
    if (s.kind !== "method") local.add(name.slice(name.lastIndexOf(".") + 1));
  }
  for (const i of imports) if (i.type === "internal" && i.name !== "*") local.add(i.name);
  // A loop, not filter(): ~360K call sites on a 12K-file project, nearly all of them dropped.
  const kept: GraphFacts["calls"] = [];
  for (const c of calls) {
    const callee = c.callee;
    const dot = callee.indexOf(".");
    const head = dot === -1 ? callee : callee.slice(0, dot);
    if (head === "this" || local.has(head)) kept.push(c);
  }
  return kept;
}

function markInternalImports(imports: ImportInfo[], internal: InternalSpecifiers): void {
  for (const imp of imports) if (imp.type === "external" && isInternalSpecifier(imp.from, internal)) imp.type = "internal";
}

function extname(p: string): string {
  return path.extname(p).toLowerCase();
}

/** The `files` value of a file whose content is the index's already, under a new mtime (undefined: not UTF-8 text after all). */
function touchedFileJson(rel: string, buf: Buffer, binaryExtensions: readonly string[], tail: { hash: string; size: number; lastModified: number }): SerialisedValue | undefined {
  const binaryExtension = binaryExtensions.includes(extname(rel));
  if (!binaryExtension && utf16Bom(buf)) return undefined;
  if (binaryExtension || buf.indexOf(0) !== -1) return JSON.stringify({ binary: true, ...tail });
  try {
    utf8.decode(buf);
  } catch {
    return undefined;
  }
  return fileDataJson(buf, tail);
}

/** A framed task writes a text file's `files` value straight from its bytes (see frameRecords). */
const NOT_FRAMED_YET = new Uint8Array(0);

interface IndexedFile {
  record: IndexedRecord;
  bytes: number;
  /** A text file's bytes, kept for frameRecords when the task frames its values. */
  source?: Uint8Array;
}

/**
 * Extracts a file. A very large JS/TS file comes in pieces (extract/source-pieces.ts): every
 * PIECES_PER_GC characters the pieces' trees are collected and their finalisers given a turn of the
 * event loop to run, so the thread holds a few pieces' trees at a time, not the whole file's (≈ 45 bytes
 * per character: 1.9 GB for a 40 MB file).
 */
async function extract(text: string, language: SourceLanguage): Promise<ExtractResult> {
  const steps = extractFileSteps(text, language);
  let sinceGc = 0;
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    sinceGc += step.value;
    // Not after every piece: a full collection walks the file's AST built so far, which grows with it.
    if (sinceGc < PIECES_PER_GC) continue;
    sinceGc = 0;
    collectGarbage();
    await nextTurn();
  }
}

async function indexOne(task: IndexTask, rel: string, timings: IndexTaskResult["timings"]): Promise<IndexedFile> {
  const abs = path.join(task.root, rel);
  let t = performance.now();
  let st: fs.Stats;
  try {
    st = fs.lstatSync(abs);
  } catch {
    return { record: { path: rel, kind: "missing" }, bytes: 0 };
  }
  if (st.isSymbolicLink()) {
    // Recorded, never followed: a link loop or a link out of the project is harmless.
    const target = fs.readlinkSync(abs);
    const known = task.mode === "index" ? task.known?.[rel] : undefined;
    if (known?.hash === symlinkHash(target)) return { record: { path: rel, kind: "symlink", target, fileJson: "", unchanged: true }, bytes: 0 };
    return { record: { path: rel, kind: "symlink", target, fileJson: JSON.stringify({ symlink: true, target }) }, bytes: 0 };
  }
  if (!st.isFile()) return { record: { path: rel, kind: "missing" }, bytes: 0 };
  const size = st.size;
  const mtimeMs = Math.floor(st.mtimeMs);
  const known = task.known?.[rel];
  if (task.mode === "index" && known && known.size === size && known.mtimeMs === mtimeMs) {
    timings.readHash += performance.now() - t;
    return { record: { path: rel, kind: "unchanged", size, mtimeMs, hash: known.hash }, bytes: 0 };
  }
  const buf = fs.readFileSync(abs);
  const hash = task.mode === "index" ? hashBytes(buf) : "";
  timings.readHash += performance.now() - t;
  if (known && known.hash === hash) {
    // Touched, not changed: only the stored lastModified is out of date (a stale one made every read
    // tool hash the file again to trust its copy).
    const fileJson = known.mtimeMs !== mtimeMs ? touchedFileJson(rel, buf, task.binaryExtensions, { hash, size, lastModified: mtimeMs }) : undefined;
    return { record: { path: rel, kind: "unchanged", size, mtimeMs, hash, ...(fileJson ? { fileJson } : {}) }, bytes: buf.length };
  }

  const ext = extname(rel);
  const binaryExtension = task.binaryExtensions.includes(ext);
  // UTF-16 text has NULs throughout: its byte order mark is looked for first (utf16-bom.ts).
  if (!binaryExtension && utf16Bom(buf)) return { record: { path: rel, kind: "nonUtf8", size, mtimeMs }, bytes: buf.length };
  if (binaryExtension || buf.indexOf(0) !== -1) {
    const fileJson = JSON.stringify({ binary: true, hash, size, lastModified: mtimeMs });
    return { record: { path: rel, kind: "binary", size, mtimeMs, hash, fileJson }, bytes: buf.length };
  }
  let text: string;
  try {
    text = utf8.decode(buf);
  } catch {
    return { record: { path: rel, kind: "nonUtf8", size, mtimeMs }, bytes: buf.length };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // A lone CR ends a line for the index (splitLines), but tree-sitter counts rows by LF only. CR → LF
  // keeps every offset, so rows then match the stored lines.
  if (text.includes("\r") && /\r(?!\n)/.test(text)) text = text.replace(/\r(?!\n)/g, "\n");

  t = performance.now();
  const language = languageForPath(rel);
  const extracted = language ? await extract(text, language) : null;
  parsedSinceGc += buf.length;
  if (parsedSinceGc > GC_EVERY_BYTES) {
    parsedSinceGc = 0;
    collectGarbage();
  }
  timings.parse += performance.now() - t;
  if (task.mode === "parse-only") {
    return { record: { path: rel, kind: "unchanged", size, mtimeMs, hash }, bytes: buf.length };
  }

  t = performance.now();
  if (extracted && task.internalSpecifiers) markInternalImports(extracted.ast.imports, task.internalSpecifiers);
  // The graph pass reads imports, symbols and calls; exports live in the AST, so they are not sent twice.
  const facts: GraphFacts = extracted
    ? { imports: extracted.facts.imports, exports: [], symbols: extracted.facts.symbols, calls: projectCalls(extracted.facts, extracted.ast.imports), ...(extracted.facts.defaultName ? { defaultName: extracted.facts.defaultName } : {}), ...(extracted.facts.moduleName ? { moduleName: extracted.facts.moduleName } : {}) }
    : { imports: [], exports: [], symbols: [], calls: [] };
  const complexity = extracted?.complexity ?? { loc: 0, nesting: 0, imports: 0, score: 0 };
  if (extracted && language !== "json" && language !== "yaml" && isGeneratedCode(rel, text)) complexity.generated = true;
  const ast = extracted?.ast ?? { imports: [], exports: [], functions: [], classes: [], types: [], parseError: false };
  const record: IndexedRecord = {
    path: rel,
    kind: "text",
    size,
    mtimeMs,
    hash,
    language,
    parseError: ast.parseError,
    complexity,
    fileJson: task.wire ? NOT_FRAMED_YET : fileDataJson(buf, { hash, size, lastModified: mtimeMs }),
    astJson: JSON.stringify(ast),
    ...(task.wire ? {} : { facts }),
    // Markers go with the facts (internal, rewritten with every change of the file): get_todos reads them.
    factsJson: JSON.stringify(extracted?.todos ? { facts, complexity, todos: extracted.todos } : { facts, complexity }),
  };
  timings.serialise += performance.now() - t;
  return { record, bytes: buf.length, ...(task.wire ? { source: buf } : {}) };
}

type ValueField = "fileJson" | "astJson" | "factsJson";

/** A text file's `files` value, written into the arena from the file's bytes; returns its slot. */
function bulkFileData(arena: ValueArena, source: Uint8Array, r: Extract<IndexedRecord, { kind: "text" }>): number {
  const tail = { hash: r.hash, size: r.size, lastModified: r.mtimeMs };
  const write = (bytes: Uint8Array, at: number) => writeFileDataJson(source, tail, bytes, at);
  // Lines add three bytes each (`","`); a guess that close keeps the header's width right.
  const guess = source.length + (source.length >> 4);
  const slot = arena.bulkWritten(guess, fileDataJsonRoom(source.length), write);
  if (slot !== -1) return slot;
  const retried = arena.bulkWritten(guess, fileDataJsonRoom(source.length, true), write);
  if (retried === -1) throw new Error("file JSON outgrew its worst-case room"); // cannot happen: see writeFileDataJson
  return retried;
}

/** A value that went to Redis in the task's wire, of which the main thread needs no copy. */
const SENT_IN_WIRE = "";

/**
 * Frames the records' values as one HSET per hash (files: text, binary and symlink entries; ast and
 * facts: text files). The main thread reads only the facts (for the graph): the step returned swaps
 * each record's facts for a view of its bytes, and the other values are dropped from the records.
 */
function frameRecords(records: IndexedRecord[], sources: Map<IndexedRecord, Uint8Array>, arena: ValueArena, wire: WireHashes): (view: (slot: number) => Uint8Array) => void {
  const swaps: [record: Record<ValueField, unknown>, slot: number][] = [];
  const hset = (key: string, field: ValueField, rows: IndexedRecord[]) => {
    if (!rows.length) return;
    arena.beginCommand(2 + rows.length * 2, "HSET", key);
    for (const r of rows) {
      const row = r as unknown as Record<ValueField, unknown>;
      arena.bulk(r.path);
      const source = field === "fileJson" && r.kind === "text" ? sources.get(r) : undefined;
      const slot = source ? bulkFileData(arena, source, r as Extract<IndexedRecord, { kind: "text" }>) : arena.bulk(row[field] as string);
      if (field === "factsJson") swaps.push([row, slot]);
      else row[field] = SENT_IN_WIRE;
    }
    arena.endCommand();
  };
  const text = records.filter((r) => r.kind === "text");
  hset(wire.files, "fileJson", records.filter((r) => r.kind === "text" || r.kind === "binary" || (r.kind === "symlink" && !r.unchanged)));
  hset(wire.ast, "astJson", text);
  hset(wire.facts, "factsJson", text);
  return (view) => {
    for (const [row, slot] of swaps) row.factsJson = view(slot);
  };
}

/**
 * Frees every tree no longer referenced and runs its finalizer now, while the thread is alive: a thread
 * terminated with finalizers still queued can abort the process (node-addon-api throws from a finalizer
 * that runs during teardown).
 */
async function settle(): Promise<IndexTaskResult> {
  collectGarbage();
  for (let turn = 0; turn < 2; turn++) await nextTurn();
  parsedSinceGc = 0;
  return { records: [], timings: { readHash: 0, parse: 0, serialise: 0 }, bytes: 0 };
}

export default async function runIndexTask(task: IndexTask): Promise<IndexTaskResult> {
  if (task.mode === "settle") return settle();
  // The pool hands a thread its next task while it works on one; those arrive back to back, and
  // without this turn of the event loop between them tree-sitter's finalizers would never run.
  await nextTurn();
  const timings = { readHash: 0, parse: 0, serialise: 0 };
  const records: IndexedRecord[] = [];
  const sources = new Map<IndexedRecord, Uint8Array>();
  let bytes = 0;
  for (const rel of task.paths) {
    try {
      const r = await indexOne(task, rel, timings);
      bytes += r.bytes;
      if (task.mode === "index") records.push(r.record);
      if (r.source) sources.set(r.record, r.source);
    } catch (err) {
      records.push({ path: rel, kind: "error", message: (err as Error).message });
    }
  }
  const result: IndexTaskResult = { records, timings, bytes };
  if (osThreadId !== null) result.thread = osThreadId;
  if (!task.wire || task.mode !== "index") return result;
  const t = performance.now();
  sharedArena.reset();
  const swapInViews = frameRecords(records, sources, sharedArena, task.wire);
  if (sharedArena.isEmpty) return result;
  const { buffer, view, commands } = sharedArena.finish();
  swapInViews(view);
  result.wire = commands;
  timings.serialise += performance.now() - t;
  // Piscina's movable protocol: the buffer is transferred, the views in the result arrive over it.
  // (Piscina unwraps it, so pool callers still receive an IndexTaskResult.)
  const movable = { [Piscina.transferableSymbol]: [buffer], [Piscina.valueSymbol]: result };
  return Piscina.move(movable as unknown as ArrayBuffer) as unknown as IndexTaskResult;
}
