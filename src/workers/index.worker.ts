// Piscina entry: the per-file work of indexing. Reads synchronously (async reads of many small files are
// an order of magnitude slower here), hashes with xxHash64, parses and extracts, and returns records
// whose Redis values are already JSON strings so the main thread only has to batch them.
import fs from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { Piscina } from "piscina";
import xxhash from "xxhash-wasm";
import { ValueArena } from "./value-arena.js";
import { extractFile, languageForPath } from "./extract/index.js";
import type { FileData, ImportInfo } from "./ast-types.js";
import type { GraphFacts, IndexedRecord, IndexTask, IndexTaskResult } from "./protocol.js";

const { h64Raw } = await xxhash();

// node tree-sitter frees a native tree only when V8 finalises its wrapper, and V8 feels no pressure from
// native memory: without an occasional full GC a worker's RSS grows by gigabytes on a large repo.
v8.setFlagsFromString("--expose-gc");
const collectGarbage = vm.runInNewContext("gc") as () => void;
/** Source bytes parsed between forced collections. */
const GC_EVERY_BYTES = 24 * 1024 * 1024;
let parsedSinceGc = 0;
/** A thread runs one task at a time, so one arena serves them all. */
const sharedArena = new ValueArena();
const utf8 = new TextDecoder("utf-8", { fatal: true });

export function hashBytes(buf: Uint8Array): string {
  return h64Raw(buf).toString(16).padStart(16, "0");
}

/**
 * The call graph keeps calls that can land in the project: to a symbol declared in the file, to a binding
 * imported from an internal module, or to `this.…`. Calls to builtins and external packages
 * (`console.log`, `arr.map`, `React.useState`) would be most of the payload and resolve to nothing.
 */
function projectCalls(facts: GraphFacts, imports: ImportInfo[]): GraphFacts["calls"] {
  const local = new Set<string>();
  for (const s of facts.symbols) local.add(s.name.split(".")[0] as string);
  for (const i of imports) if (i.type === "internal" && i.name !== "*") local.add(i.name);
  return facts.calls.filter((c) => {
    const dot = c.callee.indexOf(".");
    const head = dot === -1 ? c.callee : c.callee.slice(0, dot);
    return head === "this" || local.has(head);
  });
}

function markInternalImports(imports: ImportInfo[], internal: NonNullable<IndexTask["internalSpecifiers"]>): void {
  for (const imp of imports) {
    if (imp.type !== "external") continue;
    if (internal.exact.includes(imp.from) || internal.prefixes.some((p) => imp.from.startsWith(p))) imp.type = "internal";
  }
}

function extname(p: string): string {
  return path.extname(p).toLowerCase();
}

/** Splits on LF or CRLF; a trailing newline does not produce an extra empty line. */
export function splitLines(text: string): string[] {
  // A plain split is about twice as fast as the regex one, and most files have no CR at all.
  const lines = text.includes("\r") ? text.split(/\r?\n/) : text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function indexOne(task: IndexTask, rel: string, timings: IndexTaskResult["timings"]): { record: IndexedRecord; bytes: number } {
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
  if (known && known.hash === hash) return { record: { path: rel, kind: "unchanged", size, mtimeMs, hash }, bytes: buf.length };

  const ext = extname(rel);
  if (task.binaryExtensions.includes(ext) || buf.indexOf(0) !== -1) {
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

  t = performance.now();
  const language = languageForPath(rel);
  const extracted = language ? extractFile(text, language) : null;
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
    ? { imports: extracted.facts.imports, exports: [], symbols: extracted.facts.symbols, calls: projectCalls(extracted.facts, extracted.ast.imports) }
    : { imports: [], exports: [], symbols: [], calls: [] };
  const complexity = extracted?.complexity ?? { loc: 0, nesting: 0, imports: 0, score: 0 };
  const lines = splitLines(text);
  const data: FileData = { lines, hash, size, lastModified: mtimeMs };
  const ast = extracted?.ast ?? { imports: [], exports: [], functions: [], classes: [], types: [], parseError: false };
  const record: IndexedRecord = {
    path: rel,
    kind: "text",
    size,
    mtimeMs,
    hash,
    language,
    parseError: ast.parseError,
    lineCount: lines.length,
    complexity,
    fileJson: JSON.stringify(data),
    astJson: JSON.stringify(ast),
    ...(task.packValues ? {} : { facts }),
    factsJson: JSON.stringify({ facts, complexity }),
  };
  timings.serialise += performance.now() - t;
  return { record, bytes: buf.length };
}

/** Moves a record's JSON strings into the arena; the views are filled in once the arena is final. */
function packRecord(r: IndexedRecord, arena: ValueArena, fill: (() => void)[], views: () => Uint8Array[]): void {
  if (r.kind === "text") {
    const [f, a, x] = [arena.add(r.fileJson as string), arena.add(r.astJson as string), arena.add(r.factsJson as string)];
    fill.push(() => {
      const v = views();
      r.fileJson = v[f] as Uint8Array;
      r.astJson = v[a] as Uint8Array;
      r.factsJson = v[x] as Uint8Array;
    });
  } else if (r.kind === "binary") {
    const f = arena.add(r.fileJson as string);
    fill.push(() => void (r.fileJson = views()[f] as Uint8Array));
  }
}

/**
 * Frees every tree no longer referenced and runs its finalizer now, while the thread is alive: a thread
 * terminated with finalizers still queued can abort the process (node-addon-api throws from a finalizer
 * that runs during teardown).
 */
async function settle(): Promise<IndexTaskResult> {
  collectGarbage();
  for (let turn = 0; turn < 2; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
  parsedSinceGc = 0;
  return { records: [], timings: { readHash: 0, parse: 0, serialise: 0 }, bytes: 0 };
}

export default function runIndexTask(task: IndexTask): IndexTaskResult | Promise<IndexTaskResult> {
  if (task.mode === "settle") return settle();
  const timings = { readHash: 0, parse: 0, serialise: 0 };
  const records: IndexedRecord[] = [];
  const arena = task.packValues ? sharedArena : null;
  arena?.reset();
  const fill: (() => void)[] = [];
  let finalViews: Uint8Array[] = [];
  let bytes = 0;
  for (const rel of task.paths) {
    try {
      const r = indexOne(task, rel, timings);
      bytes += r.bytes;
      if (task.mode !== "index") continue;
      if (arena) packRecord(r.record, arena, fill, () => finalViews);
      records.push(r.record);
    } catch (err) {
      records.push({ path: rel, kind: "error", message: (err as Error).message });
    }
  }
  const result: IndexTaskResult = { records, timings, bytes };
  if (!arena || arena.isEmpty) return result;
  const t = performance.now();
  const { buffer, views } = arena.finish();
  finalViews = views;
  for (const f of fill) f();
  timings.serialise += performance.now() - t;
  // Piscina's movable protocol: the buffer is transferred, the views in the result arrive over it.
  // (Piscina unwraps it, so pool callers still receive an IndexTaskResult.)
  const movable = { [Piscina.transferableSymbol]: [buffer], [Piscina.valueSymbol]: result };
  return Piscina.move(movable as unknown as ArrayBuffer) as unknown as IndexTaskResult;
}
