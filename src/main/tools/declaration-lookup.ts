// Shared by get_function and get_class: finds declarations in a file's stored AST by name (`Class.method`
// for methods, `ns.name` for what a namespace declares) and prints their lines from the Redis copy. Both tools accept any declaration name and
// say what they found: a small model that asks get_function for a class gets the class, not a retry.
import fs from "node:fs";
import type { ClassInfo, FileAST, FunctionInfo, MethodInfo, TypeDeclInfo } from "../../workers/ast-types.js";
import { indexReaderOf, symbolLocations } from "../store/index-queries.js";
import { freshStoredFile } from "./fresh-file.js";
import { rememberRead } from "./read-snapshots.js";
import { noteSeen } from "./seen-ranges.js";
import { numberLines, toolPath } from "./tool-paths.js";
import type { ToolContext, ToolOutcome } from "./tool-types.js";
import { counted } from "../plural.js";

/** Lines printed per declaration; longer ones end with a pointer to get_lines. */
export const MAX_DECLARATION_LINES = 400;

export type DeclarationKind = "function" | "method" | "class" | TypeDeclInfo["kind"];

export interface FoundDeclaration {
  /** `sum`, `Money`, `Money.add`. */
  name: string;
  kind: DeclarationKind;
  lineStart: number;
  lineEnd: number;
  /** One-line signature for the header. */
  signature: string;
  /** For classes: their methods, printed as an outline when the class is too long to show whole. */
  methods?: MethodInfo[];
}

type ToolError = Extract<ToolOutcome, { ok: false }>;

export interface LoadedCodeFile {
  ok: true;
  rel: string;
  lines: string[];
  hash: string;
  ast: FileAST;
}

/** The stored text and AST of one indexed code file, or an error saying what to do instead. */
export async function loadCodeFile(ctx: ToolContext, input: string): Promise<LoadedCodeFile | ToolError> {
  const p = toolPath(ctx.root, input, { mustExist: false });
  if (!p.ok) return p;
  const stored = await freshStoredFile(ctx, p.rel, p.abs);
  if (!stored) {
    let isDir = false;
    let exists = false;
    try {
      const st = fs.statSync(p.abs);
      exists = true;
      isDir = st.isDirectory();
    } catch {
      // missing: reported below
    }
    if (isDir) return { ok: false, code: "PATH_INVALID", message: `${p.rel} is a folder; give a file path (get_structure ${p.rel} lists its files)` };
    if (exists) return { ok: false, code: "NOT_FOUND", message: `${p.rel} is not an indexed code file, so it has no declarations; read it with get_lines` };
    return { ok: false, code: "FILE_NOT_FOUND", message: `${p.rel} does not exist in the index. Use get_structure to see the files.` };
  }
  if (stored.kind === "binary") return { ok: false, code: "NOT_TEXT", message: `${p.rel} is a binary file (${stored.size} bytes); it has no declarations` };
  if (stored.kind === "symlink") return { ok: false, code: "NOT_TEXT", message: `${p.rel} is a symlink to ${stored.target}; ask for the target instead` };
  const ast = await ctx.store.getAst(p.rel);
  if (!ast) return { ok: false, code: "NOT_FOUND", message: `${p.rel} has no outline in the index; read it with get_lines` };
  return { ok: true, rel: p.rel, lines: stored.lines, hash: stored.hash, ast };
}

function functionDecl(f: FunctionInfo): FoundDeclaration {
  const sig = `${f.isAsync ? "async " : ""}function ${f.name}(${f.params.join(", ")})${f.returnType ? `: ${f.returnType}` : ""}`;
  return { name: f.name, kind: "function", lineStart: f.lineStart, lineEnd: f.lineEnd, signature: sig };
}

function methodDecl(c: ClassInfo, m: MethodInfo): FoundDeclaration {
  const mods = `${m.isStatic ? "static " : ""}${m.isAsync ? "async " : ""}${m.accessor ? `${m.accessor} ` : ""}`;
  const sig = `${mods}method ${c.name}.${m.name}(${m.params.join(", ")})${m.returnType ? `: ${m.returnType}` : ""}`;
  return { name: `${c.name}.${m.name}`, kind: "method", lineStart: m.lineStart, lineEnd: m.lineEnd, signature: sig };
}

function classDecl(c: ClassInfo): FoundDeclaration {
  const heritage = `${c.extends ? ` extends ${c.extends}` : ""}${c.implements.length ? ` implements ${c.implements.join(", ")}` : ""}`;
  const sig = `${c.isAbstract ? "abstract " : ""}class ${c.name}${heritage} (${c.methods.length} methods, ${c.properties.length} properties)`;
  return { name: c.name, kind: "class", lineStart: c.lineStart, lineEnd: c.lineEnd, signature: sig, methods: c.methods };
}

function typeDecl(t: TypeDeclInfo): FoundDeclaration {
  return { name: t.name, kind: t.kind, lineStart: t.lineStart, lineEnd: t.lineEnd, signature: `${t.kind} ${t.name}` };
}

/** Functions and methods first (get_function), or classes and types first (get_class); [] when none. */
export function findDeclarations(ast: FileAST, name: string, prefer: "function" | "class"): FoundDeclaration[] {
  const dot = name.lastIndexOf(".");
  if (dot > 0) {
    // `Money.add`, or `util.Box.open` for a class inside a namespace.
    const cls = name.slice(name.lastIndexOf(".", dot - 1) + 1, dot);
    const member = name.slice(dot + 1);
    const methods = ast.classes.filter((c) => c.name === cls).flatMap((c) => c.methods.filter((m) => m.name === member).map((m) => methodDecl(c, m)));
    if (methods.length) return methods;
    // `util.assertEqual`: a namespace's declaration, which the AST keeps under its own name.
    return findDeclarations(ast, member, prefer).filter((d) => d.kind !== "method");
  }
  const functions = ast.functions.filter((f) => f.name === name).map(functionDecl);
  const methods = ast.classes.flatMap((c) => c.methods.filter((m) => m.name === name).map((m) => methodDecl(c, m)));
  const classes = ast.classes.filter((c) => c.name === name).map(classDecl);
  const types = (ast.types ?? []).filter((t) => t.name === name).map(typeDecl);
  if (prefer === "function") return functions.length ? functions : classes.length ? classes : methods.length ? methods : types;
  return classes.length || types.length ? [...classes, ...types] : functions.length ? functions : methods;
}

/** Every addressable name in a file, for "not found" messages. */
export function declarationNames(ast: FileAST): { functions: string[]; methods: string[]; classes: string[]; types: string[] } {
  return {
    functions: ast.functions.map((f) => f.name),
    methods: ast.classes.flatMap((c) => c.methods.map((m) => `${c.name}.${m.name}`)),
    classes: ast.classes.map((c) => c.name),
    types: (ast.types ?? []).map((t) => t.name),
  };
}

const MAX_NAMES_LISTED = 40;

function listNames(label: string, names: string[]): string {
  if (!names.length) return "";
  const unique = [...new Set(names)];
  const shown = unique.slice(0, MAX_NAMES_LISTED).join(", ");
  return `${label}: ${shown}${unique.length > MAX_NAMES_LISTED ? `, … (${unique.length - MAX_NAMES_LISTED} more)` : ""}`;
}

/** "not found" with what the file does declare, a case-insensitive near match, and where the index says the name lives. */
export async function notFoundMessage(ctx: ToolContext, file: LoadedCodeFile, name: string, wanted: "function" | "class"): Promise<string> {
  const names = declarationNames(file.ast);
  const all = [...names.functions, ...names.methods, ...names.classes, ...names.types];
  const lower = name.toLowerCase();
  const near = [...new Set(all.filter((n) => n.toLowerCase() === lower || n.toLowerCase().endsWith(`.${lower}`)))];
  const parts = [`no ${wanted} named "${name}" in ${file.rel}.`];
  if (near.length) parts.push(`Did you mean ${near.map((n) => `"${n}"`).join(" or ")}?`);
  const elsewhere = (await symbolLocations(indexReaderOf(ctx.store), name)).filter((l) => l.path !== file.rel);
  if (elsewhere.length) {
    const where = elsewhere.slice(0, 5).map((l) => `${l.path}:${l.line} (${l.kind})`).join(", ");
    parts.push(`"${name}" is declared in ${where}.`);
  }
  const listed = [listNames("functions", names.functions), listNames("classes", names.classes), listNames("methods", names.methods), listNames("types", names.types)].filter(Boolean);
  parts.push(listed.length ? `The file declares ${listed.join("; ")}.` : "The file declares no functions, classes or types.");
  return parts.join(" ");
}

/** The declarations' lines, numbered, with a header each; records what the model saw (read ledger + snapshot). */
export function renderDeclarations(ctx: ToolContext, file: LoadedCodeFile, found: FoundDeclaration[]): ToolOutcome {
  const total = file.lines.length;
  const blocks: string[] = [];
  for (const d of found) {
    const start = Math.max(1, Math.min(d.lineStart, total));
    const end = Math.max(start, Math.min(d.lineEnd, total));
    const shownEnd = Math.min(end, start + MAX_DECLARATION_LINES - 1);
    const header = `${file.rel}: ${d.signature}, lines ${start}-${end} of ${total}`;
    const outline =
      shownEnd < end && d.methods?.length
        ? `\nmethods: ${d.methods.map((m) => `${m.name} :${m.lineStart}-${m.lineEnd}`).join(", ")} (read one with get_function ${d.name}.<method>)`
        : "";
    const more = shownEnd < end ? `\n[${end - shownEnd} more lines; read on with get_lines path=${file.rel} start=${shownEnd + 1} end=${end}]` : "";
    blocks.push(`${header}${outline}\n${numberLines(file.lines.slice(start - 1, shownEnd), start)}${more}`);
  }
  rememberRead(ctx.session, file.rel, file.hash, file.lines);
  for (const d of found) {
    const start = Math.max(1, Math.min(d.lineStart, total));
    noteSeen(ctx.session, file.rel, start, Math.min(Math.max(start, Math.min(d.lineEnd, total)), start + MAX_DECLARATION_LINES - 1), ctx.reply);
  }
  const first = found[0]!;
  return {
    ok: true,
    llm: blocks.join("\n\n"),
    data: { path: file.rel, total, declarations: found.map((d) => ({ name: d.name, kind: d.kind, start: d.lineStart, end: d.lineEnd })) },
    display: { summary: found.length === 1 ? `${first.kind} ${first.name}, ${counted(first.lineEnd - first.lineStart + 1, "line")}` : `${found.length} declarations` },
  };
}
