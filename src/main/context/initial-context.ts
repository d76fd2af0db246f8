// The fixed part of the agent's context (seed 000, "Начальный контекст"): project instruction files,
// then a project map from Redis — header, folder structure, graph metrics, outlines of the files that
// rank highest for this conversation, and a per-folder summary of the rest. No code, and never more
// than `budgetTokens` by the caller's own estimator.
import path from "node:path";
import { largestFitting, type EstimateTokens } from "./budget-fit.js";
import { folderNames, folderSummarySection, groupByFolder, SUMMARY_FILES_PER_FOLDER, SUMMARY_NAMES_PER_FOLDER, type FolderGroup, type FolderSummary } from "./folder-summary.js";
import { structureSection } from "./folder-tree.js";
import { DEFAULT_INSTRUCTION_FILES, readInstructions, type InstructionsSection } from "./instruction-files.js";
import { extractMentionTokens } from "./mentions.js";
import { exportedNames, formatFileOutline, MAX_OUTLINE_LINES } from "./project-outline.js";
import { fitLines, headerSection, joinSections, metricsSection } from "./project-sections.js";
import { AstLoader, loadSnapshot, lookupSymbols, MAX_KEPT_ASTS, referenceEdges, type ContextStore, type ProjectSnapshot } from "./project-snapshot.js";
import { SnapshotCache } from "./snapshot-cache.js";
import { diversifyByWorkspace } from "./outline-diversity.js";
import { rankFiles, SPECIFIC_SYMBOL_DEFINITIONS, withReferences, type RankedFile } from "./repo-ranking.js";

/** Share of the budget instruction files may take; what they leave unused goes to the project map. */
export const INSTRUCTIONS_SHARE = 0.3;
/** Shares of the project map's budget for the folder tree and the metrics lines. */
export const STRUCTURE_SHARE = 0.2;
export const METRICS_SHARE = 0.08;
/** Part of what is left for outlines that is kept for the per-folder summary when not every file fits. */
export const SUMMARY_SHARE = 0.25;
/** Tokens per outline assumed before any is measured; later reads size themselves on the average seen. */
const GUESSED_OUTLINE_TOKENS = 120;
const MAX_OUTLINE_CHUNK = 256;
/** One outline may take this share of the outline budget (in lines of ~OUTLINE_LINE_TOKENS)… */
const MAX_OUTLINE_SHARE = 0.1;
const OUTLINE_LINE_TOKENS = 12;
/** …but never fewer lines than this, nor more than MAX_OUTLINE_LINES. */
const MIN_OUTLINE_LINES = 8;
/** Tokens per folder line assumed when deciding how many folders' exports to read first. */
const GUESSED_FOLDER_LINE_TOKENS = 20;
/** Re-fits when the estimator counts a joined text above its parts; each pass takes the overflow off. */
const MAX_FIT_PASSES = 4;

export interface BuildInitialContextOptions {
  store: ContextStore;
  /** Project root on disk (instruction files are read from it; shown in the header). */
  root: string;
  /** Tokens the whole result (instructions + project map) may take. */
  budgetTokens: number;
  estimateTokens: EstimateTokens;
  /** Raw text of recent messages, oldest first: paths and identifiers in it personalise the ranking. */
  mentions?: readonly string[];
  /** Recently changed files (root-relative or absolute under root), e.g. from git status or the watcher. */
  recentFiles?: readonly string[];
  /** Root-relative instruction files to read; default AGENTS.md and .ipuaro/instructions.md. */
  instructionFiles?: readonly string[];
  /** Display name of the project; default the root folder's name. */
  projectName?: string;
  /**
   * Parsed index data kept between builds while the index is unchanged. Default: one cache shared by
   * the process; null reads everything afresh.
   */
  cache?: SnapshotCache | null;
}

/** The process-wide default for `cache`. */
export const sharedSnapshotCache = new SnapshotCache();

export interface InitialContext {
  /** Instructions section (if any) and the project map, as they go into the fixed part. */
  text: string;
  /** estimateTokens(text); never above budgetTokens. */
  tokens: number;
  /** The instruction files' section on its own, so compression can keep it; null when there is none. */
  instructions: InstructionsSection | null;
  /** The project map on its own. */
  projectMap: string;
  /** Files given an outline, in ranking order. */
  includedFiles: string[];
  /** Folders given a summary line. */
  summarisedFolders: number;
  /** Every indexed path (text, binary, symlinks). */
  totalFiles: number;
  /** The whole ranking order (parsed files), for callers that page further, e.g. a later refresh. */
  rankedFiles: string[];
  timings: { loadMs: number; rankMs: number; fitMs: number; totalMs: number };
}

function toRelative(root: string, file: string): string {
  const rel = path.isAbsolute(file) ? path.relative(root, file) : file;
  return rel.split(path.sep).join("/").replace(/^\.\//, "");
}

interface MapInput {
  name: string;
  root: string;
  snapshot: ProjectSnapshot;
  ranked: readonly RankedFile[];
  loader: AstLoader;
  estimate: EstimateTokens;
}

interface ProjectMap {
  text: string;
  includedFiles: string[];
  summarisedFolders: number;
}

const SEPARATOR = "\n\n";

/** Outlines of the top files plus the folder summary of the rest, within `avail` tokens. */
async function outlinesAndSummary(input: MapInput, avail: number): Promise<{ text: string; included: string[]; folders: number }> {
  const { ranked, loader, estimate, snapshot } = input;
  const outlines: string[] = [];
  const maxLines = Math.min(MAX_OUTLINE_LINES, Math.max(MIN_OUTLINE_LINES, Math.floor((avail * MAX_OUTLINE_SHARE) / OUTLINE_LINE_TOKENS)));
  const outline = (i: number) => {
    const { path: p, pinned } = ranked[i]!;
    // A file the conversation names keeps its full outline: the member asked about must not be cut.
    return formatFileOutline(p, loader.get(p), snapshot.meta.get(p) ?? null, { maxLines: pinned ? MAX_OUTLINE_LINES : maxLines });
  };
  // Load ASTs in rank order only until the outlines loaded could not all fit anyway.
  let loadedTokens = 0;
  while (outlines.length < ranked.length && loadedTokens < avail) {
    const perOutline = outlines.length ? loadedTokens / outlines.length : GUESSED_OUTLINE_TOKENS;
    const chunk = Math.min(MAX_OUTLINE_CHUNK, Math.ceil(((avail - loadedTokens) / perOutline) * 1.1) + 4);
    const next = ranked.slice(outlines.length, outlines.length + chunk);
    await loader.load(next.map((f) => f.path));
    for (let i = 0; i < next.length && loadedTokens < avail; i++) {
      outlines.push(outline(outlines.length));
      loadedTokens += estimate(outlines[outlines.length - 1]!);
    }
  }
  const renderOutlines = (k: number) =>
    k === 0 ? "" : `## File outlines (${k} of ${ranked.length} files, most relevant first; L = lines, cx = complexity)\n${outlines.slice(0, k).join("\n")}`;
  if (outlines.length === ranked.length) {
    const all = renderOutlines(outlines.length);
    if (estimate(all) <= avail) return { text: all, included: ranked.map((f) => f.path), folders: 0 };
  }
  const reserve = Math.floor(avail * SUMMARY_SHARE);
  const fitted = largestFitting(outlines.length, avail - reserve, renderOutlines, estimate);
  const k = Math.max(0, fitted.k);
  const outlineText = fitted.k > 0 ? fitted.text : "";
  const groups = groupByFolder(ranked.slice(k));
  const summaryBudget = avail - (outlineText ? estimate(outlineText) + estimate(SEPARATOR) : 0);
  const summary = await namedFolderSummary(groups, summaryBudget, loader, estimate);
  return { text: joinSections([outlineText, summary.text]), included: ranked.slice(0, k).map((f) => f.path), folders: summary.folders };
}

/**
 * The folder summary, reading exports only for folders that may get a line: a first guess from the
 * budget, doubled while every folder read so far still fits.
 */
async function namedFolderSummary(groups: readonly FolderGroup[], budget: number, loader: AstLoader, estimate: EstimateTokens): Promise<FolderSummary> {
  const exportsOf = (p: string) => exportedNames(loader.get(p));
  let folders = Math.min(groups.length, Math.ceil(Math.max(0, budget) / GUESSED_FOLDER_LINE_TOKENS) + 8);
  for (;;) {
    const top = groups.slice(0, folders);
    await loader.load(top.map((g) => g.files[0]!));
    // Later files of a folder only where the ones before name too little.
    for (let f = 1; f < SUMMARY_FILES_PER_FOLDER; f++) {
      const more = top.filter((g) => g.files.length > f && folderNames(g.files.slice(0, f), exportsOf).length < SUMMARY_NAMES_PER_FOLDER);
      await loader.load(more.map((g) => g.files[f]!));
    }
    const summary = folderSummarySection(groups, budget, estimate, exportsOf, folders);
    if (summary.folders < folders || folders >= groups.length) return summary;
    folders = Math.min(groups.length, folders * 2);
  }
}

async function composeProjectMap(input: MapInput, budget: number): Promise<ProjectMap> {
  const { estimate, snapshot } = input;
  const empty = { includedFiles: [], summarisedFolders: 0 };
  if (budget <= 0) return { text: "", ...empty };
  const header = headerSection(input.name, input.root, snapshot.allPaths);
  if (estimate(header) >= budget) return { text: fitLines(header, budget, estimate), ...empty };
  const sep = estimate(SEPARATOR);
  const afterHeader = budget - estimate(header) - sep;
  const structure = structureSection(snapshot.folders, Math.floor(afterHeader * STRUCTURE_SHARE), estimate, snapshot.folderOrder);
  const rankedPaths = input.ranked.map((f) => f.path);
  const isEntryPoint = (p: string) => snapshot.meta.get(p)?.isEntryPoint === true;
  const metrics = metricsSection(snapshot.graphMetrics(), isEntryPoint, rankedPaths, Math.floor(afterHeader * METRICS_SHARE), estimate);
  const fixed = joinSections([header, structure, metrics]);
  const avail = budget - estimate(fixed) - sep;
  if (avail <= 0) return { text: fixed, ...empty };
  const rest = await outlinesAndSummary(input, avail);
  return { text: joinSections([fixed, rest.text]), includedFiles: rest.included, summarisedFolders: rest.folders };
}

function validate(opts: BuildInitialContextOptions): void {
  if (!Number.isInteger(opts.budgetTokens) || opts.budgetTokens <= 0) {
    throw new RangeError(`budgetTokens must be a positive integer, got ${String(opts.budgetTokens)}`);
  }
  if (typeof opts.estimateTokens !== "function") throw new TypeError("estimateTokens must be a function (text) => tokens");
  if (!path.isAbsolute(opts.root)) throw new Error(`root must be an absolute path, got "${opts.root}"`);
}

export async function buildInitialContext(opts: BuildInitialContextOptions): Promise<InitialContext> {
  validate(opts);
  const started = performance.now();
  const { store, root, budgetTokens: budget, estimateTokens: estimate } = opts;
  const instructions = readInstructions(root, Math.floor(budget * INSTRUCTIONS_SHARE), estimate, opts.instructionFiles ?? DEFAULT_INSTRUCTION_FILES);
  const instructionsText = instructions?.text ?? "";

  const cache = opts.cache === undefined ? sharedSnapshotCache : opts.cache;
  const snapshot = cache ? await cache.load(store) : await loadSnapshot(store);
  const tokens = extractMentionTokens(opts.mentions ?? []);
  const mentionedFiles = tokens.paths.length ? snapshot.pathMatcher().matchAll(tokens.paths) : [];
  // A mentioned folder leans the ranking towards its files like a symbol defined in all of them.
  const mentionedFolders = tokens.paths.flatMap((t) => {
    const paths = snapshot.pathMatcher().matchFolder(t);
    return paths.length ? [{ name: `${t}/`, paths }] : [];
  });
  const mentionedSymbols = [...(await lookupSymbols(store, tokens.identifiers)), ...mentionedFolders];
  const recentFiles = (opts.recentFiles ?? []).map((f) => toRelative(root, f)).filter((f) => snapshot.meta.has(f));
  const specific = mentionedSymbols.filter((s) => s.paths.length <= SPECIFIC_SYMBOL_DEFINITIONS).flatMap((s) => s.paths);
  const references = await referenceEdges(store, [...new Set([...mentionedFiles, ...specific, ...recentFiles])]);
  const loaded = performance.now();

  const graph = withReferences(snapshot.graph, references);
  const ranking = rankFiles(graph, { mentionedFiles, mentionedSymbols, recentFiles, entryPoints: snapshot.entryPoints });
  const focused = mentionedFiles.length > 0 || mentionedSymbols.length > 0 || recentFiles.length > 0;
  const rankedFiles = diversifyByWorkspace(ranking.files, { allPaths: snapshot.allPaths, meta: snapshot.meta, focused });
  const ranked = performance.now();

  const input: MapInput = {
    name: opts.projectName ?? (path.basename(root) || root),
    root,
    snapshot,
    ranked: rankedFiles,
    loader: new AstLoader(store, snapshot.asts.size > MAX_KEPT_ASTS ? (snapshot.asts.clear(), snapshot.asts) : snapshot.asts),
    estimate,
  };
  const sep = instructionsText ? estimate(SEPARATOR) : 0;
  let projectBudget = budget - (instructionsText ? estimate(instructionsText) + sep : 0);
  let map: ProjectMap = { text: "", includedFiles: [], summarisedFolders: 0 };
  let text = instructionsText;
  for (let pass = 0; pass < MAX_FIT_PASSES; pass++) {
    map = await composeProjectMap(input, projectBudget);
    text = joinSections([instructionsText, map.text]);
    const over = estimate(text) - budget;
    if (over <= 0) break;
    projectBudget -= over;
  }
  if (estimate(text) > budget) {
    // An estimator far from additive: keep whole lines of what was built, the guarantee holds.
    text = fitLines(text, budget, estimate);
    const kept = new Set(text.split("\n").map((line) => line.split("  [")[0]));
    map = { text: text.slice(instructionsText.length).replace(/^\n+/, ""), includedFiles: map.includedFiles.filter((p) => kept.has(p)), summarisedFolders: map.summarisedFolders };
  }
  const done = performance.now();
  return {
    text,
    tokens: estimate(text),
    instructions,
    projectMap: map.text,
    includedFiles: map.includedFiles,
    summarisedFolders: map.summarisedFolders,
    totalFiles: snapshot.allPaths.length,
    rankedFiles: rankedFiles.map((f) => f.path),
    timings: { loadMs: loaded - started, rankMs: ranked - loaded, fitMs: done - ranked, totalMs: done - started },
  };
}
