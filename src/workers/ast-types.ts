// The index's data model (seed 000, "TypeScript типы"). Workers produce these records; the main
// thread stores and reads them. Plain data only: every value must survive JSON and structured clone.

export type ImportKind = "internal" | "external" | "builtin";

export interface ImportInfo {
  /** Local binding name (the namespace name for `import * as ns`; `*` for side-effect-only imports and `export *`). */
  name: string;
  /** Module specifier exactly as written. */
  from: string;
  /** 1-based line of the import statement. */
  line: number;
  type: ImportKind;
  isDefault: boolean;
  /** true for `import type` / `export type … from`; such edges carry no runtime dependency. */
  isTypeOnly?: boolean;
  /** Re-export (`export … from`) rather than import. */
  isReExport?: boolean;
  /** Dynamic `import()` or `require()`. */
  isDynamic?: boolean;
}

export type ExportKind = "function" | "class" | "interface" | "type" | "const" | "enum" | "namespace" | "default" | "reexport";

export interface ExportInfo {
  name: string;
  type: ExportKind;
  line: number;
  /** `export default …` */
  isDefault?: boolean;
  /** For re-exports: the module specifier. */
  from?: string;
}

export interface FunctionInfo {
  name: string;
  lineStart: number;
  lineEnd: number;
  params: string[];
  returnType?: string;
  isAsync: boolean;
  isExported: boolean;
  /** Arrow function or function expression bound to a const/let/var. */
  isArrow?: boolean;
  isGenerator?: boolean;
  /** Overload signatures (declarations without a body) are folded into one FunctionInfo; this counts them. */
  overloads?: number;
}

export type Visibility = "public" | "private" | "protected";

export interface MethodInfo {
  name: string;
  lineStart: number;
  lineEnd: number;
  params: string[];
  returnType?: string;
  visibility: Visibility;
  isStatic: boolean;
  isAsync: boolean;
  isAbstract?: boolean;
  /** `get`/`set` accessors; plain methods leave it unset. */
  accessor?: "get" | "set";
  decorators?: string[];
}

export interface PropertyInfo {
  name: string;
  line: number;
  type?: string;
  visibility: Visibility;
  isStatic: boolean;
  isReadonly: boolean;
  isAbstract?: boolean;
  decorators?: string[];
}

export interface ClassInfo {
  name: string;
  lineStart: number;
  lineEnd: number;
  methods: MethodInfo[];
  properties: PropertyInfo[];
  extends?: string;
  implements: string[];
  isExported: boolean;
  isAbstract?: boolean;
  decorators?: string[];
}

/** Interfaces, type aliases and enums: kept for the outline and the symbol index. */
export interface TypeDeclInfo {
  name: string;
  kind: "interface" | "type" | "enum" | "namespace";
  lineStart: number;
  lineEnd: number;
  isExported: boolean;
}

export interface FileAST {
  imports: ImportInfo[];
  exports: ExportInfo[];
  functions: FunctionInfo[];
  classes: ClassInfo[];
  types: TypeDeclInfo[];
  /** Top-level keys of a JSON/YAML document (for config files); empty for code. */
  keys?: string[];
  /** true when tree-sitter reported errors; what could be extracted is still present. */
  parseError: boolean;
}

export interface ComplexityScore {
  /** Non-blank, non-comment lines. */
  loc: number;
  /** Maximum block nesting depth. */
  nesting: number;
  imports: number;
  score: number;
  /** Present (true) when a tool wrote the file (a codegen header, a .min.js): rankings leave it out. */
  generated?: true;
}

/** One call site for the best-effort call graph: `callee` as written (`foo`, `obj.method`, `Class.method`). */
export interface CallSite {
  /** Enclosing function or `Class.method`; `<module>` at top level. */
  caller: string;
  callee: string;
  line: number;
}

export interface FileData {
  lines: string[];
  hash: string;
  size: number;
  lastModified: number;
}

export interface FileMeta {
  complexity: ComplexityScore;
  dependencies: string[];
  dependents: string[];
  isHub: boolean;
  isEntryPoint: boolean;
}
