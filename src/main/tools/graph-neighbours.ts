// Shared by get_dependencies and get_dependents: a file's metadata from the index, and its neighbours
// listed with their hub/entry flags (and barrel files marked, since users of a barrel's exports are
// dependents of the barrel, not of the file behind it).
import fs from "node:fs";
import type { FileAST, FileMeta } from "../../workers/ast-types.js";
import { indexReaderOf, metasOf } from "../store/index-queries.js";
import { toolPath } from "./tool-paths.js";
import type { ToolContext, ToolOutcome } from "./tool-types.js";

/** Neighbours listed; a hub can have hundreds. */
export const MAX_NEIGHBOURS = 200;

type ToolError = Extract<ToolOutcome, { ok: false }>;

export interface FileWithMeta {
  ok: true;
  rel: string;
  meta: FileMeta;
}

export async function loadFileMeta(ctx: ToolContext, input: string): Promise<FileWithMeta | ToolError> {
  const p = toolPath(ctx.root, input, { mustExist: false });
  if (!p.ok) return p;
  const meta = await ctx.store.getMeta(p.rel);
  if (meta) return { ok: true, rel: p.rel, meta };
  let isDir = false;
  try {
    isDir = fs.statSync(p.abs).isDirectory();
  } catch {
    // not on disk either
  }
  if (isDir) return { ok: false, code: "PATH_INVALID", message: `${p.rel} is a folder; give a file path (get_structure ${p.rel} lists its files)` };
  if (await ctx.store.hasFile(p.rel)) return { ok: false, code: "NOT_FOUND", message: `${p.rel} has no dependency data (binary, symlink or not parsed)` };
  return { ok: false, code: "FILE_NOT_FOUND", message: `${p.rel} is not in the index. Use get_structure to see the files.` };
}

export function fileFlags(meta: FileMeta | undefined): string {
  if (!meta) return "";
  const flags: string[] = [];
  if (meta.isHub) flags.push(`hub: ${meta.dependents.length} dependents`);
  if (meta.isEntryPoint) flags.push("entry");
  if (meta.complexity.generated) flags.push("generated");
  return flags.length ? ` [${flags.join(", ")}]` : "";
}

/** Every export is an `export … from`: a barrel that passes another file's symbols on. */
export function isBarrel(ast: FileAST | undefined): boolean {
  return !!ast && ast.exports.length > 0 && ast.exports.every((e) => e.from !== undefined);
}

/** `  path [hub: 7 dependents, entry, re-exports]` per neighbour, capped. */
export async function neighbourLines(ctx: ToolContext, paths: readonly string[]): Promise<{ lines: string[]; barrels: string[] }> {
  const shown = paths.slice(0, MAX_NEIGHBOURS);
  const [metas, asts] = await Promise.all([metasOf(indexReaderOf(ctx.store), shown), ctx.store.getAsts(shown)]);
  const barrels: string[] = [];
  const lines = shown.map((p) => {
    const flags = fileFlags(metas.get(p));
    const barrel = isBarrel(asts.get(p));
    if (barrel) barrels.push(p);
    const withBarrel = barrel ? (flags ? `${flags.slice(0, -1)}, re-exports]` : " [re-exports]") : flags;
    return `  ${p}${withBarrel}`;
  });
  if (paths.length > shown.length) lines.push(`  … ${paths.length - shown.length} more`);
  return { lines, barrels };
}
