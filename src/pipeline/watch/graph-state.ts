// The dependency graph kept in memory while the watcher runs: facts, dependencies and dependents per
// file, the symbol table, call targets, and which importers each file name could satisfy. Built once
// with the same graph pass as a full index, then updated per batch; each update returns only the Redis
// fields that changed, so a one-file edit rewrites that file's fields and its direct neighbours' meta.
import type { GraphFacts } from "../../workers/protocol.js";
import { buildGraph, packageEntrySet, resolveFileImports, type GraphInput, type ResolvedCall, type SymbolLocation } from "../graph/graph-builder.js";
import { buildMeta } from "../graph/file-meta.js";
import { INDEX_FIELD, serialiseGraph } from "../graph/graph-serialiser.js";
import { ImportResolver } from "../graph/import-resolver.js";
import type { ProjectLayout } from "../graph/project-layout.js";
import type { ProjectLinks } from "../graph/project-links.js";
import { exportedName, ReExportRoutes } from "../graph/re-export-routes.js";
import { callersThrough, movedNames, fileCalls, hasReExports, movedBarrelScope, namesExported, reExportSignature, reroutedNames, symbolDelta, type CallSeed, type ModuleStates } from "./call-targets.js";
import { TimeSlicer } from "../graph/time-slicer.js";
import { ImporterIndex } from "./import-keys.js";
import { addTo, removeFrom } from "./multimap.js";

/** A file's stored graph facts (`project:{name}:facts`). */
export type FactsRecord = GraphInput;

/** A file's new facts, or null when it stops being a graph node (deleted, now binary, ignored …). */
export interface GraphChange {
  path: string;
  record: FactsRecord | null;
}

/** A symlink of the batch: where it points now (null: outside the project), or null when it is no link any more. */
export type LinkChange = { target: string | null } | null;

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
  /** Local binding → file, from the last resolution of this file's imports (computed when first needed). */
  importedFrom?: Map<string, string>;
  /**
   * The `calls:<path>` value now in Redis, or null when there is none; after a rebuild, the calls it was
   * written from instead (serialised when first compared: most files never change in a session, and
   * serialising every file's calls up front was a tenth of the watcher's start on 12K files).
   */
  callsJson: string | null | ResolvedCall[];
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);


export class GraphState {
  /** The resolver's file set: text files with facts, and the symlinks it follows (`links`). */
  private readonly files = new Set<string>();
  private readonly nodes = new Map<string, FileNode>();
  /** The project's symlinks and the project paths they point to (null: outside). */
  private readonly links = new Map<string, string | null>();
  private dependents = new Map<string, Set<string>>();
  /**
   * Per file, its dependents that have re-export lines (by their facts): the only ones that can route a
   * name through it. A package barrel has thousands of dependents and a handful of these; kept until its
   * dependents or the re-exporting of one of them change.
   */
  private readonly reExporting = new Map<string, string[]>();
  private readonly symbols = new Map<string, SymbolLocation[]>();
  private importers!: ImporterIndex;
  private layout!: ProjectLayout;
  private resolver!: ImportResolver;
  private entries = new Set<string>();
  /** See routesAfter; dropped when a batch changes what they depend on. */
  private routes: ReExportRoutes | null = null;

  private constructor() {}

  /** Builds the state from stored facts with the full graph pass (what the index holds, recomputed). */
  static async build(records: Map<string, FactsRecord>, layout: ProjectLayout, links: ProjectLinks = new Map()): Promise<GraphState> {
    const state = new GraphState();
    for (const [p, r] of records) state.nodes.set(p, { ...r, deps: [], callsJson: null });
    for (const [p, target] of links) state.links.set(p, target);
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

  symbol(name: string): SymbolLocation[] {
    return this.symbols.get(name) ?? [];
  }

  /** Files with at least one import specifier passing `test` (in time slices: 12K files ≈ 20 ms here). */
  async filesImporting(test: (spec: string) => boolean): Promise<string[]> {
    const out: string[] = [];
    const slicer = new TimeSlicer();
    for (const [p, node] of this.nodes) {
      if (node.facts.imports.some((i) => test(i.from))) out.push(p);
      if (slicer.due()) await slicer.yield();
    }
    return out;
  }

  private async rebuildInMemory(layout: ProjectLayout): Promise<Awaited<ReturnType<typeof buildGraph>>> {
    this.layout = layout;
    this.files.clear();
    for (const p of this.nodes.keys()) this.files.add(p);
    for (const p of this.links.keys()) this.files.add(p);
    this.resolver = new ImportResolver(this.files, layout, this.links);
    this.routes = null; // a new layout can resolve any re-export elsewhere
    const graph = await buildGraph(this.nodes, this.resolver, layout, this.links);
    // Built aside in time slices (12K files held the main thread for half a second; the dependents' sets
    // alone ≈ 40 ms here), then swapped in at once.
    const slicer = new TimeSlicer();
    const importers = new ImporterIndex(layout);
    const dependents = new Map<string, Set<string>>();
    for (const [p, node] of this.nodes) {
      importers.add(p, node.facts, this.resolver);
      for (const d of graph.dependencies.get(p) ?? []) addTo(dependents, d, p);
      if (slicer.due()) await slicer.yield();
    }
    this.dependents = dependents;
    this.reExporting.clear();
    this.symbols.clear();
    for (const [name, locs] of graph.symbols) this.symbols.set(name, locs);
    this.importers = importers;
    for (const [p, node] of this.nodes) {
      node.deps = graph.dependencies.get(p) ?? [];
      node.importedFrom = undefined;
      node.callsJson = graph.calls.get(p) ?? null;
    }
    this.entries = packageEntrySet(layout, this.resolver);
    return graph;
  }

  /** New layout (tsconfig/package.json changed): every import is resolved again; returns the whole graph. */
  async rebuild(layout: ProjectLayout): Promise<{ meta: [string, string][]; indexFields: [string, string][] }> {
    return serialiseGraph(await this.rebuildInMemory(layout));
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

  /**
   * Routes through barrels, kept from batch to batch: they depend only on the files' symbols and
   * re-exports and on how imports resolve. A batch that changes re-exports or which files exist forgets
   * what the files it touched (and the barrels above them) export, and every route; one that only
   * changes symbols forgets the routes of those names and updates the export sets above. A new layout
   * starts them afresh (rebuildInMemory).
   */
  private routesAfter(changed: Set<string>, previous: Map<string, GraphFacts>, movedOrGone: string[]): ReExportRoutes {
    const factsOf = (p: string) => this.nodes.get(p)?.facts;
    if (!this.routes) {
      this.routes = new ReExportRoutes(this.nodes, this.resolver);
      return this.routes;
    }
    // A module's re-exporters, by the resolution before this batch or after it (a file that went keeps
    // its importers in `dependents` until they are resolved again).
    const reExporters = function* (this: GraphState, x: string) {
      for (const y of this.reExportersOf(x)) {
        const facts = factsOf(y) ?? previous.get(y);
        const via = facts?.imports.filter((i) => i.isReExport && this.resolver.resolve(y, i.from) === x) ?? [];
        if (!via.length) continue;
        const renames = via.filter((i) => exportedName(i) !== i.name).map((i) => [exportedName(i), i.name] as const);
        yield { file: y, star: via.some((i) => exportedName(i) === "*"), renames };
      }
    }.bind(this);
    const rerouted = [...changed].filter((p) => reExportSignature(previous.get(p)) !== reExportSignature(factsOf(p)));
    if (movedOrGone.length || rerouted.length) {
      this.routes.forgetFiles([...movedOrGone, ...rerouted, ...changed], this.resolver, reExporters);
      return this.routes;
    }
    for (const p of changed) {
      const before = new Set(previous.get(p)?.symbols.map((s) => s.name));
      const after = new Set(factsOf(p)?.symbols.map((s) => s.name));
      const gained = new Set([...after].filter((n) => !before.has(n)));
      const lost = new Set([...before].filter((n) => !after.has(n)));
      // Routes to `default` end at the name the default export is declared under, routes to the module
      // object (`=`) start at the name the module is.
      for (const n of movedNames(previous.get(p), factsOf(p))) {
        gained.add(n);
        lost.add(n);
      }
      if (gained.size || lost.size) this.routes.forgetSymbols(p, gained, lost, reExporters);
    }
    return this.routes;
  }

  private linkDependent(d: string, p: string): void {
    addTo(this.dependents, d, p);
    this.reExporting.delete(d);
  }

  private unlinkDependent(d: string, p: string): void {
    removeFrom(this.dependents, d, p);
    this.reExporting.delete(d);
  }

  private reExportersOf(x: string): string[] {
    let known = this.reExporting.get(x);
    if (!known) {
      known = [];
      for (const y of this.dependents.get(x) ?? []) if (hasReExports(this.nodes.get(y)?.facts)) known.push(y);
      this.reExporting.set(x, known);
    }
    return known;
  }

  /** Applies one batch of changed files (and symlinks, by path) and returns the Redis fields to write. */
  apply(changes: GraphChange[], links: ReadonlyMap<string, LinkChange> = new Map()): GraphDelta {
    const delta: GraphDelta = { meta: [], setFields: [], deleteFields: [], resolved: 0 };
    const metaDirty = new Set<string>();
    const touchedSymbols = new Set<string>();
    const reresolve = new Set<string>();
    const changed = new Set<string>();
    const created: string[] = [];
    const deleted: string[] = [];
    /** Facts before this batch of the changed and deleted files. */
    const previous = new Map<string, GraphFacts>();
    /** Dependencies the deleted files had. */
    const formerDeps = new Map<string, string[]>();
    let membership = false;

    for (const { path: p, record } of changes) {
      const old = this.nodes.get(p);
      if (old) {
        this.importers.remove(p);
        previous.set(p, old.facts);
      }
      this.setSymbols(p, record?.facts ?? null, old?.facts ?? null, touchedSymbols);
      if (old && record && hasReExports(old.facts) !== hasReExports(record.facts)) for (const d of old.deps) this.reExporting.delete(d);
      if (record) {
        this.nodes.set(p, { ...record, deps: old?.deps ?? [], callsJson: old?.callsJson ?? null });
        if (!old) {
          this.files.add(p);
          created.push(p);
          membership = true;
        }
        changed.add(p);
        reresolve.add(p);
      } else if (old) {
        deleted.push(p);
        formerDeps.set(p, old.deps);
        this.nodes.delete(p);
        this.files.delete(p);
        membership = true;
        for (const d of old.deps) {
          this.unlinkDependent(d, p);
          metaDirty.add(d);
        }
        for (const importer of this.dependents.get(p) ?? []) reresolve.add(importer);
        delta.deleteFields.push(INDEX_FIELD.deps(p), INDEX_FIELD.calls(p));
      }
    }
    // After the files: a text file replaced by a link (or a link by a text file) keeps its path in `files`.
    const relinked = this.applyLinks(links, created);
    if (relinked.length) membership = true;
    // The resolver caches results per (folder, specifier): a changed file set needs a fresh one. (Measured:
    // forgetting only the affected entries saved nothing noticeable, as few resolutions are redone.)
    if (membership) this.resolver = new ImportResolver(this.files, this.layout, this.links);
    for (const p of changed) this.importers.add(p, (this.nodes.get(p) as FileNode).facts, this.resolver);
    // A link that came, went or points elsewhere is looked up like a created file: importers find it by its path.
    if (membership) this.importers.affectedBy(created, relinked, this.links, this.resolver, reresolve);
    this.importers.importersUnder(relinked, reresolve);

    // Files whose own resolution changed, with the dependencies they gained or lost.
    const moved = new Map<string, string[]>();
    for (const p of reresolve) {
      const node = this.nodes.get(p);
      if (!node) continue;
      delta.resolved++;
      const { deps, importedFrom } = resolveFileImports(p, node.facts, this.resolver);
      node.importedFrom = importedFrom;
      const same = sameList(deps, node.deps);
      if (!changed.has(p)) {
        this.importers.refresh(p, node.facts, this.resolver);
        if (same) continue;
      }
      metaDirty.add(p);
      if (same) continue;
      const after = new Set(deps);
      for (const d of node.deps) {
        if (after.has(d)) continue;
        this.unlinkDependent(d, p);
        metaDirty.add(d);
      }
      const before = new Set(node.deps);
      for (const d of deps) {
        if (before.has(d)) continue;
        this.linkDependent(d, p);
        metaDirty.add(d);
      }
      if (deps.length) delta.setFields.push([INDEX_FIELD.deps(p), JSON.stringify(deps)]);
      else delta.deleteFields.push(INDEX_FIELD.deps(p));
      moved.set(p, [...node.deps.filter((d) => !after.has(d)), ...deps.filter((d) => !before.has(d))]);
      node.deps = deps;
    }

    const routes = this.routesAfter(changed, previous, membership ? [...moved.keys(), ...deleted] : []);
    const callsDirty = callersThrough(this.callSeeds(changed, moved, previous, formerDeps), { dependentsOf: (p) => this.dependents.get(p) ?? [], reExportersOf: (p) => this.reExportersOf(p) }, this.nodes, this.resolver, routes);
    for (const p of changed) callsDirty.add(p);
    for (const p of moved.keys()) callsDirty.add(p);
    for (const p of callsDirty) this.refreshCalls(p, delta, routes);

    if (membership) {
      const entries = packageEntrySet(this.layout, this.resolver);
      for (const e of entries) if (!this.entries.has(e)) metaDirty.add(e);
      for (const e of this.entries) if (!entries.has(e)) metaDirty.add(e);
      this.entries = entries;
    }
    for (const p of metaDirty) {
      const node = this.nodes.get(p);
      if (node) delta.meta.push([p, JSON.stringify(buildMeta(p, node.complexity, node.deps, this.dependentsOf(p), this.entries))]);
    }
    for (const name of touchedSymbols) {
      const locs = this.symbols.get(name);
      if (locs?.length) delta.setFields.push([INDEX_FIELD.symbol(name), JSON.stringify(locs)]);
      else delta.deleteFields.push(INDEX_FIELD.symbol(name));
    }
    return delta;
  }

  /**
   * Takes the batch's link changes; returns the links whose importers may now land elsewhere: those that
   * changed, and those that lead (through other links too) to one of them or to a created file. (An
   * importer through a link to a deleted file is among that file's dependents already.)
   */
  private applyLinks(links: ReadonlyMap<string, LinkChange>, created: readonly string[]): string[] {
    const moved = new Set<string>();
    for (const [p, now] of links) {
      if (now === null) {
        if (!this.links.delete(p)) continue;
        if (!this.nodes.has(p)) this.files.delete(p);
      } else {
        if (this.links.has(p) && this.links.get(p) === now.target) continue;
        this.links.set(p, now.target);
        this.files.add(p);
      }
      moved.add(p);
    }
    if (!this.links.size || (!moved.size && !created.length)) return [...moved];
    const leadsTo = new Set([...moved, ...created]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const [p, target] of this.links) {
        if (target === null || leadsTo.has(p) || !leadsTo.has(target)) continue;
        leadsTo.add(p);
        moved.add(p);
        grew = true;
      }
    }
    return [...moved];
  }

  /**
   * Where call targets may have moved: a changed file for the symbols it gained or lost (for everything
   * when its re-exports changed), a barrel whose re-exports now resolve elsewhere for the names of the
   * files it gained or lost.
   */
  private callSeeds(changed: Set<string>, moved: Map<string, string[]>, previous: Map<string, GraphFacts>, formerDeps: Map<string, string[]>): CallSeed[] {
    const seeds: CallSeed[] = [];
    const factsOf = (p: string) => this.nodes.get(p)?.facts ?? previous.get(p);
    // Before and after: `moved` holds the dependencies a file gained or lost, its node those it has now.
    const modules: ModuleStates = {
      facts: (p) => [this.nodes.get(p)?.facts, previous.get(p)],
      deps: (p) => [...(this.nodes.get(p)?.deps ?? []), ...(formerDeps.get(p) ?? []), ...(moved.get(p) ?? [])],
    };
    for (const p of changed) {
      const before = previous.get(p);
      const after = factsOf(p);
      const forwards = hasReExports(before) || hasReExports(after);
      const delta = symbolDelta(before, after);
      // Calls to its default export (or its module object) name the declaration it points to: they move when that does.
      const renamed = movedNames(before, after);
      for (const n of renamed) delta.add(n);
      if (forwards && (moved.has(p) || reExportSignature(before) !== reExportSignature(after))) {
        // Names it may forward differently now: barrels above may have routed them to it before, too.
        const rerouted = reroutedNames(p, before, after, moved.get(p) ?? [], modules, this.resolver);
        if (rerouted) for (const n of delta) rerouted.add(n);
        seeds.push({ file: p, names: rerouted ?? "all", direct: true, symbolDelta: rerouted ?? delta });
        continue;
      }
      seeds.push({ file: p, names: delta, direct: forwards || renamed.length > 0, symbolDelta: delta });
    }
    for (const [p, gainedOrLost] of moved) {
      const facts = factsOf(p);
      if (changed.has(p) || !facts || !hasReExports(facts)) continue;
      // What the files it gained or lost export: barrels above may have routed those names through it.
      const exported = namesExported(gainedOrLost, modules);
      const symbols = exported ?? new Set(gainedOrLost.flatMap((f) => factsOf(f)?.symbols.map((s) => s.name) ?? []));
      seeds.push({ file: p, names: movedBarrelScope(facts, exported), direct: true, symbolDelta: symbols });
    }
    return seeds;
  }

  /** Recomputes one file's call targets; writes the field only when its value changed. */
  private refreshCalls(p: string, delta: GraphDelta, routes: ReExportRoutes): void {
    const node = this.nodes.get(p);
    if (!node) return;
    let json: string | null = null;
    if (node.facts.calls.length) {
      // Files not re-resolved in this batch keep their resolution (the batch re-resolves every file a
      // created or deleted one can affect), so their last importedFrom still holds.
      node.importedFrom ??= resolveFileImports(p, node.facts, this.resolver).importedFrom;
      json = JSON.stringify(fileCalls(p, node.facts, node.importedFrom, routes));
    }
    if (Array.isArray(node.callsJson)) node.callsJson = JSON.stringify(node.callsJson);
    if (json === node.callsJson) return;
    node.callsJson = json;
    if (json === null) delta.deleteFields.push(INDEX_FIELD.calls(p));
    else delta.setFields.push([INDEX_FIELD.calls(p), json]);
  }
}
