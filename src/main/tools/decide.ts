// decide (seed 001 §7): records an architecture decision (ADR) with its status, the alternatives that were
// weighed, the files it concerns and tags. A new decision may supersede an earlier one by id.
import { z } from "zod";
import { createDecision, DECISION_STATUSES, MIN_DESCRIPTION, MIN_TITLE } from "../shadow/memory-store.js";
import { runShadowTool, ShadowError } from "../shadow/shadow-errors.js";
import { scopeForTool } from "../shadow/shadow-scope.js";
import { optionalText, parseChoice, projectRelative, stringList } from "../shadow/shadow-validate.js";
import { defineTool } from "./define-tool.js";

export const MAX_ALTERNATIVES = 20;
export const MAX_RELATED_FILES = 100;
export const MAX_DECISION_TAGS = 20;

export const decide = defineTool({
  name: "decide",
  category: "analysis",
  description:
    "Record an architecture decision (ADR): what was decided and why, the context, the alternatives considered, its status and the files it concerns. Use it for non-trivial technical choices (a library, a data model, an API shape), not for small ones or plain facts (memory_write).",
  parameters: z
    .object({
      title: z.unknown().meta({ type: "string", description: `Short unique title (at least ${MIN_TITLE} characters)` }),
      description: z.unknown().meta({ type: "string", description: `What was decided and why (at least ${MIN_DESCRIPTION} characters)` }),
      context: z.unknown().meta({ type: "string", description: "The situation that called for a decision" }).optional(),
      alternatives: z.unknown().meta({ type: "array", items: { type: "string" }, description: "Options that were considered and not chosen" }).optional(),
      status: z.unknown().meta({ type: "string", enum: [...DECISION_STATUSES], description: "Default proposed" }).optional(),
      related_files: z.unknown().meta({ type: "array", items: { type: "string" }, description: "Files or globs relative to the root that the decision concerns" }).optional(),
      tags: z.unknown().meta({ type: "array", items: { type: "string" }, description: "Topics; taken from the text when omitted" }).optional(),
      supersedes: z.unknown().meta({ type: "integer", description: "Id of an earlier decision this one replaces (it becomes superseded)" }).optional(),
    })
    .strict(),
  requiresConfirmation: false,
  title: (a) => `decide ${typeof a.title === "string" ? a.title : ""}`.trim(),
  async execute(args, ctx) {
    return runShadowTool("decide", async () => {
      const status = args.status === undefined || args.status === null ? "proposed" : parseChoice(args.status, DECISION_STATUSES, "status", "SHADOW_ERR_INVALID_STATUS");
      const context = optionalText(args.context, "context");
      const relatedFiles = stringList(args.related_files, "related_files", MAX_RELATED_FILES).map((f) => projectRelative(ctx.root, f));
      let supersedes: number | undefined;
      if (args.supersedes !== undefined && args.supersedes !== null) {
        supersedes = Number(args.supersedes);
        if (!Number.isInteger(supersedes) || supersedes < 1) throw new ShadowError("SHADOW_ERR_INVALID_QUERY", `supersedes must be a decision id (a positive whole number); got ${JSON.stringify(args.supersedes)}.`);
      }
      const entry = await createDecision(scopeForTool(ctx), {
        title: typeof args.title === "string" ? args.title : "",
        description: typeof args.description === "string" ? args.description : "",
        ...(context ? { context } : {}),
        alternatives: stringList(args.alternatives, "alternatives", MAX_ALTERNATIVES),
        status,
        relatedFiles,
        tags: stringList(args.tags, "tags", MAX_DECISION_TAGS, 60),
        ...(supersedes !== undefined ? { supersedes } : {}),
      });
      const result = {
        status: "ok",
        decision_id: entry.id,
        title: entry.title,
        decision_status: entry.status,
        tags: entry.tags,
        related_files_count: entry.related_files.length,
        ...(entry.supersedes !== undefined ? { supersedes: entry.supersedes } : {}),
        created_at: entry.created_at,
        message: `Decision "${entry.title}" recorded (id ${entry.id}).`,
      };
      return { result, summary: `decision #${entry.id} ${entry.status}` };
    });
  },
});
