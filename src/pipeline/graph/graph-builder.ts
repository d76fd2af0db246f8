// The graph pass after extraction: resolves imports to files, derives dependents, hubs and entry points,
// and builds the symbol index and a best-effort call graph. It works in time slices so the main thread
// stays responsive on a 10K-file project.
import { posix } from "node:path";
import type { ComplexityScore, FileMeta } from "../../workers/ast-types.js";
import type { GraphFacts } from "../../workers/protocol.js";
import { ImportResolver } from "./import-resolver.js";
import type { ProjectLayout } from "./project-layout.js";
import type { ProjectLinks } from "./project-links.js";
import { FieldChunker, INDEX_FIELD, type GraphChunkSink } from "./graph-serialiser.js";
import { buildMeta, metaJson, metaJsonHead } from "./file-meta.js";
import { TimeSlicer } from "./time-slicer.js";
import { ReExportRoutes, type HopLookup } from "./re-export-routes.js";
import { callTo, resolveCalls, splitTarget, type ResolvedCall } from "./call-resolution.js";
import { StreamedSymbols } from "./streamed-symbols.js";

export { importedCallTarget, resolveCalls, type ResolvedCall } from "./call-resolution.js";

export interface GraphInput {
  facts: GraphFacts;
  complexity: ComplexityScore;
}

export interface SymbolLocation {
  path: string;
  line: number;
  kind: string;
}

/** The stored facts of files the graph was given earlier (path → input; missing ones left out). */
export type FactsReload = (paths: string[]) => Promise<Map<string, GraphInput>>;

export interface GraphOutput {
  meta: Map<string, FileMeta>;
  dependencies: Map<string, string[]>;
  symbols: Map<string, SymbolLocation[]>;
  calls: Map<string, ResolvedCall[]>;
}

export function packageEntrySet(layout: ProjectLayout, resolver: ImportResolver): Set<string> {
  const out = new Set<string>();
  for (const pkg of layout.packages.values())
    for (const e of [...pkg.entries, ...pkg.bin]) {
      const hit = resolver.probe(e);
      if (hit) out.add(hit);
    }
  return out;
}

/**
 * Resolves one file's imports; returns its internal dependencies and, for calls, each imported local name
 * → `file#name`, the name being the one the module gives it (`import { a as b }` → `x.ts#a`; `*` for
 * a namespace import).
 */
export function resolveFileImports(p: string, facts: GraphFacts, resolver: ImportResolver): { deps: string[]; importedFrom: Map<string, string>; unresolvedRelative: string[] | null } {
  const deps = new Set<string>();
  const importedFrom = new Map<string, string>();
  let unresolvedRelative: string[] | null = null;
  for (const imp of facts.imports) {
    const target = resolver.resolve(p, imp.from);
    if (!target && imp.from.charCodeAt(0) === DOT) (unresolvedRelative ??= []).push(imp.from);
    if (!target || target === p) continue;
    deps.add(target);
    if (imp.name && imp.name !== "*" && !imp.isReExport) importedFrom.set(imp.name, `${target}#${imp.imported || imp.name}`);
  }
  return { deps: [...deps].sort(), importedFrom, unresolvedRelative };
}

const DOT = 46;

/**
 * Of the files with unresolved relative imports, those with one under a link to something that is not a
 * file of the index (a folder the walk did not enter): resolved again through the links, they may land.
 */
function importersThroughFolderLinks(unresolved: ReadonlyArray<[string, string[]]>, links: ReadonlyMap<string, string | null>, files: ReadonlyMap<string, unknown>): string[] {
  const folders = [...links].filter(([, t]) => t !== null && !files.has(t)).map(([l]) => l);
  if (!folders.length) return [];
  const under = (joined: string) => folders.some((l) => joined === l || joined.startsWith(`${l}/`));
  return unresolved.filter(([p, specs]) => specs.some((s) => under(posix.join(posix.dirname(p), s)))).map(([p]) => p);
}

/**
 * Builds the graph file by file, so the per-file part (import resolution, symbols, calls) runs while the
 * workers are still parsing; the end does what needs every file (dependents, barrels, meta).
 *
 * Two modes. Collecting (no sink): `finish()` returns the whole graph. Streaming (a sink): every field is
 * sent as soon as it is final — a file's dependencies and its calls (when no target can move through a
 * barrel) right away, a symbol's locations when first seen — and `drain()` sends only what needed every
 * file: meta, refined calls, symbols that gained locations, corrections. That keeps serialising off the
 * end of the run, when the workers are idle, and lets most per-file data die young instead of being
 * kept (and copied by the GC) until the end.
 */
export class GraphAccumulator {
  private readonly files = new Map<string, GraphInput>();
  private readonly dependencies = new Map<string, string[]>();
  /** Kept as files arrive, so the serial end does not have to invert every edge. */
  private readonly dependents = new Map<string, string[]>();
  /** Streaming: each file's meta JSON up to its dependents (see file-meta.ts). */
  private readonly metaHeads = new Map<string, string>();
  /** Collecting: each symbol's locations. */
  private readonly symbols = new Map<string, SymbolLocation[]>();
  /** Collecting: every file's calls. Streaming: only calls whose targets may still move. */
  private readonly calls = new Map<string, ResolvedCall[]>();
  /** Streaming: file not known yet → files whose calls wait for it (see trySendCalls). */
  private readonly waitingOn = new Map<string, Set<string>>();
  /** Streaming: files woken to try their calls again, and the loop working through them (wakeWaiting). */
  private readonly retries: string[] = [];
  private retrying: Promise<void> | null = null;
  private retryError: unknown = null;
  /** Where call targets lead through barrels (memoised once every file on the way is known). */
  private readonly routes: ReExportRoutes;
  private readonly out: FieldChunker | null;
  /** Streaming: the symbol index, sent as files arrive. */
  private readonly streamedSymbols: StreamedSymbols | null;
  /** The project's symlinks, for the final resolution (see addLink). */
  private readonly links: Map<string, string | null>;
  /** Files with relative imports that found no file, and those imports: one through a folder symlink may find it at the end. */
  private readonly unresolved: Array<[string, string[]]> = [];

  constructor(
    private readonly resolver: ImportResolver,
    private readonly layout: ProjectLayout,
    sink?: GraphChunkSink,
    links: ProjectLinks = new Map(),
  ) {
    this.out = sink ? new FieldChunker(sink) : null;
    this.streamedSymbols = this.out ? new StreamedSymbols(this.out, (p) => (this.files.get(p) as GraphInput).facts.symbols) : null;
    this.routes = new ReExportRoutes(this.files, resolver);
    this.links = new Map(links);
  }

  /**
   * A symlink of the project and the project path it points to (null: outside). While files arrive an
   * import of a link resolves to the link itself; at the end such imports are resolved again through
   * the links (see complete), so a link's record may come at any time before that.
   */
  addLink(p: string, target: string | null): void {
    this.links.set(p, target);
  }

  add(p: string, input: GraphInput): void {
    const { facts } = input;
    const { deps, importedFrom, unresolvedRelative } = resolveFileImports(p, facts, this.resolver);
    if (unresolvedRelative) this.unresolved.push([p, unresolvedRelative]);
    this.setDependencies(p, deps);
    if (this.out) this.addStreaming(p, input, deps, importedFrom);
    else {
      this.files.set(p, input);
      this.routes.fileAdded(p);
      for (const s of facts.symbols) this.addSymbol(s.name, { path: p, line: s.line, kind: s.kind });
      if (facts.calls.length) this.calls.set(p, resolveCalls(p, facts, importedFrom));
    }
  }

  private setDependencies(p: string, deps: string[]): void {
    for (const d of this.dependencies.get(p) ?? []) {
      const list = this.dependents.get(d) as string[];
      list.splice(list.indexOf(p), 1);
    }
    this.dependencies.set(p, deps);
    for (const d of deps) {
      const list = this.dependents.get(d);
      if (list) list.push(p);
      else this.dependents.set(d, [p]);
    }
  }

  private addSymbol(name: string, loc: SymbolLocation): void {
    const list = this.symbols.get(name);
    if (list) list.push(loc);
    else this.symbols.set(name, [loc]);
  }

  /**
   * Streaming mode keeps the caller's input object itself (owned from here on), trimmed to what barrel
   * hops and meta need: a copy would give the graph code a second object shape to optimise for.
   */
  private addStreaming(p: string, input: GraphInput, deps: string[], importedFrom: Map<string, string>): void {
    this.files.set(p, input);
    this.routes.fileAdded(p);
    try {
      this.sendFileFields(p, input, deps, importedFrom);
    } finally {
      // In place: swapping in other arrays would change the fields' recorded types, and V8 would drop
      // the optimised code of everything that reads facts.
      const { facts } = input;
      let kept = 0;
      for (const i of facts.imports) if (i.isReExport) facts.imports[kept++] = i;
      facts.imports.length = kept;
      facts.exports.length = 0;
      facts.calls.length = 0;
    }
    this.wakeWaiting(p);
  }

  private sendFileFields(p: string, input: GraphInput, deps: string[], importedFrom: Map<string, string>): void {
    const out = this.out as FieldChunker;
    const { facts } = input;
    const depsJson = JSON.stringify(deps);
    if (deps.length) out.index(INDEX_FIELD.deps(p), depsJson);
    this.metaHeads.set(p, metaJsonHead(input.complexity, depsJson));
    (this.streamedSymbols as StreamedSymbols).fileAdded(p, facts.symbols);
    if (!facts.calls.length) return;
    const calls = resolveCalls(p, facts, importedFrom);
    if (!this.trySendCalls(p, calls)) this.calls.set(p, calls);
  }

  /**
   * Sends a file's calls if every target is final; otherwise the file waits for the first file its
   * barrel path still lacks, and is tried again when that one arrives (so by the end of a run almost
   * nothing is left for the serial tail).
   */
  private trySendCalls(p: string, calls: ResolvedCall[]): boolean {
    const targets: (string | undefined)[] = [];
    for (const c of calls) {
      if (!c.target) {
        targets.push(undefined);
        continue;
      }
      const lookup: HopLookup = { missing: false };
      const final = this.finalTarget(c.target, lookup);
      if (final === null) {
        const file = lookup.missingFile as string;
        const waiting = this.waitingOn.get(file);
        if (waiting) waiting.add(p);
        else this.waitingOn.set(file, new Set([p]));
        return false;
      }
      targets.push(final);
    }
    (this.out as FieldChunker).index(INDEX_FIELD.calls(p), JSON.stringify(calls.map((c, i) => callTo(c, targets[i]))));
    return true;
  }

  /**
   * Files whose calls waited for `p` try again now that it is known. In time slices, after this file's
   * turn: a package barrel that arrives late wakes thousands of callers (≈ 0.2 s of work on 38K files).
   */
  private wakeWaiting(p: string): void {
    const waiting = this.waitingOn.get(p);
    if (!waiting) return;
    this.waitingOn.delete(p);
    for (const w of waiting) this.retries.push(w);
    this.retrying ??= this.retryWaiting();
  }

  private async retryWaiting(): Promise<void> {
    const slicer = new TimeSlicer();
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      // The queue grows while this runs (each slice lets more files arrive): read it by index.
      for (let i = 0; i < this.retries.length; i++) {
        const w = this.retries[i] as string;
        const calls = this.calls.get(w);
        if (calls && this.trySendCalls(w, calls)) this.calls.delete(w);
        if (slicer.due()) await slicer.yield();
      }
    } catch (err) {
      // Nobody awaits this loop until drain(): keep the error for it rather than leave it unhandled.
      this.retryError ??= err;
    }
    this.retries.length = 0;
    this.retrying = null;
  }

  has(p: string): boolean {
    return this.files.has(p);
  }

  /**
   * Where a call target ends up after the barrels, or null while a file on the way is not known yet.
   * Files' facts do not change during a run, so an answer reached without a missing file is final.
   */
  private finalTarget(target: string, lookup: HopLookup): string | null {
    const { file, name } = splitTarget(target);
    const dest = this.routes.follow(file, name, lookup);
    return lookup.missing ? null : dest;
  }

  /** Collecting mode: the whole graph. */
  async finish(): Promise<GraphOutput> {
    if (this.out) throw new Error("a streaming GraphAccumulator ends with drain()");
    const meta = await this.complete();
    return { meta, dependencies: this.dependencies, symbols: this.symbols, calls: this.calls };
  }

  /**
   * Streaming mode: sends everything that could not be sent before every file was known. `reload` gives
   * back the facts of files already added (the streaming mode does not keep them), for the few whose
   * imports must be resolved again (see reresolve).
   */
  async drain(reload?: FactsReload): Promise<void> {
    if (!this.out) throw new Error("a collecting GraphAccumulator ends with finish()");
    while (this.retrying) await this.retrying;
    if (this.retryError) throw this.retryError;
    await this.complete(reload);
    this.out.flush();
  }

  /**
   * Imports are resolved as files arrive, against every scanned path; a path that then turned out binary
   * or non-UTF-8 is not part of the graph, and may have hidden a text file the import means (`./x` →
   * `x.ts` full of NUL bytes, beside `x.tsx`); a symlink stands for the file it points to. Those files'
   * imports and calls are resolved again against the text files and the links, as the live index
   * resolves them.
   */
  private async reresolve(paths: string[], textResolver: ImportResolver, reload?: FactsReload): Promise<void> {
    const inputs = this.out ? ((await reload?.(paths)) ?? new Map<string, GraphInput>()) : new Map(paths.map((p) => [p, this.files.get(p) as GraphInput]));
    for (const p of paths) {
      const input = inputs.get(p);
      const { deps, importedFrom } = input
        ? resolveFileImports(p, input.facts, textResolver)
        : { deps: (this.dependencies.get(p) ?? []).filter((d) => this.files.has(d)), importedFrom: null };
      this.setDependencies(p, deps);
      const depsJson = JSON.stringify(deps);
      if (this.out) this.metaHeads.set(p, metaJsonHead((this.files.get(p) as GraphInput).complexity, depsJson));
      if (deps.length) this.out?.index(INDEX_FIELD.deps(p), depsJson);
      else this.out?.dropIndex([INDEX_FIELD.deps(p)]);
      // Calls follow the new import targets; refineCallTargets settles and sends them.
      if (input && importedFrom && input.facts.calls.length) this.calls.set(p, resolveCalls(p, input.facts, importedFrom));
    }
  }

  private async complete(reload?: FactsReload): Promise<Map<string, FileMeta>> {
    const slicer = new TimeSlicer();
    const landing = new Set(this.files.keys());
    for (const l of this.links.keys()) landing.add(l);
    const textResolver = new ImportResolver(landing, this.layout, this.links);
    // Files with an edge to a path that never arrived as text.
    const misresolved = new Set<string>();
    for (const [d, users] of this.dependents) if (!this.files.has(d)) for (const u of users) misresolved.add(u);
    for (const p of importersThroughFolderLinks(this.unresolved, this.links, this.files)) misresolved.add(p);
    if (misresolved.size) await this.reresolve([...misresolved], textResolver, reload);
    await this.refineCallTargets(slicer, textResolver);
    this.streamedSymbols?.sendGrown();
    const entries = packageEntrySet(this.layout, textResolver);
    const meta = new Map<string, FileMeta>();
    const none: string[] = [];
    if (this.out) {
      // Every file has its head (sendFileFields): only the end of each JSON is left for here.
      for (const [p, head] of this.metaHeads) {
        this.out.meta(p, metaJson(head, p, this.dependents.get(p)?.sort() ?? none, entries));
        if (slicer.due()) await slicer.yield();
      }
      return meta;
    }
    for (const [p, { complexity }] of this.files) {
      meta.set(p, buildMeta(p, complexity, this.dependencies.get(p) ?? [], (this.dependents.get(p) ?? []).sort(), entries));
      if (slicer.due()) await slicer.yield();
    }
    return meta;
  }

  /** Moves call targets that land on a barrel to the declaring file (streaming: sends the result). */
  private async refineCallTargets(slicer: TimeSlicer, resolver: ImportResolver): Promise<void> {
    const real = new Map<string, string>();
    const routes = new ReExportRoutes(this.files, resolver);
    for (const [p, list] of this.calls) {
      if (slicer.due()) await slicer.yield();
      const settled = list.map((c) => {
        if (!c.target) return c;
        let to = real.get(c.target);
        if (to === undefined) {
          const { file, name } = splitTarget(c.target);
          real.set(c.target, (to = routes.follow(file, name)));
        }
        return callTo(c, to);
      });
      if (this.out) this.out.index(INDEX_FIELD.calls(p), JSON.stringify(settled));
      else this.calls.set(p, settled);
    }
  }
}

export async function buildGraph(files: Map<string, GraphInput>, resolver: ImportResolver, layout: ProjectLayout, links?: ProjectLinks): Promise<GraphOutput> {
  const acc = new GraphAccumulator(resolver, layout, undefined, links);
  const slicer = new TimeSlicer();
  for (const [p, input] of files) {
    acc.add(p, input);
    await slicer.maybeYield();
  }
  return acc.finish();
}
