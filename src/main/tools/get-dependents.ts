// get_dependents: the project files that import a file, with their hub/entry flags. Barrel files among
// them are marked: whoever imports through a barrel depends on the barrel, so the hint points there.
import { z } from "zod";
import { defineTool } from "./define-tool.js";
import { fileFlags, loadFileMeta, neighbourLines } from "./graph-neighbours.js";

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
    return {
      ok: true,
      llm: `${head}${lines.length ? `\n${lines.join("\n")}` : ""}${hint}`,
      data: { path: file.rel, dependents, barrels },
      display: { summary: `${dependents.length} dependents` },
    };
  },
});
