// State shared by the passes over one JS/TS file: the AST being filled and what later passes need
// (scopes for attributing calls, require() calls already recorded as imports, overload groups).
import type { ExportInfo, ExportKind, FileAST, FunctionInfo, ImportInfo } from "../ast-types.js";
import type { SourceText } from "./source-text.js";

/** A named code range that can enclose call sites: a function, `Class.method`, or a class. */
export interface Scope {
  start: number;
  end: number;
  name: string;
}

/** Overload signatures and the implementation of one function name in one container. */
export interface FunctionGroup {
  info: FunctionInfo;
  hasBody: boolean;
  bodiless: number;
  declarations: number;
  /** The group's range for call attribution; widened as declarations fold in. */
  scope: Scope;
}

export interface CodeContext {
  text: SourceText;
  ast: FileAST;
  scopes: Scope[];
  /** Start offsets of require() calls already turned into imports with their bindings. */
  recordedRequireCalls: Set<number>;
  /** Ordered [start, end, …] ranges of type positions in the declaration skeleton (see light-tree.ts). */
  typeRanges: number[];
  /** Keyed by container start offset + name, so namespace members do not fold into top-level ones. */
  functionGroups: Map<string, FunctionGroup>;
  /** Top-level declarations by name: their export kind and records whose isExported a later export sets. */
  topLevel: Map<string, TopLevelDeclaration>;
  /** Local names exported by `export { a }`, `export default a`, `export = a` or CommonJS, resolved at the end. */
  localExports: LocalExport[];
  /** Re-exports under another name (`export { a as b } from`): the edge → the name it is exported as. */
  reExportAliases: Map<ImportInfo, string>;
  /** Imports bound under another name (`import { a as b }`, `import * as ns`): the edge → the module's name ("*" for the namespace). */
  importedNames: Map<ImportInfo, string>;
  /** The local name a default export gives out (`export default Card`, `export { Card as default }`). */
  defaultLocal?: string;
  /** The local name the module itself is (`module.exports = Foo`, `export = Foo`). */
  moduleLocal?: string;
  /**
   * Declarations inside `namespace util { … }` (and the namespace itself) → their qualified name
   * (`util.assertEqual`); the AST keeps the bare one, the graph's symbols and call sites use this.
   */
  qualifiedNames: Map<object, string>;
}

export interface TopLevelDeclaration {
  kind: ExportKind;
  records: { isExported: boolean }[];
}

export interface LocalExport {
  local: string;
  /** The export record whose kind comes from the local declaration; absent when the kind is fixed. */
  info?: ExportInfo;
}

export function createCodeContext(text: SourceText): CodeContext {
  return {
    text,
    ast: { imports: [], exports: [], functions: [], classes: [], types: [], parseError: false },
    scopes: [],
    recordedRequireCalls: new Set(),
    typeRanges: [],
    functionGroups: new Map(),
    topLevel: new Map(),
    localExports: [],
    reExportAliases: new Map(),
    importedNames: new Map(),
    qualifiedNames: new Map(),
  };
}

/** Set when a declaration is written with `export`; top-level only (namespace members are not module exports). */
export interface ExportMark {
  line: number;
  isDefault: boolean;
}

export function pushExport(ctx: CodeContext, name: string, type: ExportKind, mark: ExportMark): ExportInfo {
  const info: ExportInfo = { name, type, line: mark.line };
  if (mark.isDefault) info.isDefault = true;
  ctx.ast.exports.push(info);
  return info;
}
