// The dependency graph kept in memory while the watcher runs: facts, dependencies and dependents per
// file, the symbol table, and which importers each file name could satisfy. Loaded once (built with the
// same graph pass as a full index), then updated per batch; each update returns the Redis fields that
// changed, so a one-file edit rewrites that file's fields and its direct neighbours' meta, nothing else.
import type { ComplexityScore } from "../../workers/ast-types.js";
import type { GraphFacts } from "../../workers/protocol.js";
import { buildGraph, buildMeta, packageEntrySet, resolveCalls, resolveFileImports, type SymbolLocation } from "../graph/graph-builder.js";
import { INDEX_FIELD, serialiseGraph } from "../graph/graph-serialiser.js";
import { ImportResolver } from "../graph/import-resolver.js";
import type { ProjectLayout } from "../graph/project-layout.js";
import { fileKeys, layoutBoundMatcher, specifierKey } from "./import-keys.js";

export interface FactsRecord {
  facts: GraphFacts;
  complexity: ComplexityScore;
}

/** A file's new facts, or null when it stops being a graph node (deleted, now binary, ignored …). */
export interface GraphChange {
  path: string;
  record: FactsRecord | null;
}

/** What to write to Redis: meta entries, index fields to set and index fields to delete. */
export interface GraphDelta {
  meta: [string, string][];
  setFields: [string, string][];
  deleteFields: string[];
  /** Files whose imports were resolved again (the changed ones plus affected importers). */
  resolved: number;
}

interface FileNode extends FactsRecord {
  deps: string[];
  /** importers-index keys of this file's specifiers. */
  keys: string[];
  /** Layout-bound specifiers and where they resolved, to notice when a new file changes that. */
  bound: [spec: string, target: string | null][];
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}

function removeFrom<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(value);
  if (set.size === 0) map.delete(key);
}

const dirOf = (p: string) => {
  const i = p.lastIndexOf("/");
  return i === -1 ? "" : p.slice(0, i);
};

export class GraphState {
  /** Text files with facts: the resolver's file set, updated in place. */
  private readonly files = new Set<string>();
  private readonly nodes = new Map<string, FileNode>();
  private readonly dependents = new Map<string, Set<string>>();
  private readonly symbols = new Map<string, SymbolLocation[]>();
  private readonly importers = new Map<string, Set<string>>();
  private readonly layoutBound = new Set<string>();
  private layout!: ProjectLayout;
  private resolver!: ImportResolver;
  private isBound!: (spec: string) => boolean;
  private entries = new Set<string>();

  private constructor() {}

  /** Builds the state from stored facts with the full graph pass (what the index holds, recomputed). */
  static async build(records: Map<string, FactsRecord>, layout: ProjectLayout): Promise<GraphState> {
    const state = new GraphState();
    for (const [p, r] of records) state.nodes.set(p, { ...r, deps: [], keys: [], bound: [] });
    await state.rebuildInMemory(layout);
    return state;
  }

  get size(): number {
    return this.nodes.size;
  }

  get projectLayout(): ProjectLayout {
    return this.layout;
  }

  has(p: string): boolean {
    return this.nodes.has(p);
  }

  dependenciesOf(p: string): string[] {
    return this.nodes.get(p)?.deps ?? [];
  }

  dependentsOf(p: string): string[] {
    return [...(this.dependents.get(p) ?? [])].sort();
  }

  /** Files with at least one import specifier passing `test`. */
  filesImporting(test: (spec: string) => boolean): string[] {
    const out: string[] = [];
    for (const [p, node] of this.nodes) if (node.facts.imports.some((i) => test(i.from))) out.push(p);
    return out;
  }

  symbol(name: string): SymbolLocation[] {
    return this.symbols.get(name) ?? [];
  }

  private async rebuildInMemory(layout: ProjectLayout): Promise<Awaited<ReturnType<typeof buildGraph>>> {
    this.layout = layout;
    this.isBound = layoutBoundMatcher(layout);
    this.files.clear();
    for (const p of this.nodes.keys()) this.files.add(p);
    this.resolver = new ImportResolver(this.files, layout);
    const graph = await buildGraph(this.nodes, this.resolver, layout);
    this.dependents.clear();
    this.importers.clear();
    this.layoutBound.clear();
    this.symbols.clear();
    for (const [name, locs] of graph.symbols) this.symbols.set(name, locs);
    for (const [p, node] of this.nodes) {
      node.deps = graph.dependencies.get(p) ?? [];
      for (const d of node.deps) addTo(this.dependents, d, p);
      this.indexImports(p, node);
    }
    this.entries = packageEntrySet(layout, this.resolver);
    return graph;
  }

  /** New layout (tsconfig/package.json changed): every import is resolved again; returns the whole graph. */
  async rebuild(layout: ProjectLayout): Promise<{ meta: [string, string][]; indexFields: [string, string][] }> {
    return serialiseGraph(await this.rebuildInMemory(layout));
  }

  private indexImports(p: string, node: FileNode): void {
    const keys = new Set<string>();
    node.bound = [];
    for (const imp of node.facts.imports) {
      const k = specifierKey(p, imp.from);
      if (k !== null) keys.add(k);
      if (this.isBound(imp.from)) node.bound.push([imp.from, this.resolver.resolve(p, imp.from)]);
    }
    node.keys = [...keys];
    for (const k of node.keys) addTo(this.importers, k, p);
    if (node.bound.length) this.layoutBound.add(p);
  }

  private unindexImports(p: string, node: FileNode): void {
    for (const k of node.keys) removeFrom(this.importers, k, p);
    this.layoutBound.delete(p);
  }

  private setSymbols(p: string, facts: GraphFacts | null, old: GraphFacts | null, touched: Set<string>): void {
    const removed = new Set<string>();
    for (const s of old?.symbols ?? []) {
      if (removed.has(s.name)) continue;
      removed.add(s.name);
      touched.add(s.name);
      const list = this.symbols.get(s.name)?.filter((l) => l.path !== p) ?? [];
      if (list.length) this.symbols.set(s.name, list);
      else this.symbols.delete(s.name);
    }
    for (const s of facts?.symbols ?? []) {
      touched.add(s.name);
      const loc = { path: p, line: s.line, kind: s.kind };
      const list = this.symbols.get(s.name);
      if (list) list.push(loc);
      else this.symbols.set(s.name, [loc]);
    }
  }

  /** Importers whose resolution a created or deleted file may change, beyond the deleted files' dependents. */
  private affectedImporters(created: string[], out: Set<string>): void {
    for (const c of created) for (const k of fileKeys(c)) for (const f of this.importers.get(k) ?? []) out.add(f);
    const memo = new Map<string, string | null>();
    for (const f of this.layoutBound) {
      const node = this.nodes.get(f);
      if (!node || out.has(f)) continue;
      const dir = dirOf(f);
      for (const [spec, target] of node.bound) {
        const key = `${dir}\0${spec}`;
        let now = memo.get(key);
        if (now === undefined) memo.set(key, (now = this.resolver.resolve(f, spec)));
        if (now !== target) {
          out.add(f);
          break;
        }
      }
    }
  }

  /** Applies one batch of changed files and returns the Redis fields to write. */
  apply(changes: GraphChange[]): GraphDelta {
    const metaDirty = new Set<string>();
    const touchedSymbols = new Set<string>();
    const reresolve = new Set<string>();
    const changed = new Set<string>();
    const created: string[] = [];
    let membership = false;
    const delta: GraphDelta = { meta: [], setFields: [], deleteFields: [], resolved: 0 };

    for (const { path: p, record } of changes) {
      const old = this.nodes.get(p);
      if (old) this.unindexImports(p, old);
      this.setSymbols(p, record?.facts ?? null, old?.facts ?? null, touchedSymbols);
      if (record) {
        const node: FileNode = { ...record, deps: old?.deps ?? [], keys: [], bound: [] };
        this.nodes.set(p, node);
        if (!old) {
          this.files.add(p);
          created.push(p);
          membership = true;
        }
        changed.add(p);
        reresolve.add(p);
      } else if (old) {
        this.nodes.delete(p);
        this.files.delete(p);
        membership = true;
        for (const d of old.deps) {
          removeFrom(this.dependents, d, p);
          metaDirty.add(d);
        }
        for (const importer of this.dependents.get(p) ?? []) reresolve.add(importer);
        delta.deleteFields.push(INDEX_FIELD.deps(p), INDEX_FIELD.calls(p));
      }
    }
    // Imports are indexed after every file of the batch is in the set, so `bound` targets are current.
    for (const p of changed) this.indexImports(p, this.nodes.get(p) as FileNode);
    if (membership) this.affectedImporters(created, reresolve);

    for (const p of reresolve) {
      const node = this.nodes.get(p);
      if (!node) continue;
      delta.resolved++;
      const { deps, importedFrom } = resolveFileImports(p, node.facts, this.resolver);
      if (!changed.has(p)) {
        // Only an importer: refresh what it recorded about layout-bound targets.
        this.unindexImports(p, node);
        this.indexImports(p, node);
        if (sameList(deps, node.deps)) continue;
      }
      const before = new Set(node.deps);
      const after = new Set(deps);
      for (const d of before) {
        if (after.has(d)) continue;
        removeFrom(this.dependents, d, p);
        metaDirty.add(d);
      }
      for (const d of after) {
        if (before.has(d)) continue;
        addTo(this.dependents, d, p);
        metaDirty.add(d);
      }
      node.deps = deps;
      metaDirty.add(p);
      if (deps.length) delta.setFields.push([INDEX_FIELD.deps(p), JSON.stringify(deps)]);
      else delta.deleteFields.push(INDEX_FIELD.deps(p));
      if (node.facts.calls.length) delta.setFields.push([INDEX_FIELD.calls(p), JSON.stringify(resolveCalls(p, node.facts, importedFrom))]);
      else delta.deleteFields.push(INDEX_FIELD.calls(p));
    }

    if (membership) {
      const entries = packageEntrySet(this.layout, this.resolver);
      for (const e of entries) if (!this.entries.has(e)) metaDirty.add(e);
      for (const e of this.entries) if (!entries.has(e)) metaDirty.add(e);
      this.entries = entries;
    }
    for (const p of metaDirty) {
      const node = this.nodes.get(p);
      if (!node) continue;
      delta.meta.push([p, JSON.stringify(buildMeta(p, node.complexity, node.deps, this.dependentsOf(p), this.entries))]);
    }
    for (const name of touchedSymbols) {
      const locs = this.symbols.get(name);
      if (locs?.length) delta.setFields.push([INDEX_FIELD.symbol(name), JSON.stringify(locs)]);
      else delta.deleteFields.push(INDEX_FIELD.symbol(name));
    }
    return delta;
  }
}
