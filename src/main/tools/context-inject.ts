// context_inject (seed 001 §6): the project's remembered architecture, conventions, hotspots, recent
// changes and accepted decisions in one block; with focus, what is known about one file or module.
import { z } from "zod";
import { CONTEXT_SECTIONS, contextInject } from "../shadow/context-sections.js";
import { runShadowTool } from "../shadow/shadow-errors.js";
import { scopeForTool } from "../shadow/shadow-scope.js";
import { optionalText, parseChoiceList } from "../shadow/shadow-validate.js";
import { defineTool } from "./define-tool.js";

export const contextInjectTool = defineTool({
  name: "context_inject",
  category: "analysis",
  description:
    "Load what the project remembers in one block: architecture facts and modules, conventions and constraints, current hotspots, changes of the last 7 days, accepted decisions. Give focus (a file or folder) for what is known about that part. Call once at the start of a task on a familiar project, not on every turn.",
  parameters: z
    .object({
      focus: z.unknown().meta({ type: "string", description: "A file or folder relative to the root to add details about" }).optional(),
      include: z.unknown().meta({ type: "array", items: { type: "string", enum: [...CONTEXT_SECTIONS] }, description: "Sections to include (default all)" }).optional(),
    })
    .strict(),
  requiresConfirmation: false,
  title: (a) => `context_inject${typeof a.focus === "string" && a.focus ? ` ${a.focus}` : ""}`,
  async execute(args, ctx) {
    return runShadowTool("context_inject", async () => {
      const include = parseChoiceList(args.include, CONTEXT_SECTIONS, "include", "SHADOW_ERR_INVALID_INCLUDE");
      const focus = optionalText(args.focus, "focus");
      const result = await contextInject(scopeForTool(ctx), { include: include && include.length ? include : null, ...(focus ? { focus } : {}) });
      return { result, summary: result.message };
    });
  },
});
