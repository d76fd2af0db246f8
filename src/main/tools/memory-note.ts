// memory_note (seed 001 §5): a reminder for later, optionally tied to a condition ipuaro checks at session
// start and after every turn — a tag or version reached, a branch or PR merged, a file gaining a named
// function or class, a date passed. Other conditions (and none) surface at the next session start.
import { z } from "zod";
import { createNote, MAX_CONDITION, MAX_CONTENT, MIN_CONTENT } from "../shadow/memory-store.js";
import { runShadowTool } from "../shadow/shadow-errors.js";
import { scopeForTool, sessionIdOf } from "../shadow/shadow-scope.js";
import { optionalText } from "../shadow/shadow-validate.js";
import { defineTool } from "./define-tool.js";

const WHEN: Record<string, string> = {
  none: "at the next session start",
  next_session: "at the next session start (the condition cannot be checked automatically)",
  date: "once the date has passed",
  version: "once a git tag or the package version reaches it",
  branch_merged: "once the branch is merged into the current branch",
  pr_merged: "once a merge of the PR appears in the history",
  symbol: "once the index contains that symbol",
};

export const memoryNote = defineTool({
  name: "memory_note",
  category: "analysis",
  description: [
    "Leave a reminder for a later session, e.g. at the end of a session or for follow-up work.",
    "surface_condition makes it wait: 'when tag v2.1.0 is reached', 'when branch feature/x is merged', 'when PR #42 is merged',",
    "'when src/a.ts contains a function named foo', 'after 2026-09-01'. Without one it shows at the next session start. Not for lasting facts (memory_write).",
  ].join(" "),
  parameters: z
    .object({
      content: z.unknown().meta({ type: "string", description: `The reminder, ${MIN_CONTENT}-${MAX_CONTENT} characters` }),
      surface_condition: z.unknown().meta({ type: "string", description: `When to show it (at most ${MAX_CONDITION} characters); omit for the next session` }).optional(),
    })
    .strict(),
  requiresConfirmation: false,
  title: (a) => `memory_note${typeof a.surface_condition === "string" && a.surface_condition ? ` (${a.surface_condition})` : ""}`,
  async execute(args, ctx) {
    return runShadowTool("memory_note", async () => {
      const condition = optionalText(args.surface_condition, "surface_condition");
      const note = await createNote(scopeForTool(ctx), { content: args.content as string, ...(condition ? { surfaceCondition: condition } : {}), sessionId: sessionIdOf(ctx) });
      const when = WHEN[note.condition.kind] ?? WHEN.none!;
      const result = {
        status: "ok",
        note_id: note.id,
        surface_condition: note.surface_condition,
        condition: note.condition,
        created_at: note.created_at,
        message: note.surface_condition ? `Note created. It will be shown ${when}: ${note.surface_condition}` : `Note created. It will be shown ${when}.`,
      };
      return { result, summary: `note ${note.id} (${note.condition.kind})` };
    });
  },
});
