// Which files' imports could change when a file appears or disappears. The resolver probes
// `<base><ext>` and `<base>/index<ext>`, so a relative specifier can only resolve to a file whose path less
// its extension (or, for an index file, whose folder) is the path the specifier names, and a bare one to a
// file whose stem (or folder name) is the specifier's last segment. Indexing importers by those keys lets
// a created file re-resolve a handful of importers instead of the whole project.
import path from "node:path";
import { bareSpecifierBases, MAX_LINK_HOPS, type ImportResolver } from "../graph/import-resolver.js";
import type { ProjectLayout } from "../graph/project-layout.js";
import type { ProjectLinks } from "../graph/project-links.js";
import type { GraphFacts } from "../../workers/protocol.js";
import { addTo, removeFrom } from "./multimap.js";

const posix = path.posix;
/** Longest first, so `x.d.ts` loses `.d.ts`, not just `.ts`. */
const STRIPPED_EXTENSIONS = [".d.ts", ".d.mts", ".d.cts", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json"];

function stripExtension(name: string): string {
  for (const ext of STRIPPED_EXTENSIONS) if (name.endsWith(ext) && name.length > ext.length) return name.slice(0, -ext.length);
  return name;
}

function dirOf(p: string): string {
  const d = posix.dirname(p);
  return d === "." ? "" : d;
}

/**
 * Key of one import specifier written in `fromFile`: for a relative one the project path it names less its
 * extension (`src/a/money` for `./money.js`), for a bare one its last segment less its extension; null for
 * specifiers that never name a project file.
 */
export function specifierKey(fromFile: string, spec: string): string | null {
  if (!spec || spec.startsWith("node:") || spec.startsWith("/")) return null;
  if (spec.startsWith(".")) {
    const joined = posix.normalize(posix.join(dirOf(fromFile), spec)).replace(/\/$/, "");
    if (joined === "." || joined === "") return "";
    if (joined.startsWith("..")) return null;
    return stripExtension(joined);
  }
  return stripExtension(spec.slice(spec.lastIndexOf("/") + 1));
}

/** Keys under which relative importers of `file` are found: its path less its extension, and its folder for index files. */
export function filePathKeys(file: string): string[] {
  const stem = stripExtension(file);
  return posix.basename(stem) === "index" ? [stem, dirOf(file)] : [stem];
}

/** Keys under which bare importers of `file` are found: its stem, and its folder's name for index files. */
export function fileKeys(file: string): string[] {
  const stem = stripExtension(posix.basename(file));
  if (stem !== "index") return [stem];
  const dir = dirOf(file);
  return [stem, dir === "" ? "" : posix.basename(dir)];
}

/**
 * A file's path and the paths it is also reached by through folder links (`src/shared/money.ts` when
 * `src/shared` → `packages/core/src`), as many links deep as the resolver follows.
 */
export function pathsThroughLinks(file: string, links: ProjectLinks): string[] {
  const out = new Set([file]);
  let round = [file];
  for (let hop = 0; hop < MAX_LINK_HOPS && round.length && links.size; hop++) {
    const next: string[] = [];
    for (const x of round)
      for (const [link, target] of links) {
        if (target === null || !x.startsWith(`${target}/`)) continue;
        const via = link + x.slice(target.length);
        if (!out.has(via)) next.push(via);
        out.add(via);
      }
    round = next;
  }
  return [...out];
}

/** What a file's path starts with when it is one of `bases`, has one as its stem, or lies under one. */
function basePrefixes(bases: readonly string[]): string[] {
  return [...new Set(bases.flatMap((b) => [`${b}/`, `${stripExtension(b)}.`]))];
}

function underAnyBase(x: string, bases: readonly string[], prefixes: readonly string[]): boolean {
  return bases.includes(x) || prefixes.some((pre) => x.startsWith(pre));
}

/**
 * Specifiers whose target the layout picks rather than the name: a workspace package's root (its
 * package.json entries), an exact subpath export, an exact tsconfig alias. Returns the group the
 * specifier depends on (the package name, or the alias), or null for any other specifier.
 */
export function layoutBoundMatcher(layout: ProjectLayout): (spec: string) => string | null {
  const exactAliases = new Set<string>();
  for (const scope of layout.scopes.values()) for (const a of scope.aliases) if (!a.wildcard) exactAliases.add(a.pattern);
  return (spec) => {
    if (spec.startsWith(".") || spec.startsWith("/") || spec.startsWith("node:")) return null;
    if (exactAliases.has(spec)) return `alias:${spec}`;
    const slash = spec.indexOf("/", spec.startsWith("@") ? spec.indexOf("/") + 1 : 0);
    const name = slash === -1 ? spec : spec.slice(0, slash);
    const pkg = layout.packages.get(name);
    if (!pkg) return null;
    // Deeper specifiers resolve by name (their stem is the key) unless an exact subpath export maps them.
    return name === spec || pkg.subpaths[`./${spec.slice(slash + 1)}`] !== undefined ? name : null;
  };
}

type BoundSpec = [spec: string, target: string | null];

/**
 * Importers by key (relative specifiers by the path they name, bare ones by their last segment), plus the
 * importers of layout-bound specifiers (grouped by package or alias) with where those resolved: after
 * files are created, `affectedBy` names the importers whose resolution may have changed. (A deleted file
 * only changes the resolution of its own dependents.)
 */
export class ImporterIndex {
  private readonly byPath = new Map<string, Set<string>>();
  private readonly byName = new Map<string, Set<string>>();
  private readonly keysOf = new Map<string, { paths: string[]; names: string[] }>();
  private readonly bound = new Map<string, BoundSpec[]>();
  private readonly byGroup = new Map<string, Set<string>>();
  private readonly groupOf: (spec: string) => string | null;
  private readonly scopeCache = new Map<string, string>();
  private readonly groupBases = new Map<string, { bases: string[]; prefixes: string[] } | null>();

  constructor(private readonly layout: ProjectLayout) {
    this.groupOf = layoutBoundMatcher(layout);
  }

  add(p: string, facts: GraphFacts, resolver: ImportResolver): void {
    const paths = new Set<string>();
    const names = new Set<string>();
    const bound: BoundSpec[] = [];
    for (const imp of facts.imports) {
      const k = specifierKey(p, imp.from);
      if (k !== null) (imp.from.startsWith(".") ? paths : names).add(k);
      const group = this.groupOf(imp.from);
      if (group === null) continue;
      bound.push([imp.from, resolver.resolve(p, imp.from)]);
      addTo(this.byGroup, group, p);
    }
    this.keysOf.set(p, { paths: [...paths], names: [...names] });
    for (const k of paths) addTo(this.byPath, k, p);
    for (const k of names) addTo(this.byName, k, p);
    if (bound.length) this.bound.set(p, bound);
  }

  remove(p: string): void {
    const keys = this.keysOf.get(p);
    for (const k of keys?.paths ?? []) removeFrom(this.byPath, k, p);
    for (const k of keys?.names ?? []) removeFrom(this.byName, k, p);
    for (const [spec] of this.bound.get(p) ?? []) {
      const group = this.groupOf(spec);
      if (group !== null) removeFrom(this.byGroup, group, p);
    }
    this.keysOf.delete(p);
    this.bound.delete(p);
  }

  /** Re-records where an importer's layout-bound specifiers resolve now. */
  refresh(p: string, facts: GraphFacts, resolver: ImportResolver): void {
    if (!this.bound.has(p)) return;
    this.remove(p);
    this.add(p, facts, resolver);
  }

  /**
   * Adds to `out` the importers whose resolution the created files (and the links that came, went or
   * point elsewhere, `relinked`) may change. `links` are the project's links now: a file created under a
   * linked folder is also reached by the link's path.
   */
  affectedBy(created: readonly string[], relinked: readonly string[], links: ProjectLinks, resolver: ImportResolver, out: Set<string>): void {
    if (!created.length && !relinked.length) return;
    const reach = [...new Set([...created, ...relinked].flatMap((c) => pathsThroughLinks(c, links)))];
    for (const x of reach) {
      for (const k of filePathKeys(x)) for (const f of this.byPath.get(k) ?? []) out.add(f);
      for (const k of fileKeys(x)) for (const f of this.byName.get(k) ?? []) out.add(f);
    }
    // The packages and aliases they can move: one of whose probed paths they are or lie under, or, for a
    // link, lies under them. (A file created beside a package's entry moves nothing.)
    const groups = new Set<string>();
    const linkFolders = relinked.flatMap((l) => pathsThroughLinks(l, links)).map((l) => `${l}/`);
    for (const g of this.byGroup.keys()) {
      const b = this.basesOf(g);
      if (b === null || reach.some((x) => underAnyBase(x, b.bases, b.prefixes)) || b.bases.some((base) => linkFolders.some((l) => base.startsWith(l)))) groups.add(g);
    }
    // A bare specifier resolves the same from every folder under one tsconfig: one resolve per scope.
    const memo = new Map<string, string | null>();
    for (const g of groups) {
      for (const f of this.byGroup.get(g) ?? []) {
        if (out.has(f)) continue;
        const scope = this.scopeDirOf(f);
        for (const [spec, target] of this.bound.get(f) ?? []) {
          const key = `${scope}\0${spec}`;
          let now = memo.get(key);
          if (now === undefined) memo.set(key, (now = resolver.resolve(f, spec)));
          if (now !== target) {
            out.add(f);
            break;
          }
        }
      }
    }
  }

  /**
   * Adds to `out` the files with a relative import of a path under one of `links` (symlinks that came,
   * went or point elsewhere): through a folder link the import lands on a file the name keys cannot tell.
   */
  importersUnder(links: readonly string[], out: Set<string>): void {
    if (!links.length) return;
    const under = links.map((l) => `${l}/`);
    for (const [k, importers] of this.byPath) if (under.some((u) => k.startsWith(u))) for (const f of importers) out.add(f);
  }

  /** The paths whose files can move a group's specifiers (bareSpecifierBases); null: any file can. */
  private basesOf(group: string): { bases: string[]; prefixes: string[] } | null {
    let cached = this.groupBases.get(group);
    if (cached === undefined) {
      // A package's group: its root and its exact subpath exports (layoutBoundMatcher).
      const pkg = group.startsWith("alias:") ? undefined : this.layout.packages.get(group);
      const specs = pkg ? [group, ...Object.keys(pkg.subpaths).map((k) => `${group}/${k.slice(2)}`)] : [group.slice("alias:".length)];
      const each = specs.map((spec) => bareSpecifierBases(this.layout, spec));
      const bases = each.includes(null) ? null : (each as string[][]).flat();
      this.groupBases.set(group, (cached = bases && { bases, prefixes: basePrefixes(bases) }));
    }
    return cached;
  }

  /** The folder of the tsconfig that governs a file (the resolver's scope), or "" when none does. */
  private scopeDirOf(file: string): string {
    const start = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : "";
    const cached = this.scopeCache.get(start);
    if (cached !== undefined) return cached;
    let dir = start;
    while (dir && !this.layout.scopes.has(dir)) dir = dir.includes("/") ? dir.slice(0, dir.lastIndexOf("/")) : "";
    this.scopeCache.set(start, dir);
    return dir;
  }
}

