// analyze (seed 001 §2, code_shadow_analyze): one tool, nine analyses of the project's history, index and
// memory. Arguments are checked by the shadow layer so every mistake gets the seed's SHADOW_ERR_ code.
import { z } from "zod";
import { ANALYZE_QUERIES, runAnalyze } from "../shadow/analyze.js";
import { runShadowTool } from "../shadow/shadow-errors.js";
import { scopeForTool } from "../shadow/shadow-scope.js";
import { MAX_DEPTH, MAX_LIMIT, TIMEFRAMES } from "../shadow/shadow-validate.js";
import { defineTool } from "./define-tool.js";

export const analyze = defineTool({
  name: "analyze",
  category: "analysis",
  description: [
    "Measured facts about the codebase from its git history, the agent's past edits and errors, and the code index.",
    "Call predict_change with target=<file> BEFORE editing an unfamiliar file; hotspots to find the problem files; file_history for one file's timeline;",
    "dependency_graph (target file or folder, depth 1-3) for imports, importers, files that change with it and files that break after it;",
    "knowledge_search (target = search text) over files, modules, classes, functions, decisions and memories; decisions_list (target = optional status);",
    "code_errors for recent test/command errors by file; team_pulse for project health; my_stats for the user's own activity.",
    "Not for finding text in files: use find_references or get_lines.",
  ].join(" "),
  parameters: z
    .object({
      query: z.unknown().meta({ type: "string", enum: [...ANALYZE_QUERIES], description: "Which analysis to run" }),
      target: z.unknown().meta({ type: "string", description: "File or folder path (predict_change, file_history, dependency_graph), search text (knowledge_search) or status (decisions_list)" }).optional(),
      timeframe: z.unknown().meta({ type: "string", enum: [...TIMEFRAMES], description: "Window of history: default 30d (file_history: all)" }).optional(),
      limit: z.unknown().meta({ type: "integer", minimum: 1, maximum: MAX_LIMIT, description: "Most results to return, 1-100 (default 10; decisions_list 20)" }).optional(),
      depth: z.unknown().meta({ type: "integer", minimum: 1, maximum: MAX_DEPTH, description: "dependency_graph only: levels to follow, 1-3 (default 1)" }).optional(),
    })
    .strict(),
  requiresConfirmation: false,
  title: (a) => `analyze ${String(a.query ?? "")}${typeof a.target === "string" && a.target ? ` ${a.target}` : ""}`,
  async execute(args, ctx) {
    return runShadowTool("analyze", async () => {
      const out = await runAnalyze(scopeForTool(ctx), args);
      return { result: out.result, summary: out.summary };
    });
  },
});
