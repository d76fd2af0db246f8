// One file's outline for the model's fixed context: where it sits in the graph and what it declares,
// as TypeScript-like signatures with line ranges (so the model can ask get_lines for exactly one body).
// Never code: only names, parameter names, declared types and line numbers taken from the AST.
import path from "node:path";
import type { ClassInfo, ExportInfo, FileAST, FileMeta, FunctionInfo, MethodInfo, PropertyInfo, TypeDeclInfo } from "../../workers/ast-types.js";

/** A class or file with more members than this shows the first ones and a count of the rest. */
export const MAX_OUTLINE_MEMBERS = 40;
/** Lines under a file's header at most: a file of four 40-method classes must not eat the budget. */
export const MAX_OUTLINE_LINES = 40;
/** Imports listed per file; a file importing half the repo is summarised. */
const MAX_IMPORTS_LISTED = 12;
const MIN_DECLARATION_LINES = 4;
/** A parameter or type text longer than this is shortened: it can be an inline object type. */
const MAX_FRAGMENT_CHARS = 60;

export interface OutlineOptions {
  maxMembers?: number;
  /** Lines under the header at most (imports and exports lines included); at least a few are kept. */
  maxLines?: number;
}

/** `@scope/pkg/sub` → `@scope/pkg`, `lodash/fp` → `lodash`: the model needs the package, not the entry. */
export function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") && parts.length > 1 ? `${parts[0]}/${parts[1]}` : (parts[0] ?? specifier);
}

/** Dependency path as the outline shows it: `./x.ts` below the file's own folder, the full path otherwise. */
export function displayDependency(from: string, dep: string): string {
  const dir = path.posix.dirname(from);
  if (dir !== "." && dep.startsWith(`${dir}/`)) return `./${dep.slice(dir.length + 1)}`;
  if (dir === "." && !dep.includes("/")) return `./${dep}`;
  return dep;
}

function short(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_FRAGMENT_CHARS ? `${flat.slice(0, MAX_FRAGMENT_CHARS - 1)}…` : flat;
}

function lines(start: number, end: number): string {
  return end > start ? `L${start}-${end}` : `L${start}`;
}

function params(list: readonly string[]): string {
  return `(${list.map(short).join(", ")})`;
}

function returns(type: string | undefined): string {
  return type ? `: ${short(type)}` : "";
}

/** Markers of the file's role: entry point, hub, complexity. */
export function fileMarkers(meta: FileMeta | null): string[] {
  if (!meta) return [];
  const marks: string[] = [];
  if (meta.isEntryPoint) marks.push("entry point");
  if (meta.isHub) marks.push(`hub, ${meta.dependents.length} dependents`);
  else if (meta.dependents.length > 0) marks.push(`${meta.dependents.length} dependent${meta.dependents.length === 1 ? "" : "s"}`);
  marks.push(meta.complexity.generated ? "generated" : `cx ${meta.complexity.score}`);
  return marks;
}

function importLines(filePath: string, ast: FileAST | null, meta: FileMeta | null): string[] {
  const out: string[] = [];
  const internal = (meta?.dependencies ?? []).map((d) => displayDependency(filePath, d));
  // A barrel's dependencies are what its `export … from` lines already name.
  const onlyReExports = !!ast && ast.imports.length > 0 && ast.imports.every((i) => i.isReExport || i.type !== "internal");
  if (internal.length && !onlyReExports) {
    const shown = internal.slice(0, MAX_IMPORTS_LISTED);
    const more = internal.length - shown.length;
    out.push(`imports: ${shown.join(", ")}${more > 0 ? ` +${more} more` : ""}`);
  }
  const external = new Set<string>();
  for (const imp of ast?.imports ?? []) {
    if (imp.type === "external") external.add(packageName(imp.from));
    else if (imp.type === "builtin") external.add(imp.from.startsWith("node:") ? imp.from : `node:${imp.from}`);
  }
  if (external.size) out.push(`packages: ${[...external].sort().join(", ")}`);
  return out;
}

function exportPrefix(name: string, isExported: boolean, defaults: ReadonlySet<string>): string {
  if (!isExported) return "";
  return defaults.has(name) ? "export default " : "export ";
}

function functionLine(fn: FunctionInfo, defaults: ReadonlySet<string>): string {
  const prefix = exportPrefix(fn.name, fn.isExported, defaults);
  const async = fn.isAsync ? "async " : "";
  const overloads = fn.overloads ? ` (+${fn.overloads} overloads)` : "";
  const sig = `${params(fn.params)}${returns(fn.returnType)}`;
  const head = fn.isArrow ? `${prefix}const ${fn.name} = ${async}${sig}` : `${prefix}${async}function${fn.isGenerator ? "*" : ""} ${fn.name}${sig}`;
  return `${head}${overloads}  ${lines(fn.lineStart, fn.lineEnd)}`;
}

function modifiers(m: { visibility: string; isStatic: boolean; isAbstract?: boolean; name: string }): string {
  const parts: string[] = [];
  if (m.visibility !== "public" && !m.name.startsWith("#")) parts.push(m.visibility);
  if (m.isStatic) parts.push("static");
  if (m.isAbstract) parts.push("abstract");
  return parts.length ? `${parts.join(" ")} ` : "";
}

function methodLine(m: MethodInfo): string {
  const decorators = m.decorators?.length ? `${m.decorators.map((d) => `@${d}`).join(" ")} ` : "";
  const accessor = m.accessor ? `${m.accessor} ` : "";
  return `${decorators}${modifiers(m)}${m.isAsync ? "async " : ""}${accessor}${m.name}${params(m.params)}${returns(m.returnType)}  ${lines(m.lineStart, m.lineEnd)}`;
}

function propertyText(p: PropertyInfo): string {
  return `${modifiers(p)}${p.isReadonly ? "readonly " : ""}${p.name}${p.type ? `: ${short(p.type)}` : ""}`;
}

function classLines(c: ClassInfo, defaults: ReadonlySet<string>, maxMembers: number): string[] {
  const heritage = `${c.extends ? ` extends ${short(c.extends)}` : ""}${c.implements.length ? ` implements ${c.implements.map(short).join(", ")}` : ""}`;
  const decorators = c.decorators?.length ? `${c.decorators.map((d) => `@${d}`).join(" ")} ` : "";
  const out = [`${decorators}${exportPrefix(c.name, c.isExported, defaults)}${c.isAbstract ? "abstract " : ""}class ${c.name}${heritage}  ${lines(c.lineStart, c.lineEnd)}`];
  if (c.properties.length) {
    const shown = c.properties.slice(0, maxMembers).map(propertyText);
    const more = c.properties.length - shown.length;
    out.push(`  props: ${shown.join(", ")}${more > 0 ? ` +${more} more` : ""}`);
  }
  const methods = c.methods.slice(0, maxMembers);
  for (const m of methods) out.push(`  ${methodLine(m)}`);
  if (c.methods.length > methods.length) out.push(`  … +${c.methods.length - methods.length} more methods`);
  return out;
}

function typeLine(t: TypeDeclInfo, defaults: ReadonlySet<string>): string {
  return `${exportPrefix(t.name, t.isExported, defaults)}${t.kind} ${t.name}  ${lines(t.lineStart, t.lineEnd)}`;
}

/** Names listed per re-export line: a barrel re-exporting 80 modules gets one line, not 80. */
const MAX_REEXPORTS_LISTED = 12;

function capped(items: readonly string[], max: number): string {
  const shown = items.slice(0, max);
  return `${shown.join(", ")}${items.length > shown.length ? ` +${items.length - shown.length} more` : ""}`;
}

/** Exports that are not declarations shown elsewhere: re-exports, exported consts, anonymous defaults. */
function otherExportLines(ast: FileAST, declared: ReadonlySet<string>): string[] {
  const starFrom: string[] = [];
  const named = new Map<string, string[]>();
  const plain: string[] = [];
  for (const e of ast.exports) {
    if (declared.has(e.name)) continue;
    if (e.from === undefined) plain.push(exportText(e));
    else if (e.name === "*") starFrom.push(`"${e.from}"`);
    else named.set(e.from, [...(named.get(e.from) ?? []), e.name]);
  }
  const out: string[] = [];
  if (starFrom.length) out.push(`export * from ${capped(starFrom, MAX_REEXPORTS_LISTED)}`);
  if (named.size) {
    // One line for all named re-exports, grouped by module, at most MAX_REEXPORTS_LISTED names.
    const groups: string[] = [];
    let listed = 0;
    let total = 0;
    for (const [from, names] of named) {
      total += names.length;
      const room = MAX_REEXPORTS_LISTED - listed;
      if (room <= 0) continue;
      const shown = names.slice(0, room);
      listed += shown.length;
      groups.push(`${shown.join(", ")} from "${from}"`);
    }
    out.push(`re-exports ${groups.join("; ")}${total > listed ? ` +${total - listed} more` : ""}`);
  }
  if (plain.length) out.push(`export ${capped(plain, MAX_REEXPORTS_LISTED)}`);
  return out;
}

function exportText(e: ExportInfo): string {
  if (e.isDefault) return e.name === "default" ? "default" : `default ${e.name}`;
  return e.type === "default" || e.type === "reexport" ? e.name : `${e.type} ${e.name}`;
}

/**
 * The outline of one file: a header line (path and markers), then indented imports, declarations and
 * exports. JSON/YAML files show their top-level keys. Lines of the result never contain code.
 */
export function formatFileOutline(filePath: string, ast: FileAST | null, meta: FileMeta | null, opts: OutlineOptions = {}): string {
  const maxMembers = opts.maxMembers ?? MAX_OUTLINE_MEMBERS;
  const marks = fileMarkers(meta);
  const out = [`${filePath}${marks.length ? `  [${marks.join(", ")}]` : ""}${ast?.parseError ? "  (partial parse)" : ""}`];
  const body: string[] = [...importLines(filePath, ast, meta)];
  if (ast) {
    if (ast.keys?.length) body.push(`keys: ${ast.keys.slice(0, maxMembers).join(", ")}${ast.keys.length > maxMembers ? ` +${ast.keys.length - maxMembers} more` : ""}`);
    const defaults = new Set(ast.exports.filter((e) => e.isDefault).map((e) => e.name));
    const declared = new Set<string>();
    const decls: { line: number; text: string[] }[] = [];
    for (const t of ast.types) {
      declared.add(t.name);
      decls.push({ line: t.lineStart, text: [typeLine(t, defaults)] });
    }
    for (const c of ast.classes) {
      declared.add(c.name);
      decls.push({ line: c.lineStart, text: classLines(c, defaults, maxMembers) });
    }
    for (const f of ast.functions) {
      declared.add(f.name);
      decls.push({ line: f.lineStart, text: [functionLine(f, defaults)] });
    }
    // Source order reads like the file; the line number tie-break keeps the output stable.
    decls.sort((a, b) => a.line - b.line || (a.text[0]! < b.text[0]! ? -1 : a.text[0]! > b.text[0]! ? 1 : 0));
    const exportLines = otherExportLines(ast, declared);
    body.push(...declarationLines(decls.slice(0, maxMembers), decls.length, (opts.maxLines ?? MAX_OUTLINE_LINES) - body.length - exportLines.length));
    body.push(...exportLines);
  }
  for (const line of body) out.push(`  ${line}`);
  return out.join("\n");
}

/** Declarations within `room` lines: whole ones while they fit, then part of a class, then a count. */
function declarationLines(decls: readonly { text: string[] }[], total: number, room: number): string[] {
  const out: string[] = [];
  let left = Math.max(MIN_DECLARATION_LINES, room);
  for (let i = 0; i < decls.length; i++) {
    const text = decls[i]!.text;
    const reserve = i + 1 < total ? 1 : 0;
    if (text.length <= left - reserve) {
      out.push(...text);
      left -= text.length;
    } else if (text.length > 1 && left - reserve >= 3) {
      const keep = left - reserve - 1;
      out.push(...text.slice(0, keep), `  … +${text.length - keep} more members`);
      left -= keep + 1;
    } else {
      out.push(`… +${total - i} more declarations`);
      return out;
    }
  }
  if (total > decls.length) out.push(`… +${total - decls.length} more declarations`);
  return out;
}

/** Exported names of a file, most useful first (declarations before re-exports), for folder summaries. */
export function exportedNames(ast: FileAST | null): string[] {
  if (!ast) return [];
  const names: string[] = [];
  for (const e of ast.exports) {
    if (e.name === "*" || e.name === "default" || e.type === "reexport") continue;
    if (!names.includes(e.name)) names.push(e.name);
  }
  return names;
}
