// knowledge_search (seed 001 §2.g) over every node of the knowledge graph, and memory_search (§4) over
// memories, notes, decisions, file histories and analytics — both ranked with BM25.
import { Bm25Index, relevances, tokenize } from "./bm25.js";
import { isoDate, type ShadowHistory } from "./change-history.js";
import { scoreFiles } from "./hotspots.js";
import type { IndexView } from "./index-view.js";
import { neighbours, type KnowledgeGraph } from "./knowledge-graph.js";
import { listDecisions, listMemories, listNotes } from "./memory-store.js";
import { ShadowError } from "./shadow-errors.js";
import type { ShadowScope } from "./shadow-scope.js";
import { DAY_MS } from "./shadow-validate.js";

export const MEMORY_SOURCES = ["memory", "decisions", "file_history", "analytics"] as const;
export type MemorySource = (typeof MEMORY_SOURCES)[number];

export interface KnowledgeSearchResult {
  query: string;
  results: Array<{ node_type: string; name: string; path: string | null; relevance: number; description: string; related: string[] }>;
  total_found: number;
  search_time_ms: number;
}

/** A query must have at least one searchable word (2+ characters, not a stopword). */
export function checkSearchQuery(query: string): void {
  if (query.trim().length < 2 || tokenize(query).length === 0) {
    throw new ShadowError("SHADOW_ERR_SEARCH_TOO_BROAD", `"${query}" has no searchable word (2+ characters, not a stopword); search for a name, path or topic.`, { query });
  }
}

/** The BM25 index over a graph's nodes (built once per graph: see analyze.ts's cache). */
export function knowledgeIndex(graph: KnowledgeGraph): Bm25Index {
  return new Bm25Index([...graph.nodes.values()].map((n) => ({ id: n.id, name: n.name, text: `${n.path ?? ""} ${n.description}` })));
}

export function knowledgeSearch(graph: KnowledgeGraph, query: string, limit: number, index?: Bm25Index): KnowledgeSearchResult {
  const started = performance.now();
  checkSearchQuery(query);
  if (!graph.nodes.size) throw new ShadowError("SHADOW_ERR_EMPTY_KNOWLEDGE_GRAPH", "the knowledge graph is empty: nothing is indexed or remembered yet. Run `ipuaro index` first.");
  const hits = (index ?? knowledgeIndex(graph)).search(query);
  const rel = relevances(hits);
  return {
    query,
    results: hits.slice(0, limit).map((h) => {
      const n = graph.nodes.get(h.id)!;
      return { node_type: n.type, name: n.name, path: n.path, relevance: rel.get(h.id)!, description: n.description, related: neighbours(graph, n.id) };
    }),
    total_found: hits.length,
    search_time_ms: Math.round(performance.now() - started),
  };
}

export interface MemorySearchItem {
  source: "memory" | "decision" | "file_history" | "analytics";
  id: string | number;
  type: string;
  label: string;
  description: string;
  relevance: number;
  metadata: Record<string, unknown>;
}

export interface MemorySearchResult {
  query: string;
  sources_queried: MemorySource[];
  results: MemorySearchItem[];
  total_found: number;
  search_time_ms: number;
}

type Candidate = Omit<MemorySearchItem, "relevance"> & { text: string };

async function candidates(scope: ShadowScope, sources: readonly MemorySource[], history: () => Promise<{ h: ShadowHistory; view: IndexView }>): Promise<Candidate[]> {
  const out: Candidate[] = [];
  if (sources.includes("memory")) {
    for (const m of await listMemories(scope)) {
      out.push({ source: "memory", id: m.id, type: "memory", label: m.content.slice(0, 100), description: m.content.slice(0, 300), metadata: { category: m.category, tags: m.tags, updated_at: m.updated_at }, text: `${m.category} ${m.content} ${m.tags.join(" ")}` });
    }
    for (const n of await listNotes(scope)) {
      out.push({ source: "memory", id: n.id, type: "note", label: n.content.slice(0, 100), description: n.content.slice(0, 300), metadata: { status: n.status, surface_condition: n.surface_condition, created_at: n.created_at }, text: `${n.content} ${n.surface_condition ?? ""}` });
    }
  }
  if (sources.includes("decisions")) {
    for (const d of await listDecisions(scope)) {
      out.push({ source: "decision", id: d.id, type: "decision", label: d.title, description: d.description.slice(0, 300), metadata: { status: d.status, tags: d.tags, related_files: d.related_files, created_at: d.created_at }, text: `${d.title} ${d.description} ${d.context ?? ""} ${d.alternatives.join(" ")} ${d.tags.join(" ")} ${d.related_files.join(" ")}` });
    }
  }
  if (sources.includes("file_history") || sources.includes("analytics")) {
    const { h, view } = await history();
    if (sources.includes("file_history")) {
      for (const [file, changes] of h.byFile) {
        const last = changes.at(-1)!.at;
        const errors = changes.filter((c) => c.errors.length).length;
        out.push({ source: "file_history", id: file, type: "file", label: file, description: `changed ${changes.length} times, last ${isoDate(last)}${errors ? `; ${errors} changes followed by errors` : ""}`, metadata: { edit_count: changes.length, last_edit: last }, text: file });
      }
    }
    if (sources.includes("analytics")) {
      const now = scope.now();
      for (const s of scoreFiles(h, view, { from: now - 30 * DAY_MS, now, days: 30 }).filter((x) => x.score > 0.3)) {
        out.push({ source: "analytics", id: `hotspot:${s.file}`, type: "hotspot", label: `hotspot ${s.file}`, description: `score ${s.score} (${s.level}): ${s.explanation}`, metadata: { score: s.score, breakdown: s.breakdown }, text: `hotspot risk problem ${s.level} ${s.file} ${s.explanation}` });
      }
    }
  }
  return out;
}

export async function memorySearch(scope: ShadowScope, query: string, sources: MemorySource[], limit: number, history: () => Promise<{ h: ShadowHistory; view: IndexView }>): Promise<MemorySearchResult> {
  const started = performance.now();
  checkSearchQuery(query);
  const all = await candidates(scope, sources, history);
  const byKey = new Map(all.map((c, i) => [String(i), c]));
  const index = new Bm25Index(all.map((c, i) => ({ id: String(i), name: c.label, text: c.text })));
  const hits = index.search(query);
  const rel = relevances(hits);
  return {
    query,
    sources_queried: sources,
    results: hits.slice(0, limit).map((h) => {
      const { text: _text, ...item } = byKey.get(h.id)!;
      return { ...item, relevance: rel.get(h.id)! };
    }),
    total_found: hits.length,
    search_time_ms: Math.round(performance.now() - started),
  };
}
