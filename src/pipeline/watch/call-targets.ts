// Call targets for the live index, computed as the full graph pass does (resolveCalls, then re-export
// hops from barrel files to the declaring file), and the callers a change can affect. A call's target
// depends on the imported file only through ReExportRoutes.follow(file, name), whose answer changes only
// for names the change touches. So the search walks barrels upstream carrying a name filter (translated
// at each level where an import or re-export renames: `yell` above is `shout` below), passes a name to a
// barrel's importers only when that barrel routes the name to the changed file, and recomputes only the
// callers that use such a name.
import { resolveCalls, type GraphInput, type ResolvedCall } from "../graph/graph-builder.js";
import { exportedName, forwardedName, headOf, MAX_REEXPORT_HOPS, ReExportRoutes } from "../graph/re-export-routes.js";
import type { ImportResolver } from "../graph/import-resolver.js";
import type { GraphFacts } from "../../workers/protocol.js";

/** Barrel depth followed upstream: one more than the re-export hops a call target takes. */
const UPSTREAM_DEPTH = MAX_REEXPORT_HOPS + 1;

/** Names whose target through a file may have changed; "all" when anything may. */
export type NameScope = NameSet | "all";

export interface NameSet {
  has(name: string): boolean;
}

export interface CallSeed {
  file: string;
  names: NameScope;
  /**
   * The file's own answers changed (it forwards names through re-exports), so its importers are affected;
   * false: only barrels re-exporting it are (a file without re-exports is the target whatever it declares).
   */
  direct: boolean;
  /** Symbols the file gained or lost (by its own names): a barrel above may have routed those names to it before. */
  symbolDelta?: NameSet;
}

const inScope = (names: NameScope, name: string) => names === "all" || names.has(name) || (name.includes(".") && names.has(headOf(name)));
const isEmpty = (names: NameScope) => names instanceof Set && names.size === 0;

/**
 * How the names `y` re-exports from `x` read in `x`: `export { a as b }` → a, `export * as ns` → ns.fn is
 * fn. A name `y` does not take from `x` under another name reads the same (a harmless over-match: it only
 * adds a caller to recompute).
 */
function namesBelow(facts: GraphFacts, y: string, x: string, resolver: ImportResolver): (name: string) => string | null {
  const renamed = new Map<string, string>();
  for (const i of facts.imports) {
    if (!i.isReExport) continue;
    const own = exportedName(i);
    // The rename test first: most re-exports keep their name, and need no resolving here.
    if (own !== i.name && own !== "*" && resolver.resolve(y, i.from) === x) renamed.set(own, i.name);
  }
  if (!renamed.size) return (name) => name;
  return (name) => {
    const head = headOf(name);
    const source = renamed.get(head);
    return source === undefined ? name : forwardedName(source, head, name);
  };
}

/** `names` (read in x) as read in y, through `below` (see namesBelow). */
function readAbove(names: NameSet, below: (name: string) => string | null): NameSet {
  return {
    has: (n: string) => {
      const m = below(n);
      return m !== null && names.has(m);
    },
  };
}

/**
 * One file's calls with their targets. `routes` lives for one batch: the graph does not change while a
 * batch's calls are recomputed, and many callers reach the same barrels.
 */
export function fileCalls(p: string, facts: GraphFacts, importedFrom: Map<string, string>, routes: ReExportRoutes): ResolvedCall[] {
  const calls = resolveCalls(p, facts, importedFrom);
  for (const c of calls) {
    if (!c.target) continue;
    const hash = c.target.lastIndexOf("#");
    const file = c.target.slice(0, hash);
    const name = c.target.slice(hash + 1);
    c.target = routes.follow(file, name);
  }
  return calls;
}

export function hasReExports(facts: GraphFacts | undefined): boolean {
  return !!facts?.imports.some((i) => i.isReExport);
}

/** Re-export lines as comparable text: a change here can re-route any name the file forwards. */
export function reExportSignature(facts: GraphFacts | undefined): string {
  return (facts?.imports ?? [])
    .filter((i) => i.isReExport)
    .map((i) => `${exportedName(i)}\0${i.name}\0${i.from}`)
    .sort()
    .join("\n");
}

/**
 * `default` when the name a file's default export is declared under changed, `=` when the name its module
 * object is did (a file that came or went counts for both): calls through those move with them.
 */
export function movedNames(a: GraphFacts | undefined, b: GraphFacts | undefined): string[] {
  const out: string[] = [];
  if ((a?.defaultName || "") !== (b?.defaultName || "") || !a !== !b) out.push("default");
  if ((a?.moduleName || "") !== (b?.moduleName || "") || !a !== !b) out.push("=");
  return out;
}

/** Symbol names in one set and not the other. */
export function symbolDelta(a: GraphFacts | undefined, b: GraphFacts | undefined): Set<string> {
  const x = new Set((a?.symbols ?? []).map((s) => s.name));
  const y = new Set((b?.symbols ?? []).map((s) => s.name));
  const out = new Set<string>();
  for (const n of x) if (!y.has(n)) out.add(n);
  for (const n of y) if (!x.has(n)) out.add(n);
  return out;
}

/**
 * What a barrel whose re-exports now resolve elsewhere may route differently: the names the files it
 * gained or lost export (namesExported) and the names it re-exports by name. Any other name keeps its
 * route: a star is taken only for a name found below it, so the first star that has it is the same before
 * and after. "all" when what they export is not known.
 */
export function movedBarrelScope(facts: GraphFacts, movedExports: ReadonlySet<string> | null): NameScope {
  if (!movedExports) return "all";
  const named = new Set<string>();
  for (const i of facts.imports) if (i.isReExport && exportedName(i) !== "*") named.add(exportedName(i));
  return { has: (n: string) => movedExports.has(n) || named.has(headOf(n)) };
}

/** A module as a batch found and left it: its facts before and after, and its dependencies before and after. */
export interface ModuleStates {
  facts(p: string): (GraphFacts | undefined)[];
  deps(p: string): Iterable<string>;
}

/**
 * The names `paths` export, before or after the batch: their symbols and names re-exported by name, and,
 * through a file that re-exports, what every module it depends on exports (its dependencies stand in for
 * its star targets: an over-match only adds names). Null when a module on the way is not known.
 */
export function namesExported(paths: Iterable<string>, modules: ModuleStates): Set<string> | null {
  const out = new Set<string>();
  const seen = new Set<string>();
  const pending = [...paths];
  for (let p = pending.pop(); p !== undefined; p = pending.pop()) {
    if (seen.has(p)) continue;
    seen.add(p);
    const states = modules.facts(p).filter((f): f is GraphFacts => f !== undefined);
    if (!states.length) return null;
    for (const facts of states) {
      for (const s of facts.symbols) out.add(s.name);
      for (const i of facts.imports) if (i.isReExport && exportedName(i) !== "*") out.add(exportedName(i));
    }
    if (states.some(hasReExports)) for (const d of modules.deps(p)) pending.push(d);
  }
  return out;
}

/**
 * The names whose route through `p` its changed re-exports can move: those re-exported by name on lines
 * that came or went, what the modules on star lines that came or went export, and what the files it now
 * resolves elsewhere (`movedDeps`) export. Everything it exports, before or after, when the lines it kept
 * changed order (the first star that has a name wins) or a star line that came or went does not resolve
 * now. Null when a module on the way is not known.
 */
export function reroutedNames(p: string, before: GraphFacts | undefined, after: GraphFacts | undefined, movedDeps: readonly string[], modules: ModuleStates, resolver: ImportResolver): Set<string> | null {
  const lines = (f: GraphFacts | undefined) => (f?.imports ?? []).filter((i) => i.isReExport).map((i) => ({ key: `${exportedName(i)}\0${i.name}\0${i.from}`, i }));
  const was = lines(before);
  const is = lines(after);
  const wasKeys = new Set(was.map((l) => l.key));
  const isKeys = new Set(is.map((l) => l.key));
  const kept = (from: typeof was, other: Set<string>) => from.filter((l) => other.has(l.key)).map((l) => l.key).join("\n");
  if (kept(was, isKeys) !== kept(is, wasKeys)) return namesExported([p], modules);
  const out = new Set<string>();
  const below = [...movedDeps];
  for (const { i } of [...was.filter((l) => !isKeys.has(l.key)), ...is.filter((l) => !wasKeys.has(l.key))]) {
    const name = exportedName(i);
    if (name !== "*") {
      out.add(name);
      continue;
    }
    const target = resolver.resolve(p, i.from);
    if (target === null) return namesExported([p], modules);
    below.push(target);
  }
  const exported = namesExported(below, modules);
  if (!exported) return null;
  for (const n of exported) out.add(n);
  return out;
}

/** An import a file's calls go through: its local name and the callees whose head it binds. */
interface CalledImport {
  from: string;
  local: string;
  /** The name the module itself gives it, when the import renames (`import { a as b }`, `import * as ns`). */
  source: string | null;
  callees: string[];
}

/** Per facts object (a changed file gets new facts): the imports each file calls through. */
const calledImportsCache = new WeakMap<GraphFacts, CalledImport[]>();

function calledImports(facts: GraphFacts): CalledImport[] {
  let known = calledImportsCache.get(facts);
  if (known) return known;
  const byHead = new Map<string, string[]>();
  for (const c of facts.calls) {
    const head = headOf(c.callee);
    const list = byHead.get(head);
    if (list) list.push(c.callee);
    else byHead.set(head, [c.callee]);
  }
  known = [];
  for (const i of facts.imports) {
    const callees = i.isReExport ? undefined : byHead.get(i.name);
    if (!callees) continue;
    const source = i.imported || i.name;
    known.push({ from: i.from, local: i.name, source: source === i.name ? null : source, callees });
  }
  calledImportsCache.set(facts, known);
  return known;
}

/**
 * Whether one of y's calls goes through x for a name in scope: a call whose head y imports from x
 * (resolveCalls), read under the name x gives it. The names first: the import is resolved only for a
 * call that can matter (resolving every import of thousands of importers was half of this search).
 */
function callsThrough(y: string, facts: GraphFacts, x: string, names: NameScope, resolver: ImportResolver): boolean {
  for (const i of calledImports(facts)) {
    const matters =
      names === "all" ||
      i.callees.some((callee) => inScope(names, i.source === null ? callee : (forwardedName(i.source, i.local, callee) ?? callee)));
    if (matters && resolver.resolve(y, i.from) === x) return true;
  }
  return false;
}

const unionScope = (scopes: NameScope[]): NameScope =>
  scopes.includes("all") ? "all" : scopes.length === 1 ? (scopes[0] as NameSet) : { has: (n: string) => scopes.some((s) => (s as NameSet).has(n)) };

/** A file's importers: all of them, and those with re-export lines (a subset, which may over-match). */
export interface DependentsView {
  dependentsOf(p: string): Iterable<string>;
  reExportersOf(p: string): Iterable<string>;
}

/** Files whose call targets may change, given seeds (files whose routing changed for some names). */
export function callersThrough(seeds: CallSeed[], graph: DependentsView, files: Map<string, GraphInput>, resolver: ImportResolver, routes: ReExportRoutes): Set<string> {
  const { dependentsOf, reExportersOf } = graph;
  // The routes first: which files answer differently, for which names. A file reached along several
  // routes (a barrel that lost a file, and the barrel above it) has its importers' calls read once.
  const callScopes = new Map<string, NameScope[]>();
  let frontier = seeds.filter((s) => !isEmpty(s.names));
  for (let depth = 0; depth < UPSTREAM_DEPTH && frontier.length; depth++) {
    const next: CallSeed[] = [];
    for (const { file: x, names, direct, symbolDelta: delta } of frontier) {
      // x's importers' calls reach it directly; x answers differently only when it routes names itself.
      if (depth > 0 || direct) {
        const list = callScopes.get(x);
        if (list) list.push(names);
        else callScopes.set(x, [names]);
      }
      for (const y of reExportersOf(x)) {
        const facts = files.get(y)?.facts;
        // y routes a name to x now, or (for a name x gained or lost) may have before.
        if (!facts || !facts.imports.some((i) => i.isReExport && resolver.resolve(y, i.from) === x)) continue;
        if (names === "all") {
          next.push({ file: y, names: "all", direct: true, ...(delta ? { symbolDelta: delta } : {}) });
          continue;
        }
        const exportedBelow = namesBelow(facts, y, x, resolver);
        const via: NameSet = {
          // The name filter first: it is a set lookup, and rules out nearly every name.
          has: (n: string) => {
            const m = exportedBelow(n);
            return m !== null && inScope(names, m) && (!!delta?.has(m) || routes.hop(y, n)?.file === x);
          },
        };
        // A name x gained or lost may have been routed through y before, at every level up.
        next.push({ file: y, names: via, direct: true, ...(delta ? { symbolDelta: readAbove(delta, exportedBelow) } : {}) });
      }
    }
    frontier = next;
  }
  const out = new Set<string>();
  for (const [x, scopes] of callScopes) {
    const names = unionScope(scopes);
    for (const y of dependentsOf(x)) {
      if (out.has(y)) continue;
      const facts = files.get(y)?.facts;
      if (facts && callsThrough(y, facts, x, names, resolver)) out.add(y);
    }
  }
  return out;
}
