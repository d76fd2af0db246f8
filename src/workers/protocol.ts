// The contract between the main thread and the index workers. Workers get paths and return records
// whose Redis values are already serialised: JSON text, or (asked to, see IndexTask.wire) whole HSET
// commands in Redis's wire format, so the main thread only hands bytes to the socket.
import type { CallSite, ComplexityScore, ExportInfo, ImportInfo } from "./ast-types.js";

export type SourceLanguage = "typescript" | "tsx" | "javascript" | "json" | "yaml";

/** What the main thread already knows of a file, to skip unchanged ones without re-parsing. */
export interface KnownFileState {
  size: number;
  mtimeMs: number;
  hash: string;
  /** The file had syntax errors when last parsed, so a run that skips it can still say so. */
  parseError?: boolean;
}

const LINK_PREFIX = "link:";
/** A symlink's `hash` in its stat entry: the target, so an unchanged link is known without reading it. */
export const symlinkHash = (target: string): string => `${LINK_PREFIX}${target}`;
/** The target a stat entry's hash names, or null when it is not a symlink's. */
export const symlinkTarget = (hash: string): string | null => (hash.startsWith(LINK_PREFIX) ? hash.slice(LINK_PREFIX.length) : null);

export interface IndexTask {
  root: string;
  /** Paths relative to root, `/`-separated. */
  paths: string[];
  /** Known state per path (warm runs). */
  known?: Record<string, KnownFileState>;
  /** Lower-cased extensions (with dot) stored as metadata only. */
  binaryExtensions: string[];
  /**
   * `index`: the full per-file work. `parse-only`: read + parse + extract, nothing hashed or serialised:
   * the baseline the bench compares a cold index against. `settle`: no files; collect garbage and let
   * tree-sitter's finalizers run (the pool does this before it ends its threads).
   */
  mode: "index" | "parse-only" | "settle";
  /**
   * Non-relative specifiers that point into the project (tsconfig path aliases, workspace package names):
   * imports matching them are typed internal instead of external.
   */
  internalSpecifiers?: InternalSpecifiers;
  /**
   * Frame the records' values as Redis HSET commands into these hashes and return them as one
   * transferred buffer (`IndexTaskResult.wire`); the records' values become byte views into it.
   */
  wire?: WireHashes;
}

/** Bare specifiers of the project itself: workspace package names and tsconfig `paths` aliases. */
export interface InternalSpecifiers {
  exact: string[];
  prefixes: string[];
}

export function isInternalSpecifier(spec: string, internal: InternalSpecifiers): boolean {
  return internal.exact.includes(spec) || internal.prefixes.some((p) => spec.startsWith(p));
}

/** The hashes that framed values go to. */
export interface WireHashes {
  files: string;
  ast: string;
  facts: string;
}

/** A value already serialised for Redis: JSON text, or its UTF-8 bytes when the task framed its values. */
export type SerialisedValue = string | Uint8Array;

/** The facts the graph pass needs about a parsed file, kept small so they cross threads cheaply. */
export interface GraphFacts {
  /**
   * `as`: the name a re-export exports the import under, when it differs (`export { a as b } from`;
   * `export * as ns from` is a `*` edge exported as `ns`). `imported`: the name the module itself gives
   * an import bound under another (`import { a as b }` → "a", `import * as ns` → "*"); a default import
   * has none, and its local name stands for the module's default export.
   */
  imports: (Pick<ImportInfo, "from" | "name" | "isTypeOnly" | "isReExport" | "isDynamic"> & { as?: string; imported?: string })[];
  exports: Pick<ExportInfo, "name" | "type" | "line" | "from">[];
  /** Declared top-level symbols: functions, classes, interfaces, types, enums, and `Class.method`. */
  symbols: { name: string; kind: string; line: number }[];
  /** Calls that can land in the project (local symbols, internal imports, `this.…`); see the worker. */
  calls: CallSite[];
  /**
   * The declared name of the module's default export (`export default function Button`, `export default
   * Card` with Card declared here); absent when it has none or it is anonymous (then its symbol is `default`).
   */
  defaultName?: string;
  /** The declared name the module object is (`module.exports = Foo`, `export = Foo`); absent otherwise. */
  moduleName?: string;
}

export type IndexedRecord =
  | {
      path: string;
      kind: "text";
      size: number;
      mtimeMs: number;
      hash: string;
      language: SourceLanguage | null;
      parseError: boolean;
      complexity: ComplexityScore;
      /** JSON of FileData for `project:{name}:files` ("" when the task framed it: it is in the wire). */
      fileJson: SerialisedValue;
      /** JSON of FileAST for `project:{name}:ast` ("" when the task framed it). */
      astJson: SerialisedValue;
      /**
       * Absent when the task framed its values: the main thread then reads `factsJson`, so the facts
       * cross the thread once (as bytes) rather than twice.
       */
      facts?: GraphFacts;
      /** JSON of `{facts, complexity}` for `project:{name}:facts` (serialised here, not on the main thread). */
      factsJson: SerialisedValue;
    }
  /** `fileJson`: the same content under a new mtime (touch, checkout): the `files` value with the new lastModified. */
  | { path: string; kind: "unchanged"; size: number; mtimeMs: number; hash: string; fileJson?: SerialisedValue }
  | { path: string; kind: "binary"; size: number; mtimeMs: number; hash: string; fileJson: SerialisedValue }
  | { path: string; kind: "nonUtf8"; size: number; mtimeMs: number }
  /** `unchanged`: the index already holds this link with this target (nothing to write). */
  | { path: string; kind: "symlink"; target: string; fileJson: SerialisedValue; unchanged?: boolean }
  | { path: string; kind: "missing" }
  | { path: string; kind: "error"; message: string };

export interface IndexTaskResult {
  records: IndexedRecord[];
  /** Time spent inside the worker, by stage, in milliseconds. */
  timings: { readHash: number; parse: number; serialise: number };
  bytes: number;
  /**
   * With IndexTask.wire: the framed HSET commands (files, ast, facts; one per hash that got values),
   * each a complete command in Redis's wire format. The records' values are views into the same bytes.
   */
  wire?: Uint8Array[];
  /** The kernel's id of the thread that ran the task (Linux), so the bench can tell its CPU apart. */
  thread?: number;
}
