// memory_search (seed 001 §4): ranked search (BM25) over the project memory — facts and notes, decisions,
// the change history of files, and analytics such as hotspots.
import { z } from "zod";
import { loadHistory } from "../shadow/change-history.js";
import { loadIndexView } from "../shadow/index-view.js";
import { MEMORY_SOURCES, memorySearch } from "../shadow/knowledge-search.js";
import { ShadowError, runShadowTool } from "../shadow/shadow-errors.js";
import { scopeForTool } from "../shadow/shadow-scope.js";
import { MAX_LIMIT, parseChoiceList, parseLimit } from "../shadow/shadow-validate.js";
import { defineTool } from "./define-tool.js";

export const DEFAULT_MEMORY_RESULTS = 15;

export const memorySearchTool = defineTool({
  name: "memory_search",
  category: "search",
  description:
    "Search what the project remembers: facts saved with memory_write and notes (memory), architecture decisions (decisions), which files changed and how often (file_history), hotspot scores (analytics). Ranked by relevance. Use it at the start of a task to recall rules and earlier decisions about the area you work on.",
  parameters: z
    .object({
      query: z.unknown().meta({ type: "string", description: "Words to look for: a topic, a file or folder name, a technology" }),
      sources: z.unknown().meta({ type: "array", items: { type: "string", enum: [...MEMORY_SOURCES] }, description: "Where to search (default all four)" }).optional(),
      limit: z.unknown().meta({ type: "integer", minimum: 1, maximum: MAX_LIMIT, description: `Most results, 1-100 (default ${DEFAULT_MEMORY_RESULTS})` }).optional(),
    })
    .strict(),
  requiresConfirmation: false,
  title: (a) => `memory_search ${typeof a.query === "string" ? a.query : ""}`.trim(),
  async execute(args, ctx) {
    return runShadowTool("memory_search", async () => {
      if (typeof args.query !== "string" || !args.query.trim()) throw new ShadowError("SHADOW_ERR_SEARCH_QUERY_EMPTY", "query is empty; give words to search for.");
      const sources = parseChoiceList(args.sources, MEMORY_SOURCES, "sources", "SHADOW_ERR_INVALID_SOURCES") ?? [...MEMORY_SOURCES];
      if (!sources.length) throw new ShadowError("SHADOW_ERR_NO_SOURCES", `sources is empty; give at least one of ${MEMORY_SOURCES.join(", ")} or leave it out to search all.`);
      const limit = parseLimit(args.limit, DEFAULT_MEMORY_RESULTS);
      const scope = scopeForTool(ctx);
      const result = await memorySearch(scope, args.query.trim(), sources, limit, async () => {
        const [h, view] = await Promise.all([loadHistory(scope), loadIndexView(scope.store)]);
        return { h, view };
      });
      return { result, summary: `${result.results.length} of ${result.total_found} results` };
    });
  },
});
