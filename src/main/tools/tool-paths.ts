// Path arguments of tools go through the path guard; failures become errors the model can act on.
import { resolveInsideRoot, type ResolveOptions } from "../security/path-guard.js";
import type { ToolOutcome } from "./tool-types.js";

export type ToolPath = { ok: true; rel: string; abs: string; real: string } | Extract<ToolOutcome, { ok: false }>;

export function toolPath(root: string, input: string, opts: ResolveOptions = {}): ToolPath {
  const r = resolveInsideRoot(root, input, opts);
  if (r.ok) return r;
  return { ok: false, code: r.code, message: r.message };
}

/** `  12│ text`: line numbers padded to the widest one shown, so the model can cite them exactly. */
export function numberLines(lines: readonly string[], firstLine: number): string {
  const width = String(firstLine + lines.length - 1).length;
  return lines.map((l, i) => `${String(firstLine + i).padStart(width)}│ ${l}`).join("\n");
}
