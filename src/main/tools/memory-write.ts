// memory_write (seed 001 §3): stores a lasting fact about the project in one of five categories, with
// tags taken from the text. The same fact written again (ignoring case and spacing) updates the entry.
import { z } from "zod";
import { MEMORY_CATEGORIES, MAX_CONTENT, MIN_CONTENT, writeMemory } from "../shadow/memory-store.js";
import { runShadowTool } from "../shadow/shadow-errors.js";
import { scopeForTool, sessionIdOf } from "../shadow/shadow-scope.js";
import { parseChoice } from "../shadow/shadow-validate.js";
import { defineTool } from "./define-tool.js";

export const memoryWrite = defineTool({
  name: "memory_write",
  category: "analysis",
  description: [
    "Save a lasting fact about this project so later sessions know it: PROJECT_RULES (rules to follow), ARCHITECTURE (how it is built),",
    "CONSTRAINTS (hard limits such as versions), CONFIG_VALUES (ports, URLs, settings), NAMING (naming conventions).",
    "Call it as soon as you learn such a fact. Not for temporary reminders (memory_note) or decisions with alternatives (decide).",
  ].join(" "),
  parameters: z
    .object({
      category: z.unknown().meta({ type: "string", enum: [...MEMORY_CATEGORIES], description: "Kind of fact" }),
      content: z.unknown().meta({ type: "string", description: `The fact, ${MIN_CONTENT}-${MAX_CONTENT} characters, self-contained` }),
    })
    .strict(),
  requiresConfirmation: false,
  title: (a) => `memory_write ${String(a.category ?? "")}`,
  async execute(args, ctx) {
    return runShadowTool("memory_write", async () => {
      const category = parseChoice(args.category, MEMORY_CATEGORIES, "category", "SHADOW_ERR_UNKNOWN_CATEGORY");
      const { entry, created } = await writeMemory(scopeForTool(ctx), { category, content: args.content as string, sessionId: sessionIdOf(ctx) });
      const result = {
        status: "ok",
        node_id: entry.id,
        category: entry.category,
        tags: entry.tags,
        ...(created ? { stored_at: entry.updated_at } : { updated_at: entry.updated_at }),
        message: `${created ? "Fact stored" : "Fact already known; updated"} in ${entry.category} (${entry.content.length} characters).`,
      };
      return { result, summary: created ? `stored ${entry.id}` : `updated ${entry.id}` };
    });
  },
});
