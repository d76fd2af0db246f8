// Readable text for `ipuaro analyze`, `ipuaro memory` and `ipuaro decisions`: aligned tables and
// key-value lines made from the same results the model gets as JSON.
import { escapeForDisplay } from "../security/hidden-characters.js";
import { counted } from "../plural.js";
import type { AnalyzeQuery } from "./analyze.js";
import type { CodeErrorsResult, DecisionsListResult } from "./code-errors.js";
import type { DependencyGraphResult } from "./dependency-graph.js";
import type { FileHistoryResult } from "./file-history.js";
import type { Hotspot } from "./hotspots.js";
import type { KnowledgeSearchResult, MemorySearchResult } from "./knowledge-search.js";
import type { MemoryEntry, NoteEntry } from "./memory-store.js";
import type { MyStatsResult } from "./my-stats.js";
import type { PredictChangeResult } from "./predict-change.js";
import type { TeamPulseResult } from "./team-pulse.js";

export const MAX_CELL = 60;

/** One cell: whitespace runs as one space, and control characters (a note's ESC or BEL, written by a
 * model or an injected file) shown escaped instead of reaching the terminal. */
function cell(value: unknown): string {
  const text = value === null || value === undefined ? "-" : escapeForDisplay(String(value).replace(/\s+/g, " "));
  return cutCell(text, MAX_CELL);
}

/** Columns at most this narrow are not cut while a table can fit by closing up its gaps instead. */
const MIN_FIT_COLUMN = 12;
/** The narrowest a column is cut to when nothing else fits ("0.…" still says there is a number). */
const MIN_CUT_COLUMN = 4;
/** The width tables must fit in while formatAnalyze runs (a terminal's or the chat's); none: no limit. */
let fitWidth = Infinity;

/** A cell cut to `width`: a path keeps its end (the file name), other text its start. */
function cutCell(text: string, width: number): string {
  if (text.length <= width) return text;
  return text.includes("/") && !text.includes(" ") ? `…${text.slice(text.length - width + 1)}` : `${text.slice(0, width - 1)}…`;
}

interface Layout {
  widths: number[];
  /** Spaces between columns. */
  gap: number;
}

/** `widths` narrowed, the widest column a cell at a time, until the row fits `fitWidth` or all are at `floor`. */
function narrowed(widths: readonly number[], gap: number, floor: number): Layout {
  const out = [...widths];
  let total = out.reduce((a, b) => a + b, 0) + gap * (out.length - 1);
  while (total > fitWidth) {
    let widest = -1;
    for (let i = 0; i < out.length; i++) if (out[i]! > floor && (widest === -1 || out[i]! > out[widest]!)) widest = i;
    if (widest === -1) break;
    out[widest]!--;
    total--;
  }
  return { widths: out, gap };
}

/**
 * Column widths that fit `fitWidth`, in the order that loses least: the widest columns (paths, text) give
 * way down to MIN_FIT_COLUMN; then the gaps close to one space; then every column is cut down to
 * MIN_CUT_COLUMN. A row wider than the chat was wrapped onto the next row, under the first column, and
 * read as another row of the table.
 */
function fitColumns(widths: readonly number[]): Layout {
  const fits = (l: Layout) => l.widths.reduce((a, b) => a + b, 0) + l.gap * (l.widths.length - 1) <= fitWidth;
  const roomy = narrowed(widths, 2, MIN_FIT_COLUMN);
  if (fits(roomy)) return roomy;
  const close = narrowed(widths, 1, MIN_FIT_COLUMN);
  return fits(close) ? close : narrowed(widths, 1, MIN_CUT_COLUMN);
}

/**
 * Columns padded to their widest cell; the last column is not padded. A table too wide even with every
 * column cut has its rows cut at the width (the last columns lost, marked …) rather than wrapped.
 */
export function table(headers: string[], rows: unknown[][]): string {
  const full = [headers, ...rows.map((r) => r.map(cell))];
  const { widths, gap } = fitColumns(headers.map((_, i) => Math.max(...full.map((r) => (r[i] ?? "").length))));
  const cells = full.map((r) => r.map((c, i) => cutCell(c, widths[i]!)));
  const lines = cells.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join(" ".repeat(gap)).trimEnd());
  return lines.map((l) => (l.length > fitWidth ? `${l.slice(0, fitWidth - 1).replace(/…$/, "").trimEnd()}…` : l)).join("\n");
}

function kv(pairs: Array<[string, unknown]>): string {
  const width = Math.max(...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `${`${k}:`.padEnd(width + 1)} ${Array.isArray(v) ? v.join(", ") || "-" : cell(v)}`).join("\n");
}

function hotspots(r: { hotspots: Hotspot[]; timeframe: string; total_files_analyzed: number }): string {
  const rows = r.hotspots.map((h) => [h.file, h.score, h.level, h.stats.total_edits, h.stats.errors_caused, h.stats.human_fixes + h.stats.reverts, h.breakdown.complexity, h.stats.last_edit]);
  return `${table(["FILE", "SCORE", "LEVEL", "EDITS", "ERRORS", "REWORK", "COMPLEXITY", "LAST EDIT"], rows)}\n\n${counted(r.total_files_analyzed, "file")} changed in ${r.timeframe}`;
}

function predict(r: PredictChangeResult): string {
  const head = kv([
    ["target", r.target],
    ["risk", `${r.risk_level} (${r.risk_score})`],
    ["breakage rate", r.historical_breakage_rate],
    ["changes seen", r.total_changes],
    ["dependencies", r.dependency_count],
    ["affected files", r.affected_files],
  ]);
  const recent = r.recent_similar_changes.length ? `\n\n${table(["DATE", "SOURCE", "SESSION/COMMIT", "RESULT"], r.recent_similar_changes.map((c) => [c.date, c.source, c.session_id ?? c.commit, c.result]))}` : "";
  return `${head}${recent}\n\n${r.recommendation}`;
}

function history(r: FileHistoryResult): string {
  const head = kv([
    ["file", r.file],
    ["first seen", r.first_seen],
    ["changes", `${r.total_edits} (${r.authors.ai} by the agent, ${r.authors.human} by people)`],
    ["sessions", r.unique_sessions],
    ["stability", r.stability_score],
    ["changes with", r.top_collaborators],
    ...(r.history_cut ? [["note", r.history_cut] as [string, unknown]] : []),
  ]);
  const rows = r.timeline.map((t) => [t.date, t.agent === "ai" ? `ai ${t.session_id ?? ""}`.trim() : (t.author ?? "human"), t.changes, t.caused_error ? `${t.error_type}: ${t.error_message}` : t.human_fix ? "human fix" : "ok"]);
  return `${head}\n\n${table(["DATE", "WHO", "CHANGES", "OUTCOME"], rows)}`;
}

function pulse(r: TeamPulseResult): string {
  const head = kv([
    ["health", `${r.project_health_score} (${r.trend}${r.previous_health_score !== null ? `, was ${r.previous_health_score}` : ""})`],
    ["files", `${r.active_files} active of ${r.total_files}`],
    ["hotspots", r.hotspot_count],
    ["AI share", r.ai_reliance_ratio],
    ["error rate", r.error_rate],
    ["session length", `${r.avg_session_duration_min} min`],
    ["top concern", r.top_concern],
  ]);
  return `${head}\n\n${table(["MONTH", "HEALTH", "CHANGES"], r.health_over_time.map((m) => [m.month, m.score, m.changes]))}\n\n${table(["MODULE", "HEALTH", "FILES", "ACTIVE", "HOTSPOT"], r.module_breakdown.map((m) => [m.module, m.health_score, m.files, m.active_files, m.hotspot]))}`;
}

function stats(r: MyStatsResult): string {
  const t = r.trends;
  const head = kv([
    ["me", [r.me.name, r.me.email ? `<${r.me.email}>` : null].filter(Boolean).join(" ") || "unknown"],
    ["sessions", `${r.sessions_total} (${r.sessions_per_day}/day, ${r.avg_session_duration_min} min average)`],
    ["files edited", r.files_edited],
    ["AI share", `${r.ai_generated_ratio} (${t.ai_reliance.direction})`],
    ["human fix rate", `${r.human_fix_ratio} (${t.fix_rate.direction})`],
    ["errors", r.errors_encountered],
    ["tools", Object.entries(r.tools_used).map(([k, v]) => `${k} ${v}`)],
  ]);
  return `${head}\n\n${table(["FILE", "EDITS", "ERRORS"], r.top_files.map((f) => [f.file, f.edits, f.errors]))}${r.achievements.length ? `\n\n${r.achievements.map((a) => `* ${a}`).join("\n")}` : ""}`;
}

function graph(r: DependencyGraphResult): string {
  const parts = [
    kv([
      ["root", `${r.root} (${r.kind}, depth ${r.depth})`],
      ["imports", r.imports],
      ["imported by", r.imported_by],
      ["totals", `${counted(r.total_dependencies, "dependency", "dependencies")}, ${counted(r.total_dependents, "dependent")}`],
    ]),
  ];
  // Levels 2..depth: the totals count them, so the text lists them too.
  const further = [...(r.transitive?.imports ?? []).map((x) => ["imports", x.depth, x.file]), ...(r.transitive?.imported_by ?? []).map((x) => ["imported by", x.depth, x.file])];
  if (further.length) parts.push(table(["FURTHER", "DEPTH", "FILE"], further));
  if (r.co_changed_with.length) parts.push(table(["CHANGES WITH", "FREQUENCY", "COUPLING", "SHARED", "LAST"], r.co_changed_with.map((c) => [c.file, c.frequency, c.coupling, c.shared_commits, c.last_together])));
  if (r.causes_bugs_in.length) parts.push(table(["BREAKS", "TIMES"], r.causes_bugs_in.map((c) => [c.file, c.count])));
  return parts.join("\n\n");
}

/** One decision in full (`ipuaro decisions --id N`): what the table leaves out. */
export function decisionDetail(d: DecisionsListResult["decisions"][number]): string {
  const text = (t: string) => escapeForDisplay(t);
  const lines = [`#${d.id} ${text(d.title)}  [${d.status}, ${d.decided_at}]`];
  if (d.tags.length) lines.push(`tags: ${text(d.tags.join(", "))}`);
  if (d.context) lines.push("", "context:", text(d.context));
  lines.push("", "decision:", text(d.decision));
  if (d.alternatives.length) lines.push("", "alternatives considered:", ...d.alternatives.map((a) => `  - ${text(a)}`));
  if (d.related_files.length) lines.push("", `related files: ${text(d.related_files.join(", "))}`);
  if (d.supersedes !== undefined) lines.push(`supersedes: #${d.supersedes}`);
  if (d.superseded_by !== undefined) lines.push(`superseded by: #${d.superseded_by}`);
  return lines.join("\n");
}

export function decisionsTable(r: DecisionsListResult): string {
  if (!r.decisions.length) return "no decisions match";
  return `${table(["ID", "STATUS", "DATE", "TITLE", "TAGS"], r.decisions.map((d) => [d.id, d.status, d.decided_at, d.title, d.tags.join(", ")]))}\n\n${r.decisions.length} of ${r.total} (ipuaro decisions --id N shows one in full)`;
}

function errors(r: CodeErrorsResult): string {
  if (!r.files.length) return `no errors recorded in ${r.timeframe}`;
  const rows = r.files.map((f) => [f.file ?? "(no file)", f.count, f.last_seen, Object.entries(f.kinds).map(([k, n]) => `${k} ${n}`).join(", "), f.recent[0]?.message]);
  return `${table(["FILE", "ERRORS", "LAST", "KINDS", "LATEST"], rows)}\n\n${r.total_errors} errors in ${r.timeframe}`;
}

function search(r: KnowledgeSearchResult): string {
  if (!r.results.length) return `nothing matches "${r.query}"`;
  return table(["TYPE", "NAME", "RELEVANCE", "DESCRIPTION"], r.results.map((x) => [x.node_type, x.name, x.relevance, x.description]));
}

/** `width`: the columns tables must fit in (a terminal's, the TUI chat's); wider columns are cut. */
export function formatAnalyze(query: AnalyzeQuery, result: unknown, opts: { width?: number } = {}): string {
  fitWidth = opts.width && opts.width > 0 ? opts.width : Infinity;
  try {
    return formatQuery(query, result);
  } finally {
    fitWidth = Infinity;
  }
}

function formatQuery(query: AnalyzeQuery, result: unknown): string {
  switch (query) {
    case "hotspots":
      return hotspots(result as Parameters<typeof hotspots>[0]);
    case "predict_change":
      return predict(result as PredictChangeResult);
    case "file_history":
      return history(result as FileHistoryResult);
    case "team_pulse":
      return pulse(result as TeamPulseResult);
    case "my_stats":
      return stats(result as MyStatsResult);
    case "dependency_graph":
      return graph(result as DependencyGraphResult);
    case "knowledge_search":
      return search(result as KnowledgeSearchResult);
    case "decisions_list":
      return decisionsTable(result as DecisionsListResult);
    case "code_errors":
      return errors(result as CodeErrorsResult);
  }
}

export function memoryTable(memories: readonly MemoryEntry[], notes: readonly NoteEntry[]): string {
  const parts: string[] = [];
  if (memories.length) parts.push(table(["ID", "CATEGORY", "UPDATED", "CONTENT"], memories.map((m) => [m.id, m.category, new Date(m.updated_at).toISOString().slice(0, 10), m.content])));
  if (notes.length) parts.push(table(["ID", "STATUS", "CREATED", "WHEN", "NOTE"], notes.map((n) => [n.id, n.status, new Date(n.created_at).toISOString().slice(0, 10), n.surface_condition ?? "next session", n.content])));
  return parts.length ? parts.join("\n\n") : "the project memory is empty";
}

export function memorySearchTable(r: MemorySearchResult): string {
  if (!r.results.length) return `nothing matches "${r.query}"`;
  return table(["SOURCE", "ID", "RELEVANCE", "LABEL"], r.results.map((x) => [x.source, x.id, x.relevance, x.label]));
}
