// The knowledge graph (issue 9): nodes for files, modules, components (exported classes), APIs (exported
// functions), concepts (tags), decisions, notes and memories; edges for imports and dependents (index),
// co_changed_with (git), causes_bugs_in (events) and references (decisions, memories and notes naming
// files or concepts). Built from what is stored; analyze.ts reuses one for up to a minute while the
// history, the file count and everything remembered stay the same.
import type { ShadowHistory } from "./change-history.js";
import { MIN_SHARED_COMMITS } from "./co-change.js";
import { moduleOf, type IndexView } from "./index-view.js";
import { listDecisions, listMemories, listNotes } from "./memory-store.js";
import { globToRegExp } from "./related-files.js";
import type { ShadowScope } from "./shadow-scope.js";
import { taggedPaths } from "./tags.js";
import { counted } from "../plural.js";

export const NODE_TYPES = ["file", "module", "concept", "component", "api", "decision", "note", "memory"] as const;
export type NodeType = (typeof NODE_TYPES)[number];
export type EdgeType = "imports" | "dependents" | "co_changed_with" | "causes_bugs_in" | "references";

export interface KnowledgeNode {
  id: string;
  type: NodeType;
  name: string;
  path: string | null;
  description: string;
}

export interface KnowledgeEdge {
  from: string;
  to: string;
  type: EdgeType;
  weight: number;
}

export interface KnowledgeGraph {
  nodes: Map<string, KnowledgeNode>;
  edges: KnowledgeEdge[];
}

const MODULE_FILES_NAMED = 12;
/** A glob links to at most this many files (by path): `src/**` would otherwise add an edge per file. */
export const MAX_GLOB_LINKS = 200;
const MEMBERS_NAMED = 8;

function clip(text: string, max = 400): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

export async function buildKnowledgeGraph(scope: ShadowScope, h: ShadowHistory, view: IndexView): Promise<KnowledgeGraph> {
  const nodes = new Map<string, KnowledgeNode>();
  const edges: KnowledgeEdge[] = [];
  const add = (n: KnowledgeNode) => nodes.set(n.id, n);
  const link = (from: string, to: string, type: EdgeType, weight = 1) => edges.push({ from, to, type, weight });

  const modules = new Map<string, string[]>();
  for await (const [path, ast] of scope.store.iterateAsts()) {
    const meta = view.metas.get(path);
    const exported = ast.exports.map((e) => e.name).filter((n) => n && n !== "default");
    const changes = h.byFile.get(path)?.length ?? 0;
    add({
      id: `file:${path}`,
      type: "file",
      name: path,
      path,
      description: clip(
        [
          exported.length ? `exports ${exported.slice(0, MEMBERS_NAMED).join(", ")}` : null,
          `${ast.functions.length} functions, ${ast.classes.length} classes`,
          meta ? `imported by ${counted(meta.dependents.length, "file")}` : null,
          changes ? `changed ${changes} times` : null,
        ]
          .filter(Boolean)
          .join("; "),
      ),
    });
    const m = moduleOf(path);
    modules.set(m, [...(modules.get(m) ?? []), path]);
    for (const c of ast.classes.filter((k) => k.isExported)) {
      add({ id: `component:${path}#${c.name}`, type: "component", name: c.name, path, description: clip(`class ${c.name}${c.extends ? ` extends ${c.extends}` : ""} in ${path}; methods ${c.methods.map((x) => x.name).slice(0, MEMBERS_NAMED).join(", ") || "none"}`) });
      link(`component:${path}#${c.name}`, `file:${path}`, "references");
    }
    for (const f of ast.functions.filter((x) => x.isExported)) {
      add({ id: `api:${path}#${f.name}`, type: "api", name: f.name, path, description: clip(`function ${f.name}(${f.params.join(", ")})${f.returnType ? `: ${f.returnType}` : ""} in ${path}`) });
      link(`api:${path}#${f.name}`, `file:${path}`, "references");
    }
  }
  for (const [m, files] of modules) {
    const names = files.map((f) => f.slice(f.lastIndexOf("/") + 1));
    add({ id: `module:${m}`, type: "module", name: m, path: m === "." ? null : `${m}/`, description: clip(`${counted(files.length, "file")}: ${names.slice(0, MODULE_FILES_NAMED).join(", ")}${names.length > MODULE_FILES_NAMED ? ", …" : ""}`) });
    for (const f of files) link(`module:${m}`, `file:${f}`, "references");
  }
  for (const [path, meta] of view.metas) {
    for (const d of meta.dependencies) link(`file:${path}`, `file:${d}`, "imports");
    for (const d of meta.dependents) link(`file:${path}`, `file:${d}`, "dependents");
  }
  addHistoryEdges(h, link);
  await addMemoryNodes(scope, add, link, referencedNodes(nodes));
  return { nodes, edges };
}

function addHistoryEdges(h: ShadowHistory, link: (from: string, to: string, type: EdgeType, weight?: number) => void): void {
  const pairs = new Map<string, number>();
  for (const c of h.commits) {
    if (c.bulk) continue;
    const files = c.files.map((f) => f.path).sort();
    for (let i = 0; i < files.length; i++) for (let j = i + 1; j < files.length; j++) pairs.set(`${files[i]}\n${files[j]}`, (pairs.get(`${files[i]}\n${files[j]}`) ?? 0) + 1);
  }
  for (const [pair, n] of pairs) {
    if (n < MIN_SHARED_COMMITS) continue;
    const [a, b] = pair.split("\n") as [string, string];
    link(`file:${a}`, `file:${b}`, "co_changed_with", n);
    link(`file:${b}`, `file:${a}`, "co_changed_with", n);
  }
  for (const [from, to] of h.causesBugsIn) for (const [file, n] of to) link(`file:${from}`, `file:${file}`, "causes_bugs_in", n);
}

/**
 * The nodes a path in a decision's related_files or a memory's `path:` tag stands for: the file; the
 * module of that name; for a glob, the indexed files it matches; for a folder, the files under it.
 */
function referencedNodes(nodes: Map<string, KnowledgeNode>): (entry: string) => string[] {
  const files = [...nodes.values()].filter((n) => n.type === "file").map((n) => n.path!).sort();
  return (entry) => {
    const clean = entry.replace(/^\.\//, "").replace(/\/$/, "");
    if (nodes.has(`file:${clean}`)) return [`file:${clean}`];
    if (nodes.has(`module:${clean}`)) return [`module:${clean}`];
    const glob = /[*?]/.test(clean) ? globToRegExp(clean) : null;
    const matches = files.filter((f) => (glob ? glob.test(f) : f.startsWith(`${clean}/`)));
    return matches.slice(0, MAX_GLOB_LINKS).map((f) => `file:${f}`);
  };
}

async function addMemoryNodes(scope: ShadowScope, add: (n: KnowledgeNode) => void, link: (from: string, to: string, type: EdgeType) => void, referenced: (entry: string) => string[]): Promise<void> {
  const concept = (tag: string, from: string) => {
    const id = `concept:${tag}`;
    add({ id, type: "concept", name: tag.replace(/^(tech|version):/, ""), path: null, description: `concept ${tag}` });
    link(from, id, "references");
  };
  for (const m of await listMemories(scope)) {
    add({ id: m.id, type: "memory", name: clip(m.content, 100), path: null, description: `${m.category}: ${clip(m.content)}` });
    for (const p of taggedPaths(m.tags)) for (const to of referenced(p)) link(m.id, to, "references");
    for (const t of m.tags.filter((x) => !x.startsWith("path:"))) concept(t, m.id);
  }
  for (const d of await listDecisions(scope)) {
    const id = `decision:${d.id}`;
    add({ id, type: "decision", name: d.title, path: null, description: clip(`[${d.status}] ${d.description}${d.alternatives.length ? ` Alternatives: ${d.alternatives.join("; ")}.` : ""}`) });
    for (const f of d.related_files) for (const to of referenced(f)) link(id, to, "references");
    for (const t of d.tags.filter((x) => !x.startsWith("path:"))) concept(t, id);
  }
  for (const n of await listNotes(scope)) {
    add({ id: n.id, type: "note", name: clip(n.content, 100), path: n.condition.kind === "symbol" ? n.condition.path : null, description: clip(`${n.status} note: ${n.content}${n.surface_condition ? ` (when: ${n.surface_condition})` : ""}`) });
    if (n.condition.kind === "symbol" && n.condition.path) link(n.id, `file:${n.condition.path}`, "references");
  }
}

/** Names of the nodes an edge from `id` reaches, strongest first. */
export function neighbours(graph: KnowledgeGraph, id: string, limit = 3): string[] {
  return graph.edges
    .filter((e) => e.from === id && graph.nodes.has(e.to))
    .sort((a, b) => b.weight - a.weight)
    .slice(0, limit)
    .map((e) => `${e.type} ${graph.nodes.get(e.to)!.name}`);
}
