// The graph pass after extraction: resolves imports to files, derives dependents, hubs and entry points,
// and builds the symbol index and a best-effort call graph. It works in time slices so the main thread
// stays responsive on a 10K-file project.
import path from "node:path";
import type { ComplexityScore, FileMeta } from "../../workers/ast-types.js";
import type { GraphFacts } from "../../workers/protocol.js";
import { ImportResolver } from "./import-resolver.js";
import type { ProjectLayout } from "./project-layout.js";

/** A file with more dependents than this is a hub (seed 000). */
export const HUB_DEPENDENTS_THRESHOLD = 5;
const SLICE_MS = 8;
const ENTRY_BASENAMES = new Set(["index", "main", "app", "server", "cli"]);
const TEST_FILE = /(^|\/)(__tests__\/|[^/]*\.(test|spec)\.[cm]?[jt]sx?$)/;
const CODE_FILE = /\.[cm]?[jt]sx?$/;

export interface GraphInput {
  facts: GraphFacts;
  complexity: ComplexityScore;
}

export interface SymbolLocation {
  path: string;
  line: number;
  kind: string;
}

export interface ResolvedCall {
  caller: string;
  callee: string;
  line: number;
  /** `path#symbol` when the callee could be resolved to a declaration in the project. */
  target?: string;
}

export interface GraphOutput {
  meta: Map<string, FileMeta>;
  dependencies: Map<string, string[]>;
  symbols: Map<string, SymbolLocation[]>;
  calls: Map<string, ResolvedCall[]>;
}

export class TimeSlicer {
  private start = performance.now();
  async maybeYield(): Promise<void> {
    if (performance.now() - this.start < SLICE_MS) return;
    await new Promise<void>((r) => setImmediate(r));
    this.start = performance.now();
  }
}

export function isEntryPointPath(p: string, packageEntries: ReadonlySet<string>): boolean {
  if (packageEntries.has(p)) return true;
  const stem = path.posix.basename(p).replace(/\.[^.]+$/, "");
  return CODE_FILE.test(p) && ENTRY_BASENAMES.has(stem);
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

/** Resolves one file's imports; returns its internal dependencies and a local-name → file map for calls. */
export function resolveFileImports(p: string, facts: GraphFacts, resolver: ImportResolver): { deps: string[]; importedFrom: Map<string, string> } {
  const deps = new Set<string>();
  const importedFrom = new Map<string, string>();
  for (const imp of facts.imports) {
    const target = resolver.resolve(p, imp.from);
    if (!target || target === p) continue;
    deps.add(target);
    if (imp.name && imp.name !== "*") importedFrom.set(imp.name, target);
  }
  return { deps: [...deps].sort(), importedFrom };
}

export function resolveCalls(p: string, facts: GraphFacts, importedFrom: Map<string, string>): ResolvedCall[] {
  const local = new Set(facts.symbols.map((s) => s.name));
  return facts.calls.map((c) => {
    const head = c.callee.split(".")[0] as string;
    const out: ResolvedCall = { caller: c.caller, callee: c.callee, line: c.line };
    if (local.has(c.callee)) out.target = `${p}#${c.callee}`;
    else if (importedFrom.has(head)) out.target = `${importedFrom.get(head)}#${c.callee === head ? head : c.callee.slice(head.length + 1)}`;
    return out;
  });
}

export function buildMeta(
  p: string,
  complexity: ComplexityScore,
  deps: string[],
  dependents: string[],
  entries: ReadonlySet<string>,
): FileMeta {
  return {
    complexity,
    dependencies: deps,
    dependents,
    isHub: dependents.length > HUB_DEPENDENTS_THRESHOLD,
    // Seed 000: an entry point is index/main-like or named by a package.json, or a code file nothing imports.
    isEntryPoint: isEntryPointPath(p, entries) || (dependents.length === 0 && CODE_FILE.test(p) && !TEST_FILE.test(p)),
  };
}

/** Re-export hops followed when a call target lands on a barrel file (`export * from "./money"`). */
const MAX_REEXPORT_HOPS = 5;

/**
 * A call resolved through an import lands on the imported file, often a barrel `index.ts` that only
 * re-exports. Follow the barrel's re-exports to the file that declares the symbol.
 */
export function followReExports(target: string, name: string, files: Map<string, GraphInput>, resolver: ImportResolver): string {
  let file = target;
  for (let hop = 0; hop < MAX_REEXPORT_HOPS; hop++) {
    const input = files.get(file);
    if (!input || input.facts.symbols.some((s) => s.name === name)) return file;
    const head = name.split(".")[0] as string;
    const via = input.facts.imports.find((i) => i.isReExport && (i.name === head || i.name === "*"));
    const next = via ? resolver.resolve(file, via.from) : null;
    if (!next) return file;
    // `export *` may come from several modules: take the one that declares the name, if any.
    const star = input.facts.imports.filter((i) => i.isReExport && i.name === "*").map((i) => resolver.resolve(file, i.from));
    const declaring = star.find((f) => f && files.get(f)?.facts.symbols.some((s) => s.name === name));
    file = declaring ?? next;
  }
  return file;
}

async function refineCallTargets(files: Map<string, GraphInput>, calls: Map<string, ResolvedCall[]>, resolver: ImportResolver, slicer: TimeSlicer): Promise<void> {
  for (const list of calls.values()) {
    await slicer.maybeYield();
    for (const c of list) {
      if (!c.target) continue;
      const hash = c.target.lastIndexOf("#");
      const file = c.target.slice(0, hash);
      const name = c.target.slice(hash + 1);
      const real = followReExports(file, name, files, resolver);
      if (real !== file) c.target = `${real}#${name}`;
    }
  }
}

/**
 * Builds the graph file by file, so the per-file part (import resolution, symbols, calls) can run while
 * the workers are still parsing; `finish` does what needs every file (dependents, barrels, meta).
 */
export class GraphAccumulator {
  private readonly files = new Map<string, GraphInput>();
  private readonly dependencies = new Map<string, string[]>();
  private readonly symbols = new Map<string, SymbolLocation[]>();
  private readonly calls = new Map<string, ResolvedCall[]>();

  constructor(
    private readonly resolver: ImportResolver,
    private readonly layout: ProjectLayout,
  ) {}

  add(p: string, input: GraphInput): void {
    const { facts } = input;
    this.files.set(p, input);
    const { deps, importedFrom } = resolveFileImports(p, facts, this.resolver);
    this.dependencies.set(p, deps);
    for (const s of facts.symbols) {
      const loc = { path: p, line: s.line, kind: s.kind };
      const list = this.symbols.get(s.name);
      if (list) list.push(loc);
      else this.symbols.set(s.name, [loc]);
    }
    if (facts.calls.length) this.calls.set(p, resolveCalls(p, facts, importedFrom));
  }

  has(p: string): boolean {
    return this.files.has(p);
  }

  async finish(): Promise<GraphOutput> {
    const slicer = new TimeSlicer();
    const dependents = new Map<string, string[]>();
    for (const [p, deps] of this.dependencies) {
      // The resolver saw every scanned path; an edge to a file that turned out binary or non-UTF-8 goes.
      const kept = deps.filter((d) => this.files.has(d));
      if (kept.length !== deps.length) this.dependencies.set(p, kept);
      for (const d of kept) {
        const list = dependents.get(d);
        if (list) list.push(p);
        else dependents.set(d, [p]);
      }
      await slicer.maybeYield();
    }
    await refineCallTargets(this.files, this.calls, this.resolver, slicer);
    const entries = packageEntrySet(this.layout, this.resolver);
    const meta = new Map<string, FileMeta>();
    for (const [p, { complexity }] of this.files) {
      meta.set(p, buildMeta(p, complexity, this.dependencies.get(p) ?? [], (dependents.get(p) ?? []).sort(), entries));
      await slicer.maybeYield();
    }
    return { meta, dependencies: this.dependencies, symbols: this.symbols, calls: this.calls };
  }
}

export async function buildGraph(files: Map<string, GraphInput>, resolver: ImportResolver, layout: ProjectLayout): Promise<GraphOutput> {
  const acc = new GraphAccumulator(resolver, layout);
  const slicer = new TimeSlicer();
  for (const [p, input] of files) {
    acc.add(p, input);
    await slicer.maybeYield();
  }
  return acc.finish();
}
