// What the context builder reads from Redis, and no more: the file list and every file's meta (small:
// the graph, hubs, entry points, complexity) for ranking; symbol-index entries only for identifiers the
// conversation mentions; call sites only of the files the conversation is about; ASTs only of files
// that may get an outline or a folder line, in HMGET chunks. Facts, calls and ASTs of a 12K-file
// repository are tens of MB: reading them all would cost seconds, not milliseconds.
import type { FileAST, FileMeta } from "../../workers/ast-types.js";
import { INDEX_FIELD } from "../../pipeline/graph/graph-serialiser.js";
import type { IndexName, ProjectStore } from "../store/project-store.js";
import { parseMeta } from "../store/stored-values.js";
import { buildFolderTree, expansionOrder, type FolderNode } from "./folder-tree.js";
import { PathMatcher } from "./mentions.js";
import { computeGraphMetrics, type GraphMetrics } from "./project-sections.js";
import { buildRankingGraph, type MentionedSymbol, type RankingGraph, type ReferenceEdge } from "./repo-ranking.js";

/** The store methods the builder uses (ProjectStore implements them). */
export type ContextStore = Pick<
  ProjectStore,
  "projectName" | "keys" | "listPaths" | "scanRaw" | "getAsts" | "getIndexJson" | "getConfigField"
>;

/** Fields per HSCAN reply for meta: fewer round trips; values are small. */
const META_SCAN_COUNT = 5000;
/** Paths per HMGET of ASTs: bounded replies, parsed while the next chunk is on the wire. */
export const AST_CHUNK = 256;
/** Seed files whose call sites are read for reference edges. */
export const MAX_REFERENCE_SEEDS = 32;

export interface ProjectSnapshot {
  /** Every indexed path (text, binary, symlink), sorted. */
  allPaths: string[];
  /** Meta of every parsed file: the ranked set. */
  meta: Map<string, FileMeta>;
  /** The import graph over the meta files, without conversation-specific reference edges. */
  graph: RankingGraph;
  entryPoints: string[];
  folders: FolderNode;
  folderOrder: FolderNode[];
  /** Path lookups for mentions, built on first use. */
  pathMatcher(): PathMatcher;
  /** Hubs and complexity tops, computed on first use. */
  graphMetrics(): GraphMetrics;
  /** ASTs read so far (null: not in the index), kept with the snapshot: they change only with it. */
  asts: Map<string, FileAST | null>;
}

export async function loadSnapshot(store: ContextStore): Promise<ProjectSnapshot> {
  const metaPromise = (async () => {
    const meta = new Map<string, FileMeta>();
    for await (const chunk of store.scanRaw("meta", META_SCAN_COUNT)) {
      for (const [p, raw] of chunk) meta.set(p, parseMeta(store.keys.meta, p, raw));
    }
    return meta;
  })();
  const [allPaths, meta] = await Promise.all([store.listPaths(), metaPromise]);
  allPaths.sort();
  const dependencies = new Map<string, readonly string[]>();
  const entryPoints: string[] = [];
  for (const [p, m] of meta) {
    dependencies.set(p, m.dependencies);
    if (m.isEntryPoint) entryPoints.push(p);
  }
  const graph = buildRankingGraph(dependencies);
  const folders = buildFolderTree(allPaths);
  let matcher: PathMatcher | null = null;
  let metrics: GraphMetrics | null = null;
  return {
    allPaths,
    meta,
    graph,
    entryPoints: entryPoints.sort(),
    folders,
    folderOrder: expansionOrder(folders),
    pathMatcher: () => (matcher ??= new PathMatcher(graph.paths)),
    graphMetrics: () => (metrics ??= computeGraphMetrics(meta)),
    asts: new Map(),
  };
}

// The symbol, deps and calls entries share the `indexes` hash with the named indexes; getIndexJson is
// a plain HGET of one field of it.
function readIndexField(store: ContextStore, field: string): Promise<string | null> {
  return store.getIndexJson(field as IndexName);
}

function parseJsonArray(raw: string | null): unknown[] {
  if (raw === null) return [];
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value : [];
  } catch {
    // A corrupt index entry only loses a ranking hint; the builder still works.
    return [];
  }
}

/** Symbol-index entries of the identifiers that exist, in identifier order. */
export async function lookupSymbols(store: ContextStore, identifiers: readonly string[]): Promise<MentionedSymbol[]> {
  const raws = await Promise.all(identifiers.map((name) => readIndexField(store, INDEX_FIELD.symbol(name))));
  const out: MentionedSymbol[] = [];
  raws.forEach((raw, i) => {
    const paths = parseJsonArray(raw)
      .map((loc) => (loc && typeof loc === "object" ? (loc as { path?: unknown }).path : undefined))
      .filter((p): p is string => typeof p === "string");
    if (paths.length) out.push({ name: identifiers[i]!, paths: [...new Set(paths)].sort() });
  });
  return out;
}

/**
 * Reference edges from the seed files' resolved call sites (`target` = `path#symbol`): a file the
 * conversation is about pulls up the files whose symbols it calls, more so the more it calls them.
 */
export async function referenceEdges(store: ContextStore, seeds: readonly string[]): Promise<ReferenceEdge[]> {
  const files = seeds.slice(0, MAX_REFERENCE_SEEDS);
  const raws = await Promise.all(files.map((p) => readIndexField(store, INDEX_FIELD.calls(p))));
  const edges: ReferenceEdge[] = [];
  raws.forEach((raw, i) => {
    const counts = new Map<string, number>();
    for (const call of parseJsonArray(raw)) {
      const target = call && typeof call === "object" ? (call as { target?: unknown }).target : undefined;
      if (typeof target !== "string") continue;
      const to = target.slice(0, target.lastIndexOf("#"));
      if (to && to !== files[i]) counts.set(to, (counts.get(to) ?? 0) + 1);
    }
    for (const [to, n] of [...counts].sort((a, b) => (a[0] < b[0] ? -1 : 1))) edges.push({ from: files[i]!, to, weight: Math.sqrt(n) });
  });
  return edges;
}

/** ASTs a snapshot keeps between builds; past it they are dropped before the next build (one build needs a few hundred). */
export const MAX_KEPT_ASTS = 4000;

/** Loads ASTs on demand, in chunks, into the snapshot's map; never drops one during a build. */
export class AstLoader {
  constructor(
    private readonly store: ContextStore,
    private readonly cache: Map<string, FileAST | null> = new Map(),
  ) {}

  get(path: string): FileAST | null {
    return this.cache.get(path) ?? null;
  }

  async load(paths: readonly string[]): Promise<void> {
    const missing = [...new Set(paths.filter((p) => !this.cache.has(p)))];
    if (!missing.length) return;
    const chunks: string[][] = [];
    for (let i = 0; i < missing.length; i += AST_CHUNK) chunks.push(missing.slice(i, i + AST_CHUNK));
    const results = await Promise.all(chunks.map((c) => this.store.getAsts(c)));
    chunks.forEach((chunk, i) => {
      for (const p of chunk) this.cache.set(p, results[i]!.get(p) ?? null);
    });
  }
}
