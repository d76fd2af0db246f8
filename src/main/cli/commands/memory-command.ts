// `ipuaro memory list|search|delete`: what the project remembers (memory_write facts and memory_note
// notes), for people to review and prune.
import type { Command } from "commander";
import { loadHistory } from "../../shadow/change-history.js";
import { loadIndexView } from "../../shadow/index-view.js";
import { MEMORY_SOURCES, memorySearch } from "../../shadow/knowledge-search.js";
import { deleteMemoryOrNote, listMemories, listNotes, MEMORY_CATEGORIES } from "../../shadow/memory-store.js";
import { processIo, reportShadowError, withShadowScope, type ShadowCliIo } from "../../shadow/open-shadow.js";
import { memorySearchTable, memoryTable } from "../../shadow/report-tables.js";
import { isShadowError, ShadowError } from "../../shadow/shadow-errors.js";
import type { ShadowScope } from "../../shadow/shadow-scope.js";
import { parseChoice, parseChoiceList, parseLimit } from "../../shadow/shadow-validate.js";
import { resolveProjectRoot } from "../project-root.js";

interface JsonOption {
  json?: boolean;
}

function run(io: ShadowCliIo, target: string, json: boolean, fn: (scope: ShadowScope) => Promise<void>): Promise<void> {
  return withShadowScope(
    resolveProjectRoot(target),
    async (scope) => {
      try {
        await fn(scope);
      } catch (error) {
        if (!isShadowError(error)) throw error;
        reportShadowError(io, error, json);
      }
    },
    io.env ? { env: io.env } : {},
  );
}

export function registerMemoryCommand(program: Command, io: ShadowCliIo = processIo): void {
  const memory = program.command("memory").description("list, search or delete what the project remembers (facts and notes)");

  memory
    .command("list", { isDefault: true })
    .description("facts and notes, newest first")
    .argument("[path]", "project root", ".")
    .option("--category <category>", MEMORY_CATEGORIES.join(" | "))
    .option("--limit <n>", "most facts and most notes to show (1-100)", "50")
    .option("--json", 'print {"memories": [...], "notes": [...]}')
    .action(async (target: string, opts: JsonOption & { category?: string; limit?: string }) => {
      await run(io, target, !!opts.json, async (scope) => {
        const category = opts.category ? parseChoice(opts.category.toUpperCase(), MEMORY_CATEGORIES, "category", "SHADOW_ERR_UNKNOWN_CATEGORY") : null;
        const limit = parseLimit(opts.limit, 50);
        const memories = (await listMemories(scope)).filter((m) => !category || m.category === category);
        // Stored oldest first (the order they surface in); listed newest first like the facts.
        const notes = category ? [] : (await listNotes(scope)).reverse();
        if (opts.json) return io.out(JSON.stringify({ memories: memories.slice(0, limit), notes: notes.slice(0, limit), total: { memories: memories.length, notes: notes.length } }));
        const cut = memories.length > limit || notes.length > limit;
        const footer = cut ? `\n\nshowing ${Math.min(limit, memories.length)} of ${memories.length} facts and ${Math.min(limit, notes.length)} of ${notes.length} notes (--limit, or memory search)` : "";
        io.out(`${memoryTable(memories.slice(0, limit), notes.slice(0, limit))}${footer}`);
      });
    });

  memory
    .command("search")
    .description("ranked search over facts, notes, decisions, file history and hotspots")
    .argument("<query>", "words to look for")
    .argument("[path]", "project root", ".")
    .option("--sources <list>", `comma-separated: ${MEMORY_SOURCES.join(", ")}`)
    .option("--limit <n>", "most results (1-100)", "15")
    .option("--json", "print the memory_search result as JSON")
    .action(async (query: string, target: string, opts: JsonOption & { sources?: string; limit?: string }) => {
      await run(io, target, !!opts.json, async (scope) => {
        if (!query.trim()) throw new ShadowError("SHADOW_ERR_SEARCH_QUERY_EMPTY", "query is empty; give words to search for.");
        const sources = parseChoiceList(opts.sources, MEMORY_SOURCES, "sources", "SHADOW_ERR_INVALID_SOURCES") ?? [...MEMORY_SOURCES];
        if (!sources.length) throw new ShadowError("SHADOW_ERR_NO_SOURCES", `--sources is empty; give some of ${MEMORY_SOURCES.join(", ")}.`);
        const result = await memorySearch(scope, query.trim(), sources, parseLimit(opts.limit, 15), async () => {
          const [h, view] = await Promise.all([loadHistory(scope), loadIndexView(scope.store)]);
          return { h, view };
        });
        io.out(opts.json ? JSON.stringify(result) : memorySearchTable(result));
      });
    });

  memory
    .command("delete")
    .description("delete one fact (memory:…) or note (note:…) by id")
    .argument("<id>", "id from `ipuaro memory list`")
    .argument("[path]", "project root", ".")
    .option("--json", 'print {"deleted": id}')
    .action(async (id: string, target: string, opts: JsonOption) => {
      await run(io, target, !!opts.json, async (scope) => {
        if (!(await deleteMemoryOrNote(scope, id))) {
          throw new ShadowError("SHADOW_ERR_MEMORY_NOT_FOUND", `no memory or note with id ${id}; see \`ipuaro memory list\`.`, { id });
        }
        io.out(opts.json ? JSON.stringify({ deleted: id }) : `deleted ${id}`);
      });
    });
}
