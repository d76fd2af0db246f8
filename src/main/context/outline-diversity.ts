// PageRank alone crowds the outlines of a monorepo into one package: the most imported barrel passes
// its rank on to its sub-barrels and their files, so on a 12K-file repository 82 of the top 100 files
// were in packages/utils, and the apps' own entry files (main.ts, main.tsx, bin/) ranked past 1,500.
// This re-orders the ranking so each workspace (a folder with its own package.json) gets its turn:
// the k-th file of a workspace keeps the k-th best score of that workspace, damped by DECAY^k, and a
// workspace's runnable entry files (main/index/app/server/cli or bin/, imported by nothing) come first
// in it. Files the conversation names stay pinned on top, in their order.
import type { FileMeta } from "../../workers/ast-types.js";
import type { RankedFile } from "./repo-ranking.js";

/** Damping per earlier file of the same workspace when the conversation names nothing. */
export const WORKSPACE_DECAY = 0.5;
/** Weaker when the conversation points somewhere: its focus should mostly stay. */
export const WORKSPACE_DECAY_FOCUSED = 0.85;
/** Runnable entry files moved to the head of their workspace. */
const MAX_HEAD_ENTRIES = 2;

const CODE_FILE = /\.[cm]?[jt]sx?$/;
const ENTRY_STEMS = new Set(["main", "index", "app", "server", "cli"]);
const TEST_FILE = /(^|\/)(__tests__|__mocks__|fixtures?|test|tests)\/|\.(test|spec|stories)\.[cm]?[jt]sx?$/;

/** Folders holding a package.json other than the root's, deepest first. */
export function workspaceRoots(allPaths: readonly string[]): string[] {
  const roots: string[] = [];
  for (const p of allPaths) {
    if (!p.endsWith("/package.json")) continue;
    const dir = p.slice(0, -"/package.json".length);
    if (!dir.includes("node_modules") && !TEST_FILE.test(`${dir}/`)) roots.push(dir);
  }
  return roots.sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

/** The workspace of a file, or null when it sits in none. */
export function workspaceOf(filePath: string, roots: readonly string[]): string | null {
  for (const r of roots) if (filePath.startsWith(`${r}/`)) return r;
  return null;
}

/** A file that starts a program or a package rather than serving others: nothing imports it. */
export function isRunnableEntry(filePath: string, meta: FileMeta | undefined): boolean {
  if (!meta?.isEntryPoint || meta.dependents.length > 0 || !CODE_FILE.test(filePath) || TEST_FILE.test(filePath)) return false;
  if (meta.complexity.generated) return false;
  const name = filePath.slice(filePath.lastIndexOf("/") + 1);
  const stem = name.slice(0, name.indexOf(".") < 0 ? name.length : name.indexOf("."));
  return ENTRY_STEMS.has(stem.toLowerCase()) || /(^|\/)bin\/[^/]+$/.test(filePath);
}

export interface DiversifyOptions {
  allPaths: readonly string[];
  meta: ReadonlyMap<string, FileMeta>;
  /** The conversation names files, symbols or recent changes: use the weaker damping. */
  focused: boolean;
}

/**
 * The ranking with workspaces interleaved. Unchanged when the project has fewer than two workspaces
 * (a single package: its folders are not rivals). Pinned files stay first; the order is deterministic.
 */
export function diversifyByWorkspace(files: readonly RankedFile[], opts: DiversifyOptions): RankedFile[] {
  const roots = workspaceRoots(opts.allPaths);
  if (roots.length < 2) return [...files];
  const decay = opts.focused ? WORKSPACE_DECAY_FOCUSED : WORKSPACE_DECAY;
  const pinned = files.filter((f) => f.pinned);
  const groups = new Map<string, RankedFile[]>();
  for (const f of files) {
    if (f.pinned) continue;
    // Files outside any workspace (root scripts, deploy/, docs/) compete per top-level folder.
    const key = workspaceOf(f.path, roots) ?? `\0${f.path.includes("/") ? f.path.slice(0, f.path.indexOf("/")) : "."}`;
    const group = groups.get(key);
    if (group) group.push(f);
    else groups.set(key, [f]);
  }
  const rankOf = new Map(files.map((f, i) => [f.path, i]));
  const keyed: { file: RankedFile; key: number }[] = [];
  for (const group of groups.values()) {
    // `files` is already in score order, so each group is too: its scores are the slot values.
    // The shallowest first: apps/web/src/main.tsx starts the app, apps/web/src/components/X/index.ts
    // is a barrel nothing happens to import.
    const depth = (p: string) => p.split("/").length;
    const heads = group
      .filter((f) => isRunnableEntry(f.path, opts.meta.get(f.path)))
      .map((f, i) => ({ f, i }))
      .sort((a, b) => depth(a.f.path) - depth(b.f.path) || a.i - b.i)
      .slice(0, MAX_HEAD_ENTRIES)
      .map((h) => h.f);
    const headSet = new Set(heads);
    const order = [...heads, ...group.filter((f) => !headSet.has(f))];
    let damp = 1;
    for (let k = 0; k < order.length; k++) {
      keyed.push({ file: order[k]!, key: group[k]!.score * damp });
      damp *= decay;
    }
  }
  // Equal keys (far down, where the damping reaches 0) keep the PageRank order.
  keyed.sort((a, b) => b.key - a.key || rankOf.get(a.file.path)! - rankOf.get(b.file.path)!);
  return [...pinned, ...keyed.map((k) => k.file)];
}
