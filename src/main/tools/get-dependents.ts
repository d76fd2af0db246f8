// get_dependents: the project files that import a file, with their hub/entry flags. Barrel files among
// them are marked: whoever imports through a barrel depends on the barrel, so the hint points there.
import { z } from "zod";
import { defineTool } from "./define-tool.js";
import { fileFlags, loadFileMeta, MAX_NEIGHBOURS, neighbourLines } from "./graph-neighbours.js";
import { counted } from "../plural.js";

/** Folders named in a hub's breakdown. */
const FOLDERS_SHOWN = 12;

/** `packages/core (341), packages/validation (328), …`: dependents counted by their first two folders. */
function byFolder(paths: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const p of paths) {
    const parts = p.split("/");
    const folder = parts.length > 2 ? parts.slice(0, 2).join("/") : parts.length === 2 ? parts[0]! : ".";
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const shown = sorted.slice(0, FOLDERS_SHOWN).map(([f, n]) => `${f} (${n})`);
  return `${shown.join(", ")}${sorted.length > FOLDERS_SHOWN ? `, and ${sorted.length - FOLDERS_SHOWN} more folders` : ""}`;
}

export const getDependents = defineTool({
  name: "get_dependents",
  category: "analysis",
  description:
    "List the project files that import a file, each marked hub (imported by many files), entry (entry point) or re-exports (a barrel: files importing through it are its dependents, ask for them with get_dependents on the barrel).",
  parameters: z.object({ path: z.string().min(1).describe("File path relative to the project root") }).strict(),
  requiresConfirmation: false,
  title: (a) => `get_dependents ${a.path}`,
  async execute(args, ctx) {
    const file = await loadFileMeta(ctx, args.path);
    if (!file.ok) return file;
    const dependents = file.meta.dependents;
    const { lines, barrels } = await neighbourLines(ctx, dependents);
    const head = dependents.length
      ? `${file.rel}${fileFlags(file.meta)} is imported by ${dependents.length} project file${dependents.length === 1 ? "" : "s"}:`
      : `${file.rel}${fileFlags(file.meta)} is imported by no project file${file.meta.isEntryPoint ? " (an entry point)" : ""}.`;
    const hint = barrels.length ? `\nIndirect users import it through ${barrels.slice(0, 3).join(", ")}; call get_dependents on ${barrels.length === 1 ? "it" : "those"}.` : "";
    // More than the list shows (a hub): where they are, so the model sees the spread, not the first folder by name.
    const spread = dependents.length > MAX_NEIGHBOURS ? `\nBy folder: ${byFolder(dependents)}` : "";
    return {
      ok: true,
      llm: `${head}${spread}${lines.length ? `\n${lines.join("\n")}` : ""}${hint}`,
      data: { path: file.rel, dependents, barrels },
      display: { summary: counted(dependents.length, "dependent") },
    };
  },
});
