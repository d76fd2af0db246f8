// get_structure: the project (or a folder) as a tree with per-file outline counts; for a file, its
// outline with line ranges. Large trees are collapsed to fit, with file counts on collapsed folders.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { FileAST, ImportInfo } from "../../workers/ast-types.js";
import { symlinkTarget } from "../../workers/protocol.js";
import { defineTool } from "./define-tool.js";
import { buildDirTree, chooseExpanded, DEFAULT_TREE_VIEW, renderTree, shownFiles, type DirNode } from "./structure-tree.js";
import { IgnoreRules } from "../../pipeline/ignore-rules.js";
import { toolPath } from "./tool-paths.js";
import { counted } from "../plural.js";

export const STRUCTURE_MAX_LINES = 300;

export function outlineCounts(ast: FileAST | undefined): string {
  if (!ast) return "";
  const parts: string[] = [];
  if (ast.functions.length) parts.push(`${ast.functions.length} fn`);
  if (ast.classes.length) parts.push(`${ast.classes.length} class`);
  const types = ast.types?.length ?? 0;
  if (types) parts.push(`${types} type`);
  if (ast.exports.length) parts.push(`${ast.exports.length} export`);
  if (ast.parseError) parts.push("syntax errors");
  return parts.length ? ` (${parts.join(", ")})` : "";
}

/**
 * One line per import or re-export statement: the module and the names it binds, never JavaScript
 * syntax the outline cannot vouch for (the index does not tell `{ a }` from `* as a` or a `require`).
 * `import readFile from "node:fs/promises"` read as a default import, and models copied it.
 */
function importLines(imports: readonly ImportInfo[]): string[] {
  const groups = new Map<string, ImportInfo[]>();
  for (const i of imports) {
    const key = `${i.line}\0${i.from}\0${i.isReExport ? "r" : i.isDynamic ? "d" : "i"}`;
    const group = groups.get(key);
    if (group) group.push(i);
    else groups.set(key, [i]);
  }
  return [...groups.values()].map((group) => {
    const first = group[0]!;
    const names = group.filter((i) => i.name !== "*").map((i) => `${i.isTypeOnly ? "type " : ""}${i.name}${i.isDefault ? " (default)" : ""}`);
    if (first.isDynamic) return `  import("${first.from}") (${first.type}, dynamic)${names.length ? ` → ${names.join(", ")}` : ""} :${first.line}`;
    const verb = first.isReExport ? (names.length ? "export … from" : "export * from") : "import";
    return `  ${verb} "${first.from}" (${first.type})${names.length ? ` → ${names.join(", ")}` : ""} :${first.line}`;
  });
}

export function fileOutline(path: string, ast: FileAST): string {
  const lines = [`${path}${outlineCounts(ast)}`];
  lines.push(...importLines(ast.imports));
  for (const f of ast.functions) lines.push(`  ${f.isExported ? "export " : ""}${f.isAsync ? "async " : ""}function ${f.name}(${f.params.join(", ")})${f.returnType ? `: ${f.returnType}` : ""} :${f.lineStart}-${f.lineEnd}`);
  for (const c of ast.classes) {
    const heritage = `${c.extends ? ` extends ${c.extends}` : ""}${c.implements.length ? ` implements ${c.implements.join(", ")}` : ""}`;
    lines.push(`  ${c.isExported ? "export " : ""}class ${c.name}${heritage} :${c.lineStart}-${c.lineEnd}`);
    for (const m of c.methods) lines.push(`    ${m.visibility !== "public" ? `${m.visibility} ` : ""}${m.isStatic ? "static " : ""}${m.accessor ? `${m.accessor} ` : ""}${m.name}(${m.params.join(", ")}) :${m.lineStart}-${m.lineEnd}`);
  }
  for (const t of ast.types ?? []) lines.push(`  ${t.isExported ? "export " : ""}${t.kind} ${t.name} :${t.lineStart}-${t.lineEnd}`);
  // Exports the lines above do not show: constants, `export { a as b }`, `export default expr`.
  const shown = new Set([...ast.functions.map((f) => f.name), ...ast.classes.map((c) => c.name), ...(ast.types ?? []).map((t) => t.name)]);
  for (const e of ast.exports) {
    if (e.type === "reexport" || shown.has(e.name)) continue;
    const name = e.isDefault && e.name === "default" ? "" : ` ${e.name}`;
    lines.push(`  export${e.isDefault ? " default" : ""}${e.type === "default" ? "" : ` ${e.type}`}${name} :${e.line}`);
  }
  if (ast.keys?.length) lines.push(`  keys: ${ast.keys.join(", ")}`);
  return lines.join("\n");
}

/** Names shown on a folder's "not indexed" line. */
const OTHER_NAMES_SHOWN = 10;

/**
 * What an expanded folder holds besides indexed files (README.md, styles, images, folders without code),
 * read from the disk with the index's ignore rules; null when nothing. The index holds only code and
 * config, and the model could not tell a project's docs existed.
 */
function notIndexedLine(root: string, node: DirNode, rules: IgnoreRules): string | null {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(root, node.path), { withFileTypes: true });
  } catch {
    return null;
  }
  const indexed = new Set(node.files.map((f) => f.slice(f.lastIndexOf("/") + 1)));
  const names: string[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.name.startsWith(".") || indexed.has(e.name) || node.dirs.has(e.name)) continue;
    const isDir = e.isDirectory();
    if (rules.isIgnoredChild(node.path, e.name, isDir)) continue;
    names.push(isDir ? `${e.name}/` : e.name);
  }
  if (!names.length) return null;
  const shown = names.slice(0, OTHER_NAMES_SHOWN).join(", ");
  return `(not indexed: ${shown}${names.length > OTHER_NAMES_SHOWN ? ` … +${names.length - OTHER_NAMES_SHOWN}` : ""}; read with get_lines)`;
}

export const getStructure = defineTool({
  name: "get_structure",
  category: "search",
  description:
    "Show the project's folder tree with per-file outline counts (functions, classes, types, exports). Give a folder path to zoom in, or a file path to see its outline with line ranges. Large folders are collapsed (marked …); ask for them by path.",
  parameters: z
    .object({
      path: z.string().optional().describe("Folder or file relative to the root; omit for the whole project"),
      offset: z.number().int().min(0).optional().describe("Only for a folder with more entries than one answer shows: the entry to start from, as the answer says"),
    })
    .strict(),
  requiresConfirmation: false,
  title: (a) => `get_structure${a.path ? ` ${a.path}` : ""}${a.offset ? ` from ${a.offset}` : ""}`,
  async execute(args, ctx) {
    let base = "";
    let isFile = false;
    if (args.path && args.path !== "." && args.path !== "/") {
      const p = toolPath(ctx.root, args.path);
      if (!p.ok) return p;
      base = p.rel === "." ? "" : p.rel;
      isFile = fs.statSync(p.abs, { throwIfNoEntry: false })?.isFile() ?? false;
    }
    if (base) {
      const ast = await ctx.store.getAst(base);
      if (ast) return { ok: true, llm: fileOutline(base, ast), display: { summary: "file outline" } };
      // README.md, a binary, an ignored file: a file all the same, with nothing to outline.
      if (isFile) return { ok: false, code: "NOT_FOUND", message: `${base} is a file the index has no outline for (not code, or ignored); read it with get_lines` };
    }
    const all = await ctx.store.listPaths();
    const paths = base ? all.filter((p) => p.startsWith(`${base}/`)) : all;
    if (!paths.length) {
      if (base) return { ok: false, code: "NOT_FOUND", message: `nothing indexed under ${base}` };
      // Indexed, and nothing found: running the index again would not help.
      const indexedAt = await ctx.store.getConfigField("last_indexed");
      if (indexedAt) return { ok: false, code: "NOT_FOUND", message: `the project holds no files the index keeps (indexed ${indexedAt}: source, JSON and YAML files that no ignore rule leaves out); create files first` };
      return { ok: false, code: "NOT_FOUND", message: "the index is empty; run `ipuaro index` first" };
    }
    const tree = buildDirTree(paths, base);
    const entries = tree.dirs.size + tree.files.length;
    const offset = args.offset ?? 0;
    if (offset > 0 && offset >= entries) {
      return { ok: false, code: "INVALID_ARGS", message: `offset ${offset} is past the end: ${base || "."}/ has ${entries} entries (subfolders and files); the first is offset 0` };
    }
    const view = { ...DEFAULT_TREE_VIEW, offset };
    const expanded = chooseExpanded(tree, STRUCTURE_MAX_LINES, view);
    const shown = shownFiles(tree, expanded, view);
    const asts = await ctx.store.getAsts(shown);
    // Files without an outline may be symlinks: say where they point (the stat entry keeps the target).
    const states = await ctx.store.getStats(shown.filter((f) => !asts.has(f)));
    const label = (f: string) => {
      const name = f.slice(f.lastIndexOf("/") + 1);
      const hash = states.get(f)?.hash;
      const target = hash === undefined ? null : symlinkTarget(hash);
      return target !== null ? `${name} → ${target}` : `${name}${outlineCounts(asts.get(f))}`;
    };
    const rules = new IgnoreRules(ctx.root, ctx.config.project.ignorePatterns);
    const text = renderTree(tree, expanded, label, (node) => notIndexedLine(ctx.root, node, rules), view);
    return { ok: true, llm: text, display: { summary: counted(paths.length, "file") } };
  },
});
