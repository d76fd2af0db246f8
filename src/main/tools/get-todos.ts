// get_todos: TODO, FIXME, HACK and XXX markers (and JSDoc @todo) in comments of the indexed files.
// JS/TS files carry their markers in the index (found by the extractor, which knows where comments
// are; see workers/extract/todo-markers.ts). Other files (JSON with comments, YAML) and files indexed
// before that are prefiltered on their stored JSON and parsed here, each marker checked against the
// tree-sitter node at its position, so markers inside strings, identifiers or JSX text are not reported.
import { z } from "zod";
import { TimeSlicer } from "../../pipeline/graph/time-slicer.js";
import { languageForPath } from "../../workers/extract/index.js";
import { parseSource } from "../../workers/extract/parsers.js";
import { SourceText } from "../../workers/extract/source-text.js";
import { MARKER_PATTERN, TODO_MARKERS, type TodoEntry, type TodoMarker } from "../../workers/extract/todo-markers.js";
import type { SourceLanguage } from "../../workers/protocol.js";
import { readIndexedTexts } from "../store/index-queries.js";
import { defineTool } from "./define-tool.js";
import { lineText, pastBudget } from "./search-output.js";
import { toolPath } from "./tool-paths.js";
import { counted } from "../plural.js";

export { TODO_MARKERS, type TodoMarker };
export const MAX_TODOS = 200;
/**
 * Past this, once MAX_TODOS markers are found (or past twice this regardless), the remaining files that
 * need parsing here are counted by text match instead (reported as approximate).
 */
export const TODO_SCAN_BUDGET_MS = 3000;

/** The same pattern without the global flag, for a stateless test per line. */
const MARKER_LINE = new RegExp(MARKER_PATTERN.source);
/** Facts JSON of a file whose markers the index carries (none: `"todos":[]`). */
const TODOS_FIELD = '"todos":';

export interface CommentMarker {
  line: number;
  marker: TodoMarker;
}

/** Markers inside comment nodes, one per line (the first marker on it), in line order. */
export function findCommentMarkers(source: string, language: SourceLanguage): CommentMarker[] {
  const hits = [...source.matchAll(MARKER_PATTERN)];
  if (!hits.length) return [];
  const root = parseSource(source, language).rootNode;
  const text = new SourceText(source);
  const out: CommentMarker[] = [];
  let lastLine = 0;
  for (const m of hits) {
    const node = root.descendantForIndex(m.index, m.index + m[0].length);
    if (node.type !== "comment") continue;
    const line = text.lineAt(m.index);
    if (line === lastLine) continue;
    lastLine = line;
    out.push({ line, marker: (m[1] as TodoMarker | undefined) ?? "TODO" });
  }
  return out;
}

function mayHoldMarker(raw: string): boolean {
  return raw.includes("TODO") || raw.includes("FIXME") || raw.includes("HACK") || raw.includes("XXX") || raw.includes("@todo");
}

export const getTodos = defineTool({
  name: "get_todos",
  category: "analysis",
  description:
    "List TODO, FIXME, HACK and XXX comments (and JSDoc @todo) with path, line and the comment line. Markers in strings or code are ignored. Give a file or folder path to narrow the search.",
  parameters: z.object({ path: z.string().optional().describe("File or folder relative to the root; omit for the whole project") }).strict(),
  requiresConfirmation: false,
  title: (a) => `get_todos${a.path ? ` ${a.path}` : ""}`,
  async execute(args, ctx) {
    let under: string | undefined;
    if (args.path && args.path !== "." && args.path !== "/") {
      const p = toolPath(ctx.root, args.path);
      if (!p.ok) return p;
      if (p.rel !== ".") under = p.rel;
    }
    const slicer = new TimeSlicer();
    const byFile = new Map<string, Array<CommentMarker & { text: string }>>();
    const counts = new Map<TodoMarker, number>();
    let total = 0;
    let approx = 0;
    let approxFiles = 0;
    const add = (path: string, markers: Array<CommentMarker & { text: string }>) => {
      if (!markers.length) return;
      byFile.set(path, markers);
      total += markers.length;
      for (const m of markers) counts.set(m.marker, (counts.get(m.marker) ?? 0) + 1);
    };
    // The index's own markers first; the files it has none recorded for are parsed below.
    const toParse: string[] = [];
    const seen = new Set<string>();
    for await (const rows of ctx.store.scanFacts()) {
      for (const [path, json] of rows) {
        if ((under && path !== under && !path.startsWith(`${under}/`)) || seen.has(path)) continue;
        seen.add(path);
        const at = json.lastIndexOf(TODOS_FIELD);
        if (at === -1) {
          if (languageForPath(path)) toParse.push(path);
          continue;
        }
        if (json.startsWith("[]", at + TODOS_FIELD.length)) continue;
        let todos: TodoEntry[];
        try {
          todos = (JSON.parse(json) as { todos: TodoEntry[] }).todos;
        } catch {
          toParse.push(path); // a damaged record: the file's text still answers
          continue;
        }
        add(path, todos.map((t) => ({ line: t.line, marker: t.marker, text: lineText(t.text) })));
      }
      ctx.signal?.throwIfAborted();
      await slicer.maybeYield();
    }
    const started = performance.now();
    for await (const file of readIndexedTexts(ctx.store, toParse, mayHoldMarker)) {
      ctx.signal?.throwIfAborted();
      const language = languageForPath(file.path) as SourceLanguage;
      if (pastBudget(performance.now() - started, total >= MAX_TODOS, TODO_SCAN_BUDGET_MS)) {
        const hits = file.lines.filter((l) => MARKER_LINE.test(l)).length;
        approx += hits;
        if (hits) approxFiles++;
        continue;
      }
      add(file.path, findCommentMarkers(file.lines.join("\n"), language).map((m) => ({ ...m, text: lineText(file.lines[m.line - 1]) })));
      await slicer.maybeYield();
    }
    const scope = under ? ` under ${under}` : "";
    if (!total) {
      if (under && !(await ctx.store.listPaths()).some((p) => p === under || p.startsWith(`${under}/`))) {
        return { ok: false, code: "NOT_FOUND", message: `nothing indexed at ${under}. Use get_structure to see the files.` };
      }
      return { ok: true, llm: `no TODO/FIXME/HACK/XXX comments${scope}`, data: { total: 0, todos: [] }, display: { summary: "none" } };
    }
    const out: string[] = [];
    let shown = 0;
    const files = [...byFile.keys()].sort();
    for (const f of files) {
      if (shown >= MAX_TODOS) break;
      out.push(f);
      const list = byFile.get(f)!;
      const width = String(list[list.length - 1]!.line).length;
      for (const m of list) {
        if (shown >= MAX_TODOS) break;
        shown++;
        out.push(`  ${String(m.line).padStart(width)} ${m.marker} │ ${m.text}`);
      }
    }
    const summary = TODO_MARKERS.filter((k) => counts.has(k)).map((k) => `${counts.get(k)} ${k}`).join(", ");
    const head = `${total} marker${total === 1 ? "" : "s"} (${summary}) in ${byFile.size} file${byFile.size === 1 ? "" : "s"}${scope}:`;
    let more = total > shown ? `\n… ${total - shown} more not shown; narrow with path=<folder>` : "";
    if (approx) more += `\n… and about ${approx} more in ${approxFiles} files, counted without checking that they are comments (parsing stopped after ${TODO_SCAN_BUDGET_MS / 1000} s)`;
    return {
      ok: true,
      llm: `${head}\n${out.join("\n")}${more}`,
      data: { total, approximateMore: approx, todos: files.flatMap((f) => byFile.get(f)!.map((m) => ({ path: f, line: m.line, marker: m.marker, text: m.text }))).slice(0, MAX_TODOS) },
      display: { summary: counted(total, "marker") },
    };
  },
});
