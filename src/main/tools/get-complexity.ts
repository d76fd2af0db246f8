// get_complexity: one file's complexity breakdown (loc, nesting, imports → score, its rank, its longest
// functions), or the most complex code files of the project or a folder.
import fs from "node:fs";
import { z } from "zod";
import type { FileAST, FileMeta } from "../../workers/ast-types.js";
import { isCodePath as isCode } from "../../workers/extract/index.js";
import { defineTool } from "./define-tool.js";
import { fileFlags } from "./graph-neighbours.js";
import { toolPath } from "./tool-paths.js";
import { counted } from "../plural.js";

export const TOP_COMPLEXITY_FILES = 20;
export const LONGEST_FUNCTIONS_SHOWN = 5;
const FORMULA = "score = loc/10 + nesting*5 + imports*2";


/** The file's functions and methods, longest first. */
export function longestFunctions(ast: FileAST | null, count: number): Array<{ name: string; start: number; end: number; lines: number }> {
  if (!ast) return [];
  const all = [
    ...ast.functions.map((f) => ({ name: f.name, start: f.lineStart, end: f.lineEnd })),
    ...ast.classes.flatMap((c) => c.methods.map((m) => ({ name: `${c.name}.${m.name}`, start: m.lineStart, end: m.lineEnd }))),
  ].map((f) => ({ ...f, lines: f.end - f.start + 1 }));
  return all.sort((a, b) => b.lines - a.lines || a.start - b.start).slice(0, count);
}

/** Code files under a folder (or all), most complex first; generated ones apart (they rank nothing people maintain). */
function rankedCode(all: Map<string, FileMeta>, under: string | null): { ranked: Array<[string, FileMeta]>; generated: string[] } {
  const ranked: Array<[string, FileMeta]> = [];
  const generated: string[] = [];
  for (const entry of all) {
    const [p, m] = entry;
    if (!isCode(p) || (under && !p.startsWith(`${under}/`))) continue;
    if (m.complexity.generated) generated.push(p);
    else ranked.push(entry);
  }
  ranked.sort((a, b) => b[1].complexity.score - a[1].complexity.score || a[0].localeCompare(b[0]));
  return { ranked, generated: generated.sort() };
}

const GENERATED_NAMED = 3;

function generatedNote(generated: readonly string[]): string {
  if (!generated.length) return "";
  const named = generated.slice(0, GENERATED_NAMED).join(", ");
  const more = generated.length > GENERATED_NAMED ? `, +${generated.length - GENERATED_NAMED} more` : "";
  return `\n(${counted(generated.length, "generated file")} left out: ${named}${more})`;
}

export const getComplexity = defineTool({
  name: "get_complexity",
  category: "analysis",
  description: `Complexity metrics. With a file path: its lines of code, deepest nesting, import count, score (${FORMULA}), rank in the project and longest functions. With a folder, or with no path: the ${TOP_COMPLEXITY_FILES} most complex code files there.`,
  parameters: z.object({ path: z.string().optional().describe("File or folder relative to the root; omit for the whole project") }).strict(),
  requiresConfirmation: false,
  title: (a) => `get_complexity${a.path ? ` ${a.path}` : ""}`,
  async execute(args, ctx) {
    let target: string | null = null;
    let abs: string | null = null;
    if (args.path && args.path !== "." && args.path !== "/") {
      const p = toolPath(ctx.root, args.path, { mustExist: false });
      if (!p.ok) return p;
      if (p.rel !== ".") {
        target = p.rel;
        abs = p.abs;
      }
    }
    const meta = target ? await ctx.store.getMeta(target) : null;
    const all = await ctx.store.getAllMeta();
    if (target && meta) {
      const c = meta.complexity;
      const { ranked } = rankedCode(all, null);
      const rank = ranked.findIndex(([p]) => p === target);
      const longest = longestFunctions(await ctx.store.getAst(target), LONGEST_FUNCTIONS_SHOWN);
      const lines = [
        `${target}${fileFlags(meta)}: score ${c.score}${rank >= 0 ? ` (rank ${rank + 1} of ${ranked.length} code files)` : c.generated ? " (generated: a tool wrote it, so it is not ranked)" : ""}`,
        `  loc ${c.loc} (lines with code) → ${(c.loc / 10).toFixed(1)}`,
        `  nesting ${c.nesting} (deepest block) → ${c.nesting * 5}`,
        `  imports ${c.imports} → ${c.imports * 2}`,
        `  ${FORMULA}`,
      ];
      if (longest.length) lines.push(`longest functions: ${longest.map((f) => `${f.name} :${f.start}-${f.end} (${counted(f.lines, "line")})`).join(", ")}`);
      return { ok: true, llm: lines.join("\n"), data: { path: target, ...c, rank: rank >= 0 ? rank + 1 : null, longest }, display: { summary: `score ${c.score}` } };
    }
    if (target) {
      let isDir = false;
      try {
        isDir = fs.statSync(abs!).isDirectory();
      } catch {
        // neither indexed nor on disk
      }
      if (!isDir) {
        const known = await ctx.store.hasFile(target);
        return known
          ? { ok: false, code: "NOT_FOUND", message: `${target} has no complexity data (binary, symlink or not parsed)` }
          : { ok: false, code: "FILE_NOT_FOUND", message: `${target} is not in the index. Use get_structure to see the files.` };
      }
    }
    const { ranked, generated } = rankedCode(all, target);
    if (!ranked.length) {
      if (generated.length) return { ok: false, code: "NOT_FOUND", message: `only generated code${target ? ` under ${target}` : ""}, which is not ranked: ${generated.slice(0, GENERATED_NAMED).join(", ")}${generated.length > GENERATED_NAMED ? ", …" : ""}` };
      return { ok: false, code: "NOT_FOUND", message: target ? `no indexed code files under ${target}` : "the index has no code files; run `ipuaro index` first" };
    }
    const top = ranked.slice(0, TOP_COMPLEXITY_FILES);
    const rows = top.map(([p, m]) => {
      const c = m.complexity;
      return `${String(c.score).padStart(5)} ${String(c.loc).padStart(5)} ${String(c.nesting).padStart(4)} ${String(c.imports).padStart(4)}  ${p}${fileFlags(m)}`;
    });
    const head = `Top ${top.length} of ${ranked.length} code files${target ? ` under ${target}` : ""} by complexity (${FORMULA}):`;
    return {
      ok: true,
      llm: `${head}\nscore   loc nest  imp  path\n${rows.join("\n")}${generatedNote(generated)}`,
      data: { under: target, files: top.map(([p, m]) => ({ path: p, ...m.complexity })), generated },
      display: { summary: `top ${top.length} of ${ranked.length}` },
    };
  },
});
