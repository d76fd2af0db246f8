// One hop of a re-export route (re-export-routes.ts): the module a name is forwarded to and its name
// there, what a file's re-exports forward, and the lookup that notes a file not known yet.

/** Set when a search looked up a file the map does not hold (yet): its answer may change when it comes. */
export interface HopLookup {
  missing: boolean;
  /** The first file looked up and not found. */
  missingFile?: string;
}

export function noteMissing(lookup: HopLookup | undefined, file: string): void {
  if (!lookup) return;
  lookup.missing = true;
  lookup.missingFile ??= file;
}

/** The name a re-export exports: its alias (`export { a as b }` exports b), else the imported name. */
export const exportedName = (i: { name: string; as?: string }): string => i.as || i.name;

/** One step of a route: the module a name is forwarded to, and its name there. */
export interface Hop {
  file: string;
  name: string;
}

/**
 * The name at the module below of `name` (whose head is the exported `head`) forwarded by a re-export of
 * `source`: `yell.x` → `shout.x` for `export { shout as yell }`; `ns.fn` → `fn` for `export * as ns`
 * (null for `ns` itself: the namespace is no declaration); `Button` → `default` for `export { default as
 * Button }` (ReExportRoutes.follow reads the name the default export is declared under at the end).
 */
export function forwardedName(source: string, head: string, name: string): string | null {
  if (source === head) return name;
  if (source === "*") return name.length > head.length ? name.slice(head.length + 1) : null;
  return source + name.slice(head.length);
}

export function headOf(name: string): string {
  const dot = name.indexOf(".");
  return dot === -1 ? name : name.slice(0, dot);
}

/** A module that re-exports another (see ReExportRoutes.forgetSymbols). */
export interface ReExporter {
  file: string;
  /** By `export *`. */
  star: boolean;
  /** Names it forwards under others, [exported, source]: `export { a as b }` → [b, a]; `export * as ns` → [ns, *]. */
  renames: ReadonlyArray<readonly [string, string]>;
}

/** A re-export: [exported name, target (null: not a project file), name in the target]. */
export type ReExportEntry = readonly [string, string | null, string];

/** A file's re-exports: in source order, the first by each exported name, and the star targets in order. */
export interface FileReExports {
  list: ReadonlyArray<ReExportEntry>;
  byName: ReadonlyMap<string, ReExportEntry>;
  stars: readonly string[];
}
