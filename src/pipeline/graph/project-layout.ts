// What the resolver needs to know about the project beyond its file list: tsconfig `baseUrl`/`paths`
// (nearest tsconfig per folder, following `extends`) and the monorepo's workspace packages.
import fs from "node:fs";
import path from "node:path";
import type { InternalSpecifiers } from "../../workers/protocol.js";
import { parseJsonc } from "./jsonc.js";

export interface PathAlias {
  /** Pattern as written in `paths`, e.g. `@acme/core/*`. */
  pattern: string;
  prefix: string;
  suffix: string;
  wildcard: boolean;
  /** Targets relative to the project root, `*` kept. */
  targets: string[];
}

export interface TsconfigScope {
  /** Folder of the tsconfig, relative to the root ("" = root). */
  dir: string;
  /** baseUrl relative to the root, or null. */
  baseUrl: string | null;
  aliases: PathAlias[];
}

export interface WorkspacePackage {
  name: string;
  /** Folder relative to the root. */
  dir: string;
  /** Entry files named by package.json (main, module, types, source, exports["."]), relative to the root. */
  entries: string[];
  /** Subpath exports: "./utils" → file relative to root (wildcards kept). */
  subpaths: Record<string, string>;
  bin: string[];
}

export interface ProjectLayout {
  scopes: Map<string, TsconfigScope>;
  packages: Map<string, WorkspacePackage>;
}

const posix = path.posix;

function readJsonFile(abs: string): Record<string, unknown> | null {
  try {
    const v = parseJsonc(fs.readFileSync(abs, "utf8"));
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

interface RawCompilerPaths {
  baseUrl?: string;
  paths?: Record<string, string[]>;
  /** Folder (relative to root) the values above are relative to. */
  from: string;
}

function loadTsconfigChain(root: string, relFile: string, depth = 0): RawCompilerPaths[] {
  if (depth > 10) return [];
  const json = readJsonFile(path.join(root, relFile));
  if (!json) return [];
  const dir = posix.dirname(relFile) === "." ? "" : posix.dirname(relFile);
  const chain: RawCompilerPaths[] = [];
  const ext = json.extends;
  for (const e of Array.isArray(ext) ? ext : ext ? [ext] : []) {
    if (typeof e !== "string" || !e.startsWith(".")) continue; // package-based extends carry no project paths
    let target = posix.normalize(posix.join(dir, e));
    if (!target.endsWith(".json")) target += ".json";
    chain.push(...loadTsconfigChain(root, target, depth + 1));
  }
  const co = (json.compilerOptions ?? {}) as Record<string, unknown>;
  chain.push({
    baseUrl: typeof co.baseUrl === "string" ? co.baseUrl : undefined,
    paths: co.paths && typeof co.paths === "object" ? (co.paths as Record<string, string[]>) : undefined,
    from: dir,
  });
  return chain;
}

function scopeFor(root: string, relFile: string): TsconfigScope {
  const dir = posix.dirname(relFile) === "." ? "" : posix.dirname(relFile);
  let baseUrl: string | null = null;
  let paths: Record<string, string[]> | undefined;
  let pathsFrom = "";
  for (const layer of loadTsconfigChain(root, relFile)) {
    if (layer.baseUrl !== undefined) baseUrl = posix.normalize(posix.join(layer.from, layer.baseUrl));
    if (layer.paths) {
      paths = layer.paths;
      pathsFrom = layer.from;
    }
  }
  const aliases: PathAlias[] = [];
  // `paths` are relative to baseUrl when set, else to the tsconfig that declared them.
  const pathsBase = baseUrl ?? pathsFrom;
  for (const [pattern, targets] of Object.entries(paths ?? {})) {
    if (!Array.isArray(targets)) continue;
    const star = pattern.indexOf("*");
    aliases.push({
      pattern,
      prefix: star === -1 ? pattern : pattern.slice(0, star),
      suffix: star === -1 ? "" : pattern.slice(star + 1),
      wildcard: star !== -1,
      targets: targets.filter((t) => typeof t === "string").map((t) => posix.normalize(posix.join(pathsBase, t))),
    });
  }
  // Longest prefix first, as TypeScript prefers the most specific pattern.
  aliases.sort((a, b) => b.prefix.length - a.prefix.length);
  return { dir, baseUrl: baseUrl === "." ? "" : baseUrl, aliases };
}

function exportTargets(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(exportTargets);
  if (value && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    // Prefer source-ish conditions; every string found is a candidate.
    const order = ["source", "types", "import", "module", "require", "node", "default"];
    const keys = [...order.filter((k) => k in obj), ...Object.keys(obj).filter((k) => !order.includes(k))];
    return keys.flatMap((k) => exportTargets(obj[k]));
  }
  return [];
}

function workspacePackage(root: string, relFile: string): WorkspacePackage | null {
  const json = readJsonFile(path.join(root, relFile));
  if (!json || typeof json.name !== "string") return null;
  const dir = posix.dirname(relFile) === "." ? "" : posix.dirname(relFile);
  const rel = (p: string) => posix.normalize(posix.join(dir, p));
  const entries: string[] = [];
  for (const field of ["source", "types", "typings", "module", "main"]) {
    if (typeof json[field] === "string") entries.push(rel(json[field] as string));
  }
  const subpaths: Record<string, string> = {};
  const exp = json.exports;
  if (typeof exp === "string" || Array.isArray(exp)) entries.push(...exportTargets(exp).map(rel));
  else if (exp && typeof exp === "object") {
    const obj = exp as Record<string, unknown>;
    const isSubpathMap = Object.keys(obj).some((k) => k.startsWith("."));
    if (!isSubpathMap) entries.push(...exportTargets(obj).map(rel));
    else
      for (const [k, v] of Object.entries(obj)) {
        const targets = exportTargets(v);
        if (!targets.length) continue;
        if (k === ".") entries.push(...targets.map(rel));
        else subpaths[k] = rel(targets[0] as string);
      }
  }
  const bin: string[] = [];
  if (typeof json.bin === "string") bin.push(rel(json.bin));
  else if (json.bin && typeof json.bin === "object") for (const v of Object.values(json.bin)) if (typeof v === "string") bin.push(rel(v));
  return { name: json.name, dir, entries, subpaths, bin };
}

/**
 * Two package.json files with one name (a package folder copied, fixtures): the shallower folder wins,
 * then the first by name, so the choice never depends on the order files were listed (a walk, or Redis
 * hash order for the watcher) and a live index resolves as a fresh one does.
 */
function preferredPackageDir(dir: string, than: string): boolean {
  const depth = (d: string) => (d === "" ? 0 : d.split("/").length);
  return depth(dir) !== depth(than) ? depth(dir) < depth(than) : dir < than;
}

/** Reads the layout from the tsconfig*.json and package.json files among the project's files. */
export function loadProjectLayout(root: string, files: Iterable<string>): ProjectLayout {
  const scopes = new Map<string, TsconfigScope>();
  const packages = new Map<string, WorkspacePackage>();
  for (const f of files) {
    const base = posix.basename(f);
    if (base === "tsconfig.json") {
      const scope = scopeFor(root, f);
      scopes.set(scope.dir, scope);
    } else if (base === "package.json") {
      const pkg = workspacePackage(root, f);
      const seen = pkg ? packages.get(pkg.name) : undefined;
      if (pkg && (!seen || preferredPackageDir(pkg.dir, seen.dir))) packages.set(pkg.name, pkg);
    }
  }
  return { scopes, packages };
}

/** Specifiers the workers should type as internal though they are not relative (aliases, workspace names). */
export function internalSpecifierMatchers(layout: ProjectLayout): InternalSpecifiers {
  const exact = new Set<string>();
  const prefixes = new Set<string>();
  for (const name of layout.packages.keys()) {
    exact.add(name);
    prefixes.add(`${name}/`);
  }
  for (const scope of layout.scopes.values())
    for (const a of scope.aliases) (a.wildcard ? prefixes : exact).add(a.wildcard ? a.prefix : a.pattern);
  return { exact: [...exact], prefixes: [...prefixes].filter((p) => p.length > 0) };
}

export function sameSpecifiers(a: InternalSpecifiers, b: InternalSpecifiers): boolean {
  const same = (x: string[], y: string[]) => x.length === y.length && new Set([...x, ...y]).size === x.length;
  return same(a.exact, b.exact) && same(a.prefixes, b.prefixes);
}

/** Workspace folders (`packages/*`, `apps/**`) expanded at most this deep below a `**`. */
const MAX_GLOB_DEPTH = 3;

/** Workspace globs from package.json `workspaces` (array or `{packages}`) and pnpm-workspace.yaml. */
function workspaceGlobs(root: string): string[] {
  const pkg = readJsonFile(path.join(root, "package.json"));
  const ws = pkg?.workspaces;
  const list = Array.isArray(ws) ? ws : ws && typeof ws === "object" ? (ws as { packages?: unknown }).packages : undefined;
  const globs = Array.isArray(list) ? list.filter((g): g is string => typeof g === "string") : [];
  try {
    // Only the `packages:` list of simple items; anything fancier is found by the walk anyway.
    const yaml = fs.readFileSync(path.join(root, "pnpm-workspace.yaml"), "utf8");
    let inPackages = false;
    for (const line of yaml.split(/\r?\n/)) {
      if (/^packages:\s*$/.test(line)) inPackages = true;
      else if (/^\S/.test(line)) inPackages = false;
      else if (inPackages) {
        const item = /^\s*-\s*["']?([^"'#]+?)["']?\s*(#.*)?$/.exec(line);
        if (item?.[1]) globs.push(item[1]);
      }
    }
  } catch {
    // No pnpm workspace.
  }
  return globs.filter((g) => !g.startsWith("!"));
}

function childDirs(root: string, rel: string): string[] {
  try {
    return fs
      .readdirSync(path.join(root, rel), { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== "node_modules" && !d.name.startsWith("."))
      .map((d) => (rel ? `${rel}/${d.name}` : d.name));
  } catch {
    return [];
  }
}

function expandGlob(root: string, glob: string): string[] {
  let dirs = [""];
  for (const part of glob.replace(/^\.\//, "").replace(/\/+$/, "").split("/")) {
    if (part === "**") {
      const all = new Set(dirs);
      let level = dirs;
      for (let depth = 0; depth < MAX_GLOB_DEPTH; depth++) {
        level = level.flatMap((d) => childDirs(root, d));
        level.forEach((d) => all.add(d));
      }
      dirs = [...all];
    } else if (part.includes("*")) {
      const re = new RegExp(`^${part.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`);
      dirs = dirs.flatMap((d) => childDirs(root, d).filter((c) => re.test(posix.basename(c))));
    } else dirs = dirs.map((d) => (d ? `${d}/${part}` : part));
  }
  return dirs;
}

/**
 * The folders the root package.json's `workspaces` and pnpm-workspace.yaml name (project-relative),
 * found on disk without following symlinks; the workspace packages' manifests are there.
 */
export function workspaceFolders(root: string): string[] {
  const out = new Set<string>();
  for (const glob of workspaceGlobs(root)) {
    if (glob.startsWith("/") || glob.split("/").includes("..")) continue; // not the project's
    for (const dir of expandGlob(root, glob)) if (dir) out.add(dir);
  }
  return [...out];
}

/**
 * The layout as the root package.json, its workspaces and their tsconfig files describe it, read before
 * the walk so files can be parsed while it runs. The walk's own layout is the truth: the index pipeline
 * compares the two when the walk ends and parses again the few files they would type differently.
 */
export function predictProjectLayout(root: string): ProjectLayout {
  const candidates = ["package.json", "tsconfig.json"];
  for (const dir of workspaceFolders(root)) candidates.push(`${dir}/package.json`, `${dir}/tsconfig.json`);
  return loadProjectLayout(
    root,
    candidates.filter((f) => fs.existsSync(path.join(root, f))),
  );
}
