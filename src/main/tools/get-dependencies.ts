// get_dependencies: the project files a file imports (resolved by the index), with their hub/entry
// flags, plus the external packages and node builtins it uses.
import { z } from "zod";
import { defineTool } from "./define-tool.js";
import { fileFlags, loadFileMeta, neighbourLines } from "./graph-neighbours.js";

export const getDependencies = defineTool({
  name: "get_dependencies",
  category: "analysis",
  description:
    "List what a file depends on: the project files it imports (resolved through tsconfig paths and workspaces), each marked hub (imported by many files) or entry (entry point), plus the external packages and node builtins it imports.",
  parameters: z.object({ path: z.string().min(1).describe("File path relative to the project root") }).strict(),
  requiresConfirmation: false,
  title: (a) => `get_dependencies ${a.path}`,
  async execute(args, ctx) {
    const file = await loadFileMeta(ctx, args.path);
    if (!file.ok) return file;
    const deps = file.meta.dependencies;
    const ast = await ctx.store.getAst(file.rel);
    const external = [...new Set((ast?.imports ?? []).filter((i) => i.type !== "internal").map((i) => i.from))].sort();
    const { lines } = await neighbourLines(ctx, deps);
    const head = deps.length
      ? `${file.rel}${fileFlags(file.meta)} imports ${deps.length} project file${deps.length === 1 ? "" : "s"}:`
      : `${file.rel}${fileFlags(file.meta)} imports no project files.`;
    const ext = external.length ? `\nexternal: ${external.join(", ")}` : "";
    return {
      ok: true,
      llm: `${head}${lines.length ? `\n${lines.join("\n")}` : ""}${ext}`,
      data: { path: file.rel, dependencies: deps, external },
      display: { summary: `${deps.length} project, ${external.length} external` },
    };
  },
});
