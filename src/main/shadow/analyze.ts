// The `analyze` query router (seed 001 §2) shared by the model tool and `ipuaro analyze`: checks the
// arguments with the seed's error codes, brings git history up to date, and runs one analysis.
import { loadHistory, type ShadowHistory } from "./change-history.js";
import { codeErrors, decisionsList } from "./code-errors.js";
import { dependencyGraph } from "./dependency-graph.js";
import { fileHistory, type FileHistoryResult } from "./file-history.js";
import { currentGitUser, shallowBoundaries, syncGitHistory } from "./git-history.js";
import { MIN_HOTSPOT_SCORE, scoreFiles } from "./hotspots.js";
import { basename, isIndexedFolder, loadIndexView, type IndexView } from "./index-view.js";
import type { Bm25Index } from "./bm25.js";
import { buildKnowledgeGraph, type KnowledgeGraph } from "./knowledge-graph.js";
import { knowledgeIndex, knowledgeSearch } from "./knowledge-search.js";
import { DECISION_STATUSES, listDecisions, listMemories, listNotes } from "./memory-store.js";
import { myStats } from "./my-stats.js";
import { predictChange } from "./predict-change.js";
import { ShadowError } from "./shadow-errors.js";
import type { ShadowScope } from "./shadow-scope.js";
import { optionalText, parseChoice, parseDepth, parseLimit, parseTimeframe, projectRelative, windowDays, windowStart, type Timeframe } from "./shadow-validate.js";
import { teamPulse } from "./team-pulse.js";
import { counted } from "../plural.js";

export const ANALYZE_QUERIES = ["hotspots", "predict_change", "file_history", "team_pulse", "my_stats", "dependency_graph", "knowledge_search", "decisions_list", "code_errors"] as const;
export type AnalyzeQuery = (typeof ANALYZE_QUERIES)[number];
/** Seed 001: a query that runs longer than this fails with SHADOW_ERR_TIMEOUT. */
export const ANALYZE_TIMEOUT_MS = 5_000;
const NEEDS_TARGET = new Set<AnalyzeQuery>(["predict_change", "file_history", "dependency_graph", "knowledge_search"]);

export interface AnalyzeArgs {
  query?: unknown;
  target?: unknown;
  timeframe?: unknown;
  limit?: unknown;
  depth?: unknown;
}

export interface AnalyzeOutcome {
  query: AnalyzeQuery;
  result: unknown;
  summary: string;
}

interface Loaded {
  h: ShadowHistory;
  view: IndexView;
}

function didYouMean(view: IndexView, target: string): string[] {
  const name = basename(target);
  return [...view.metas.keys()].filter((p) => p !== target && basename(p) === name).slice(0, 3);
}

function fileNotFound(view: IndexView, target: string, what: string): ShadowError {
  const similar = didYouMean(view, target);
  return new ShadowError("SHADOW_ERR_FILE_NOT_FOUND", `${target} ${what}${similar.length ? `; did you mean ${similar.join(" or ")}?` : "."}`, { target, ...(similar.length ? { similar } : {}) });
}

/** predict_change and file_history read one file: a folder gets told so, not that it "is not in the index". */
function folderGiven(view: IndexView, target: string, query: AnalyzeQuery): ShadowError | null {
  const folder = target.replace(/\/$/, "");
  if (view.metas.has(folder) || !isIndexedFolder(view, folder)) return null;
  return new ShadowError("SHADOW_ERR_FILE_NOT_FOUND", `${folder} is a folder; ${query} needs one file. Use dependency_graph for a folder, or hotspots to pick its riskiest file.`, { target: folder, folder: true });
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`timed out after ${ms} ms`), { name: "TimeoutError" })), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** How long a built knowledge graph serves searches while the history, file count and memory stay the same. */
const KNOWLEDGE_CACHE_MS = 60_000;
const knowledgeCache = new Map<string, { key: string; at: number; graph: KnowledgeGraph; index: Bm25Index }>();

/**
 * The knowledge graph and its search index, reused between searches: built from every file's AST, it
 * took 1–1.6 s of the UI's thread per search on 12K files. A new one is built when the history moves,
 * files come or go, anything remembered changes, or a minute has passed (edits inside files).
 */
async function knowledgeFor(scope: ShadowScope, h: ShadowHistory, view: IndexView): Promise<{ graph: KnowledgeGraph; index: Bm25Index }> {
  const [memories, decisions, notes] = await Promise.all([listMemories(scope), listDecisions(scope), listNotes(scope)]);
  const remembered = [...memories.map((m) => `${m.id}:${m.content.length}`), ...decisions.map((d) => `${d.id}:${d.status}:${d.description.length}`), ...notes.map((n) => `${n.id}:${n.status}`)].join(",");
  const key = `${h.version}|${view.metas.size}|${remembered}`;
  const cached = knowledgeCache.get(scope.project);
  if (cached && cached.key === key && scope.now() - cached.at < KNOWLEDGE_CACHE_MS) return cached;
  const graph = await buildKnowledgeGraph(scope, h, view);
  const built = { key, at: scope.now(), graph, index: knowledgeIndex(graph) };
  knowledgeCache.set(scope.project, built);
  return built;
}

/** A timeline entry at a shallow clone's boundary is no creation: it and the result say the history is cut there. */
function markShallowBoundary(result: FileHistoryResult, boundaries: ReadonlySet<string>): void {
  if (!boundaries.size) return;
  let cut: string | null = null;
  for (const entry of result.timeline) {
    if (!entry.commit || ![...boundaries].some((b) => b.startsWith(entry.commit!))) continue;
    entry.shallow_boundary = true;
    entry.changes = `${entry.changes} (the clone's history starts here: the file as it was then)`;
    cut = entry.date;
  }
  if (cut) result.history_cut = `this is a shallow clone: its history starts at ${cut}, so the file is older than "first_seen" says and earlier changes are not known`;
}

export async function runAnalyze(scope: ShadowScope, args: AnalyzeArgs, opts: { timeoutMs?: number } = {}): Promise<AnalyzeOutcome> {
  const query = parseChoice(args.query, ANALYZE_QUERIES, "query", "SHADOW_ERR_INVALID_QUERY");
  const fallbackTimeframe: Timeframe = query === "file_history" ? "all" : "30d";
  const timeframe = parseTimeframe(args.timeframe, fallbackTimeframe);
  const limit = parseLimit(args.limit, query === "decisions_list" ? 20 : 10);
  const depth = parseDepth(args.depth);
  const target = optionalText(args.target, "target");
  if (NEEDS_TARGET.has(query) && !target) {
    const what = query === "knowledge_search" ? "the search text" : "a project file path";
    throw new ShadowError("SHADOW_ERR_MISSING_TARGET", `query "${query}" needs target (${what}).`, { query });
  }
  let importing = false;
  const work = async (): Promise<AnalyzeOutcome> => {
    importing = true;
    try {
      await syncGitHistory(scope);
    } catch {
      // Analyses still run on what was imported before (and on the events).
    } finally {
      importing = false;
    }
    const [h, view] = await Promise.all([loadHistory(scope), loadIndexView(scope.store)]);
    return { query, ...(await dispatch(scope, { h, view }, query, { target, timeframe, limit, depth })) };
  };
  const timeoutMs = opts.timeoutMs ?? ANALYZE_TIMEOUT_MS;
  try {
    return await withTimeout(work(), timeoutMs);
  } catch (err) {
    // The first import of a long history can outlast the limit; it goes on in the background, so the
    // same question answers once it is done ("try a shorter timeframe" would not help).
    if ((err as Error)?.name === "TimeoutError" && importing) {
      throw new ShadowError("SHADOW_ERR_TIMEOUT", `the project's git history is still being imported (the first import of a long history takes a while) and continues in the background; ask the same question again in a moment.`, { importing_git_history: true, retry_after_ms: timeoutMs });
    }
    throw err;
  }
}

async function dispatch(scope: ShadowScope, { h, view }: Loaded, query: AnalyzeQuery, a: { target: string | undefined; timeframe: Timeframe; limit: number; depth: number }): Promise<{ result: unknown; summary: string }> {
  const now = scope.now();
  const from = windowStart(a.timeframe, now);
  const days = windowDays(a.timeframe);
  const path = () => projectRelative(scope.root, a.target!);
  switch (query) {
    case "hotspots": {
      if (!h.changes.length) {
        // An imported project often has one big first commit: a sweep, which says nothing about a file's health.
        const why = h.sweeps.size ? "its git history holds only bulk commits (touching many files at once: an import, a reformat), which say nothing about a file's health, and no edits or errors are recorded yet" : "no edits, errors or git history are recorded for this project yet";
        throw new ShadowError("SHADOW_ERR_INSUFFICIENT_DATA", `${why}.`);
      }
      const scored = scoreFiles(h, view, { from, now, days });
      const hot = scored.filter((s) => s.score > MIN_HOTSPOT_SCORE);
      if (!hot.length) throw new ShadowError("SHADOW_ERR_NO_HOTSPOTS", `no file scored above ${MIN_HOTSPOT_SCORE} in ${a.timeframe}; the project looks stable. Try timeframe "all".`, { timeframe: a.timeframe, files_analyzed: scored.length });
      const hotspots = hot.slice(0, a.limit);
      return { result: { hotspots, generated_at: now, timeframe: a.timeframe, total_files_analyzed: scored.length }, summary: `${hotspots.length} hotspots, top ${hotspots[0]!.file} ${hotspots[0]!.score}` };
    }
    case "predict_change": {
      const target = path();
      const prediction = predictChange(h, view, target);
      if (!prediction) {
        const folder = folderGiven(view, target, "predict_change");
        if (folder) throw folder;
        if (!view.metas.has(target)) throw fileNotFound(view, target, "is not in the index and has no recorded history");
        throw new ShadowError("SHADOW_ERR_NO_PREDICTION_DATA", `${target} has no recorded changes and nothing imports it, so there is nothing to predict from.`, { target });
      }
      return { result: prediction, summary: `${target}: ${prediction.risk_level} risk (${prediction.risk_score})` };
    }
    case "file_history": {
      const target = path();
      const result = fileHistory(h, target, from, now);
      const folder = result ? null : folderGiven(view, target, "file_history");
      if (folder) throw folder;
      if (result) markShallowBoundary(result, await shallowBoundaries(scope.root));
      if (!result) throw fileNotFound(view, target, view.metas.has(target) ? (a.timeframe === "all" ? "has no recorded changes (no commits, edits or errors)" : `has no recorded changes in ${a.timeframe}`) : "has no recorded history and is not in the index");
      return { result, summary: `${target}: ${result.total_edits} changes` };
    }
    case "team_pulse": {
      const result = teamPulse(h, view, { from, now, days });
      if (!result) throw new ShadowError("SHADOW_ERR_INSUFFICIENT_DATA", `nothing changed in ${a.timeframe}; try a longer timeframe.`, { timeframe: a.timeframe });
      return { result, summary: `health ${result.project_health_score}, ${result.trend}` };
    }
    case "my_stats": {
      const result = myStats(h, from, now, days, await currentGitUser(scope.root));
      if (!result) throw new ShadowError("SHADOW_ERR_INSUFFICIENT_DATA", `no sessions, edits or own commits in ${a.timeframe}.`, { timeframe: a.timeframe });
      return { result, summary: `${counted(result.sessions_total, "session")}, ${counted(result.files_edited, "file")}` };
    }
    case "dependency_graph": {
      const target = path().replace(/\/$/, "");
      const isFolder = !view.metas.has(target) && isIndexedFolder(view, target);
      if (!isFolder && !view.metas.has(target) && !h.byFile.has(target)) throw fileNotFound(view, target, "is neither an indexed file or folder nor in the history");
      const result = dependencyGraph(h, view, target, isFolder, a.depth);
      if (!result) throw new ShadowError("SHADOW_ERR_NO_DEPENDENCIES", `${target} imports nothing in the project, nothing imports it, and it never changed together with other files.`, { target });
      return { result, summary: `${result.total_dependencies} dependencies, ${result.total_dependents} dependents` };
    }
    case "knowledge_search": {
      const { graph, index } = await knowledgeFor(scope, h, view);
      const result = knowledgeSearch(graph, a.target!, a.limit, index);
      return { result, summary: `${result.total_found} matches` };
    }
    case "decisions_list": {
      const status = a.target ? parseChoice(a.target.toLowerCase(), DECISION_STATUSES, "status filter (target)", "SHADOW_ERR_INVALID_STATUS") : null;
      const all = await listDecisions(scope);
      if (!all.length) throw new ShadowError("SHADOW_ERR_NO_DECISIONS", "no architecture decisions are recorded yet; record one with decide.");
      const result = decisionsList(all, status, a.limit);
      return { result, summary: `${result.decisions.length} of ${result.total} decisions` };
    }
    case "code_errors": {
      const result = codeErrors(h, from, now, a.timeframe, a.limit);
      return { result, summary: `${counted(result.total_errors, "error")} in ${counted(result.files.length, "file")}` };
    }
  }
}
