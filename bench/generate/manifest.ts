// The manifest at the root of a generated tree: what the indexer should find there. It doubles as the
// marker that lets the generator wipe the folder on the next run.

import type { FileCategory, IgnoreReason, PlannedFile, PlannedSymlink } from "./model.js";

export const MANIFEST_FILE = ".ipuaro-bench.json";
export const GENERATOR_ID = "ipuaro-bench-generate";
export const MANIFEST_VERSION = 1;

export const INDEXABLE_CATEGORIES = ["ts", "tsx", "js", "json", "yaml"] as const satisfies readonly FileCategory[];

export interface FileStat {
  path: string;
  bytes: number;
  lines: number;
}

export interface BenchManifest {
  generator: typeof GENERATOR_ID;
  version: number;
  /** False while files are being written: a crash leaves a marker that still allows a clean re-run. */
  complete: boolean;
  seed: number;
  requestedFiles: number;
  /**
   * Regular files outside node_modules/ and dist/, the manifest itself excluded (the root .gitignore lists
   * it). Equals the sum of `categories`.
   */
  files: number;
  bytes: number;
  /** Partition of `files`. `ignored` = in-tree files an indexer should skip (see `paths.ignored`). */
  categories: Record<FileCategory | "ignored", number>;
  /** ts + tsx + js + json + yaml: files the indexer should parse. */
  indexable: number;
  indexableBytes: number;
  indexableLines: number;
  paths: {
    binary: string[];
    nonUtf8: string[];
    ignored: { path: string; reason: IgnoreReason }[];
    crlf: string[];
    bom: string[];
    empty: string[];
  };
  /** Files under node_modules/ and dist/ folders: never counted in `files`. */
  excluded: { nodeModules: number; dist: number; bytes: number };
  symlinks: { supported: boolean; entries: PlannedSymlink[] };
  bigFile: FileStat;
  largeFiles: FileStat[];
  workspaces: { name: string; dir: string; kind: "package" | "app"; files: number }[];
}

export function countLines(content: string | Uint8Array): number {
  if (typeof content !== "string") return 0;
  if (content.length === 0) return 0;
  let lines = 0;
  for (let i = content.indexOf("\n"); i !== -1; i = content.indexOf("\n", i + 1)) lines++;
  return content.endsWith("\n") ? lines : lines + 1;
}

export function buildManifest(input: {
  seed: number;
  requestedFiles: number;
  files: readonly PlannedFile[];
  stats: ReadonlyMap<string, FileStat>;
  symlinks: readonly PlannedSymlink[];
  symlinksSupported: boolean;
  workspaces: readonly { name: string; dir: string; kind: "package" | "app" }[];
}): BenchManifest {
  const categories: BenchManifest["categories"] = { ts: 0, tsx: 0, js: 0, json: 0, yaml: 0, other: 0, binary: 0, nonUtf8: 0, ignored: 0 };
  const paths: BenchManifest["paths"] = { binary: [], nonUtf8: [], ignored: [], crlf: [], bom: [], empty: [] };
  const excluded = { nodeModules: 0, dist: 0, bytes: 0 };
  const indexable = new Set<FileCategory>(INDEXABLE_CATEGORIES);
  const perWorkspace = new Map<string, number>();
  let files = 0;
  let bytes = 0;
  let indexableCount = 0;
  let indexableBytes = 0;
  let indexableLines = 0;
  let bigFile: FileStat | undefined;
  const largeFiles: FileStat[] = [];

  for (const file of input.files) {
    const stat = input.stats.get(file.path);
    if (!stat) throw new Error(`no stat for ${file.path}`);
    if (file.excludedArea) {
      if (file.excludedArea === "node_modules") excluded.nodeModules++;
      else excluded.dist++;
      excluded.bytes += stat.bytes;
      continue;
    }
    files++;
    bytes += stat.bytes;
    const owner = input.workspaces.find((w) => file.path.startsWith(`${w.dir}/`));
    if (owner) perWorkspace.set(owner.dir, (perWorkspace.get(owner.dir) ?? 0) + 1);
    if (file.ignoredBy) {
      categories.ignored++;
      paths.ignored.push({ path: file.path, reason: file.ignoredBy });
      continue;
    }
    categories[file.category]++;
    if (file.category === "binary") paths.binary.push(file.path);
    if (file.category === "nonUtf8") paths.nonUtf8.push(file.path);
    if (file.quirk) paths[file.quirk].push(file.path);
    if (indexable.has(file.category)) {
      indexableCount++;
      indexableBytes += stat.bytes;
      indexableLines += stat.lines;
    }
    if (file.big) bigFile = stat;
    if (file.large) largeFiles.push(stat);
  }
  if (!bigFile) throw new Error("plan has no big file");

  return {
    generator: GENERATOR_ID,
    version: MANIFEST_VERSION,
    complete: true,
    seed: input.seed,
    requestedFiles: input.requestedFiles,
    files,
    bytes,
    categories,
    indexable: indexableCount,
    indexableBytes,
    indexableLines,
    paths,
    excluded,
    symlinks: { supported: input.symlinksSupported, entries: input.symlinksSupported ? [...input.symlinks] : [] },
    bigFile,
    largeFiles,
    workspaces: input.workspaces.map((w) => ({ name: w.name, dir: w.dir, kind: w.kind, files: perWorkspace.get(w.dir) ?? 0 })),
  };
}
