// Shapes shared by the planner, the templates and the writer.

/** How a file should be counted; `binary` and `nonUtf8` are decided by content, not by extension. */
export type FileCategory = "ts" | "tsx" | "js" | "json" | "yaml" | "other" | "binary" | "nonUtf8";

/** Why an in-tree file is not meant to be indexed. */
export type IgnoreReason =
  | "gitignore" // the root .gitignore (coverage/, *.log, .env …)
  | "nested-gitignore" // packages/<x>/.gitignore
  | "config-ignore"; // ipuaro's default ignorePatterns (*.min.js), not in any .gitignore

/** Folders the indexer must skip wholesale; their files are outside the `--files` count. */
export type ExcludedArea = "node_modules" | "dist";

export interface PlannedFile {
  /** Repo-relative POSIX path. */
  path: string;
  category: FileCategory;
  render: () => string | Uint8Array;
  ignoredBy?: IgnoreReason;
  excludedArea?: ExcludedArea;
  /** One of the few generated-looking large files (not the single big file). */
  large?: boolean;
  /** The single very large file. */
  big?: boolean;
  /** Text quirks the indexer must survive: Windows line ends, a UTF-8 BOM, a zero-byte file. */
  quirk?: "crlf" | "bom" | "empty";
}

export type SymlinkKind = "file" | "directory" | "loop" | "dangling";

export interface PlannedSymlink {
  path: string;
  /** Relative target, exactly as written into the link. */
  target: string;
  kind: SymlinkKind;
}

export type SymbolKind =
  | "class"
  | "abstractClass"
  | "interface"
  | "type"
  | "function"
  | "const"
  | "enum"
  | "namespace"
  | "component"
  | "hook";

/** A symbol a module exports; `role` tells the template which declaration to emit for it. */
export interface ExportedSymbol {
  name: string;
  kind: SymbolKind;
  role: string;
  isDefault?: boolean;
}

export interface ImportedName {
  name: string;
  kind: SymbolKind;
  alias?: string;
}

export interface ImportSpec {
  /** The specifier as written in source. */
  from: string;
  named: ImportedName[];
  defaultName?: string;
  namespaceName?: string;
  /** `import type { … }` for the whole statement. */
  typeOnly?: boolean;
  /** Rendered as `await import(…)` inside a function body instead of a top-level import. */
  dynamic?: boolean;
}

export interface SourceModule {
  /** Repo-relative path with extension. */
  path: string;
  template: string;
  /** Domain words the names were built from, e.g. ["order", "ledger"]. */
  words: string[];
  /** Size budget: roughly the number of members / functions / statements blocks. */
  units: number;
  exports: ExportedSymbol[];
  imports: ImportSpec[];
  /** Module under test, for test files. */
  subject?: SourceModule;
  /** Template-specific names of related symbols, e.g. { service: "OrdersService", route: "orders" }. */
  refs?: Record<string, string>;
}

export type ImportStyle = "bundler" | "nodenext";

export interface Domain {
  name: string;
  /** Repo-relative folder holding the domain's index.ts. */
  dir: string;
  modules: SourceModule[];
  tests: SourceModule[];
  barrelLines: string[];
  /** Names importable from the domain folder (through its barrel). */
  publicSymbols: ImportedName[];
}

export interface Workspace {
  /** npm name, e.g. "@acme/core". */
  name: string;
  short: string;
  /** Repo-relative folder, e.g. "packages/core". */
  dir: string;
  kind: "package" | "app";
  deps: Workspace[];
  importStyle: ImportStyle;
  domains: Domain[];
  /** Names importable from the package root specifier. */
  publicSymbols: ImportedName[];
  rootIndexLines: string[];
  externals: string[];
}
