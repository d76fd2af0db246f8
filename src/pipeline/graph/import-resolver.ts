// Resolves an import specifier in one file to another file of the project, against the in-memory file
// set (no disk access per import): relative paths, folder index files, extension probing (including
// TypeScript's `./x.js` → `./x.ts`), tsconfig `baseUrl`/`paths` and workspace packages. A path that
// is a symlink stands for the file it points to, as it does for Node and TypeScript.
import path from "node:path";
import type { PathAlias, ProjectLayout, TsconfigScope, WorkspacePackage } from "./project-layout.js";
import type { ProjectLinks } from "./project-links.js";

const posix = path.posix;

/**
 * Probed in this order. A declaration file comes after the JavaScript it describes: with `x.js` and
 * `x.d.ts` side by side, `./x` is the code that runs (and that an edit changes), not its types.
 */
const EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".d.ts", ".json"];
const JS_TO_TS: Record<string, string[]> = { ".js": [".ts", ".tsx"], ".jsx": [".tsx"], ".mjs": [".mts"], ".cjs": [".cts"] };
/** What a declaration file's `./x.js` names besides x.ts: the declarations of x.js, as TypeScript reads them. */
const JS_TO_DECLARATION: Record<string, string> = { ".js": ".d.ts", ".jsx": ".d.ts", ".mjs": ".d.mts", ".cjs": ".d.cts" };
const DECLARATION_FILE = /\.d\.[cm]?ts$/;

function dirOf(file: string): string {
  const slash = file.lastIndexOf("/");
  return slash === -1 ? "" : file.slice(0, slash);
}

/** Links followed from one path before giving up (a loop of links leads nowhere). */
export const MAX_LINK_HOPS = 8;

/** Where a package entry that names built output (`dist/index.d.ts`) has its source (`src/index`). */
function sourceOfBuiltEntry(entry: string): string {
  return entry.replace(/^(.*?)\/(dist|build|lib)\//, "$1/src/").replace(/\.d\.ts$/, "");
}

/** The workspace package a bare specifier names (`@acme/core` for `@acme/core/x`), with the rest of it. */
function workspacePackageOf(layout: ProjectLayout, spec: string): { pkg: WorkspacePackage; sub: string } | null {
  const parts = spec.split("/");
  const nameLen = spec.startsWith("@") ? 2 : 1;
  const pkg = layout.packages.get(parts.slice(0, nameLen).join("/"));
  return pkg ? { pkg, sub: parts.slice(nameLen).join("/") } : null;
}

/** What `spec` puts in place of an alias's `*` ("" for an exact alias), or null when the alias does not match it. */
function aliasCapture(a: PathAlias, spec: string): string | null {
  if (!a.wildcard) return spec === a.pattern ? "" : null;
  if (!spec.startsWith(a.prefix) || !spec.endsWith(a.suffix) || spec.length < a.prefix.length + a.suffix.length) return null;
  return spec.slice(a.prefix.length, spec.length - a.suffix.length);
}

/**
 * The paths resolve() probes for a bare specifier, in every tsconfig scope: alias targets, the workspace
 * package it names (its entries, their sources, src/index and index for the root; the subpath export,
 * the subpath and src/subpath for the rest), and baseUrl. A file that is one of them, has one as its
 * stem or lies under one can change where the specifier resolves; no other file can, except through a
 * folder link. Null when every file can (a package at the root).
 */
export function bareSpecifierBases(layout: ProjectLayout, spec: string): string[] | null {
  const bases: string[] = [];
  for (const scope of layout.scopes.values()) {
    for (const a of scope.aliases) {
      const captured = aliasCapture(a, spec);
      if (captured !== null) bases.push(...a.targets.map((t) => (a.wildcard ? t.replace("*", captured) : t)));
    }
    if (scope.baseUrl !== null) bases.push(posix.join(scope.baseUrl, spec));
  }
  const ws = workspacePackageOf(layout, spec);
  if (ws) {
    const { pkg, sub } = ws;
    if (!pkg.dir) return null;
    // As viaWorkspace probes them.
    if (!sub) bases.push(...pkg.entries, ...pkg.entries.map(sourceOfBuiltEntry), posix.join(pkg.dir, "src/index"), posix.join(pkg.dir, "index"));
    else bases.push(...(pkg.subpaths[`./${sub}`] ? [pkg.subpaths[`./${sub}`] as string] : []), posix.join(pkg.dir, sub), posix.join(pkg.dir, "src", sub));
  }
  return bases;
}

export class ImportResolver {
  /** Paths an import can land on: the files, and any symlinks (which `links` follows). */
  private readonly files: ReadonlySet<string>;
  private readonly layout: ProjectLayout;
  private readonly links: ProjectLinks;
  private readonly scopeCache = new Map<string, TsconfigScope | null>();
  /** folder → (relative specifier → result). */
  private readonly relativeCache = new Map<string, Map<string, string | null>>();
  /**
   * file → its folder's entry of relativeCache. Looking up by the file's own path string, which the
   * caller passes again and again, skips slicing the folder and building a composite key per import
   * (that was most of the graph pass's resolving time on a 12K-file index).
   */
  private readonly relativeByFile = new Map<string, Map<string, string | null>>();
  /**
   * Bare specifiers (`react`, `@acme/core`, `@/utils`) resolve the same anywhere under one tsconfig
   * scope, so they are cached per scope: one entry serves every file of a package.
   */
  private readonly bareCache = new Map<TsconfigScope | null, Map<string, string | null>>();

  /**
   * `links`: the project's symlinks among `files`, each with the project path it points to. Without
   * them a link is a file like any other (the cold index's first pass, before links are read).
   */
  constructor(files: ReadonlySet<string>, layout: ProjectLayout, links: ProjectLinks = new Map()) {
    this.files = files;
    this.layout = layout;
    this.links = links;
    // Made up front: a branch that creates one when a package's first file comes runs only after V8
    // optimised resolve() without it, and threw that code away (then compiled it again) every time.
    this.bareCache.set(null, new Map());
    for (const scope of layout.scopes.values()) this.bareCache.set(scope, new Map());
  }

  /** The nearest tsconfig scope of a folder (walking up), cached per folder. */
  private scopeOf(dir: string): TsconfigScope | null {
    const cached = this.scopeCache.get(dir);
    if (cached !== undefined) return cached;
    const own = this.layout.scopes.get(dir);
    const scope = own ?? (dir === "" ? null : this.scopeOf(posix.dirname(dir) === "." ? "" : posix.dirname(dir)));
    this.scopeCache.set(dir, scope);
    return scope;
  }

  /** Tries `base` as a file, with extensions, and as a folder with an index file. */
  probe(base: string): string | null {
    return this.throughLink(this.probeLinks(base));
  }

  /** probe() without following a symlink it lands on: the caller follows the final hit once. */
  private probeLinks(base: string): string | null {
    return this.probeNormal(posix.normalize(base).replace(/^\.\//, ""));
  }

  /**
   * The file a hit stands for: itself, or the file its symlink (chain) points to when that file is one
   * the resolver knows; null for a link out of the project, to a file not indexed, or in a loop.
   */
  private throughLink(hit: string | null): string | null {
    if (hit === null || this.links.size === 0) return hit;
    let at = hit;
    for (let hops = 0; hops < MAX_LINK_HOPS; hops++) {
      const next = this.links.get(at);
      if (next === undefined) return at === hit || this.files.has(at) ? at : this.folderIndex(at);
      if (next === null) return null;
      at = next;
    }
    return null;
  }

  /** The index file of a folder a link points to (`./lib` with `lib` → src/a is src/a/index.ts). */
  private folderIndex(dir: string): string | null {
    for (const e of EXTENSIONS) if (this.files.has(`${dir}/index${e}`)) return `${dir}/index${e}`;
    return null;
  }

  /**
   * In a declaration file, imports name declarations (`export * from "./classic/index.cjs"` in zod's
   * index.d.cts is classic/index.d.cts, not the compiled JavaScript beside it): TypeScript sources first,
   * then declaration files, then what a JavaScript importer would get.
   */
  private probeFromDeclaration(norm: string): string | null {
    const ext = posix.extname(norm);
    const declaration = JS_TO_DECLARATION[ext];
    const stem = declaration ? norm.slice(0, -ext.length) : norm;
    for (const s of declaration ? (JS_TO_TS[ext] as string[]) : [".ts", ".tsx"]) if (this.files.has(stem + s)) return stem + s;
    for (const d of declaration ? [declaration] : [".d.ts", "/index.d.ts"]) if (this.files.has(stem + d)) return stem + d;
    return this.probeNormal(norm);
  }

  /** probe() for a path already normalised (posix.join gives one): normalising twice was a tenth of resolving. */
  private probeNormal(norm: string, hops = 0): string | null {
    if (norm.startsWith("../") || norm === "..") return null;
    if (this.files.has(norm)) return norm;
    const ext = posix.extname(norm);
    const swaps = JS_TO_TS[ext];
    if (swaps) {
      const stem = norm.slice(0, -ext.length);
      for (const s of swaps) if (this.files.has(stem + s)) return stem + s;
    }
    for (const e of EXTENSIONS) if (this.files.has(norm + e)) return norm + e;
    for (const e of EXTENSIONS) {
      const idx = `${norm}/index${e}`;
      if (this.files.has(idx)) return idx;
    }
    return this.links.size && hops < MAX_LINK_HOPS ? this.throughFolderLink(norm, hops) : null;
  }

  /**
   * A path under a symlinked folder (`shared/money` with `shared` → packages/core/src): the walk never
   * enters the link, so the file is only known by its real path, which is where the import lands.
   */
  private throughFolderLink(norm: string, hops: number): string | null {
    for (let slash = norm.lastIndexOf("/"); slash > 0; slash = norm.lastIndexOf("/", slash - 1)) {
      const target = this.links.get(norm.slice(0, slash));
      if (target === undefined) continue;
      return target === null ? null : this.probeNormal(target + norm.slice(slash), hops + 1);
    }
    return null;
  }

  private viaAliases(scope: TsconfigScope, spec: string): string | null {
    for (const a of scope.aliases) {
      const captured = aliasCapture(a, spec);
      if (captured === null) continue;
      for (const t of a.targets) {
        const hit = this.probeLinks(a.wildcard ? t.replace("*", captured) : t);
        if (hit) return hit;
      }
    }
    return null;
  }

  private viaWorkspace(spec: string): string | null {
    const ws = workspacePackageOf(this.layout, spec);
    if (!ws) return null;
    const { pkg, sub } = ws;
    if (!sub) {
      for (const e of pkg.entries) {
        const hit = this.probeLinks(e) ?? this.probeLinks(sourceOfBuiltEntry(e));
        if (hit) return hit;
      }
      return this.probeLinks(posix.join(pkg.dir, "src/index")) ?? this.probeLinks(posix.join(pkg.dir, "index"));
    }
    const exported = pkg.subpaths[`./${sub}`];
    if (exported) {
      const hit = this.probeLinks(exported);
      if (hit) return hit;
    }
    return this.probeLinks(posix.join(pkg.dir, sub)) ?? this.probeLinks(posix.join(pkg.dir, "src", sub));
  }

  /** The project file an import refers to, or null for external/builtin/unresolvable specifiers. */
  resolve(fromFile: string, spec: string): string | null {
    if (!spec || spec.startsWith("node:")) return null;
    if (spec.startsWith(".")) {
      const inDir = this.relativeFor(fromFile);
      let hit = inDir.get(spec);
      if (hit === undefined) {
        const norm = posix.join(dirOf(fromFile), spec);
        hit = this.throughLink(DECLARATION_FILE.test(fromFile) ? this.probeFromDeclaration(norm) : this.probeNormal(norm));
        inDir.set(spec, hit);
      }
      return hit;
    }
    if (spec.startsWith("/")) return null;
    const scope = this.scopeOf(dirOf(fromFile));
    let perScope = this.bareCache.get(scope);
    if (!perScope) this.bareCache.set(scope, (perScope = new Map()));
    let hit = perScope.get(spec);
    if (hit === undefined) perScope.set(spec, (hit = this.throughLink(this.resolveBare(scope, spec))));
    return hit;
  }

  private relativeFor(fromFile: string): Map<string, string | null> {
    let inDir = this.relativeByFile.get(fromFile);
    if (inDir) return inDir;
    // Declaration files resolve apart from the code beside them (probeFromDeclaration).
    const dir = DECLARATION_FILE.test(fromFile) ? `${dirOf(fromFile)}\0declarations` : dirOf(fromFile);
    inDir = this.relativeCache.get(dir);
    if (!inDir) this.relativeCache.set(dir, (inDir = new Map()));
    this.relativeByFile.set(fromFile, inDir);
    return inDir;
  }

  private resolveBare(scope: TsconfigScope | null, spec: string): string | null {
    if (scope) {
      const hit = this.viaAliases(scope, spec);
      if (hit) return hit;
    }
    const ws = this.viaWorkspace(spec);
    if (ws) return ws;
    if (scope?.baseUrl !== null && scope?.baseUrl !== undefined) return this.probeLinks(posix.join(scope.baseUrl, spec));
    return null;
  }
}
