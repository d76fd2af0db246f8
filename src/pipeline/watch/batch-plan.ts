// Turns one window of coalesced events into work: which paths to re-read (by hash: an event says they
// changed), which folders to sweep (a folder appeared, or its .gitignore changed), and which indexed
// paths leave the index without a read (now ignored, or inside a folder that is gone).
import fs from "node:fs";
import path from "node:path";
import { TimeSlicer } from "../graph/time-slicer.js";
import type { KnownFileState } from "../../workers/protocol.js";
import { entryKindOf, isIndexedEntry } from "../file-kinds.js";
import type { IgnoreRules } from "../ignore-rules.js";
import type { PendingChange } from "./event-coalescer.js";
import { hasSubfolders, walkFolder } from "./tree-walk.js";

/** Files whose change can alter the project layout (tsconfig paths, workspace packages). */
export const LAYOUT_FILE = /^(tsconfig(\.[^/]*)?\.json|jsconfig\.json|package\.json)$/;

export interface PlanContext {
  root: string;
  rules: IgnoreRules;
  binaryExtensions: ReadonlySet<string>;
  known: ReadonlyMap<string, KnownFileState>;
  /** Called before folders are walked with the new ones that hold subfolders the OS watcher cannot see yet. */
  watchFolders?: (rels: string[]) => Promise<void>;
  /** The project's ignorePatterns as its config says now (null: unreadable, keep the old ones). */
  projectPatterns?: () => string[] | null;
  /** Compare the whole tree with the index by size and mtime: events of a burst may have been lost. */
  reconcile?: boolean;
}

/** The project's own config file, at the root. */
export const PROJECT_CONFIG = ".ipuaro.json";

export interface BatchPlan {
  /** Re-read and re-hash: the events name them. */
  check: Set<string>;
  /** Found by a folder sweep: re-read only when size or mtime differ from the index. */
  sweep: Set<string>;
  /** Indexed paths to drop without reading them. */
  drop: Map<string, "deleted" | "ignored">;
  layoutTouched: boolean;
  gitignoreChanged: boolean;
  /** Folders that appeared with subfolders and got a subscription of their own. */
  watchedFolders: string[];
  /** Some path of the batch is gone: subscriptions of vanished folders can be dropped. */
  somethingGone: boolean;
  /** The project's ignorePatterns changed (the rules took them; the whole tree is swept). */
  patternsChanged: boolean;
  /** Paths of `check` of LARGE_FILE_BYTES or more (the updater parses them beside its batches). */
  large: Set<string>;
}

/** From this size a file's parse takes a second or more (≈ 3 MB/s per worker here). */
export const LARGE_FILE_BYTES = 2 * 1024 * 1024;

const dirOf = (p: string) => {
  const i = p.lastIndexOf("/");
  return i === -1 ? "" : p.slice(0, i);
};

function lstat(abs: string): fs.Stats | null {
  try {
    return fs.lstatSync(abs);
  } catch {
    return null;
  }
}

/** Indexed paths under any of the folders, in one pass over the index. */
function knownUnder(known: ReadonlyMap<string, KnownFileState>, folders: ReadonlySet<string>): string[] {
  if (!folders.size) return [];
  if (folders.has("")) return [...known.keys()];
  const out: string[] = [];
  for (const p of known.keys()) {
    for (let i = p.indexOf("/"); i !== -1; i = p.indexOf("/", i + 1)) {
      if (folders.has(p.slice(0, i))) {
        out.push(p);
        break;
      }
    }
  }
  return out;
}

/**
 * The whole tree against the index, without events: files the index lacks or holds with another size or
 * mtime are read, indexed files not found are checked (a read confirms them gone). The stats are taken
 * here, so a tree of 12K files costs a walk and 12K lstat calls (~0.2 s, in time slices), not 12K worker
 * records.
 */
async function planReconcile(ctx: PlanContext, plan: BatchPlan): Promise<void> {
  const { root, rules, known } = ctx;
  const found = new Set(await walkFolder(root, "", rules, ctx.binaryExtensions));
  const slicer = new TimeSlicer();
  for (const p of found) {
    if (slicer.due()) await slicer.yield();
    if (plan.check.has(p) || plan.sweep.has(p)) continue;
    const k = known.get(p);
    const st = k ? lstat(path.join(root, p)) : null;
    // Symlinks go to the workers, which compare their targets.
    if (!k || !st || st.isSymbolicLink() || st.size !== k.size || Math.floor(st.mtimeMs) !== k.mtimeMs) plan.sweep.add(p);
  }
  for (const p of [...known.keys()]) {
    if (slicer.due()) await slicer.yield();
    if (found.has(p) || plan.drop.has(p) || plan.check.has(p)) continue;
    // Left out by the walk: ignored now if it is still there, else a read confirms it is gone.
    if (rules.isIgnored(p, false) && lstat(path.join(root, p))) plan.drop.set(p, "ignored");
    else plan.check.add(p);
    plan.somethingGone = true;
  }
}

export async function planBatch(ctx: PlanContext, changes: ReadonlyMap<string, PendingChange>): Promise<BatchPlan> {
  const { rules, known } = ctx;
  const plan: BatchPlan = { check: new Set(), sweep: new Set(), drop: new Map(), layoutTouched: false, gitignoreChanged: false, watchedFolders: [], somethingGone: false, patternsChanged: false, large: new Set() };
  const sweepFolders = new Set<string>();
  // The project's ignorePatterns and every .gitignore first: every other path is judged by the current rules.
  if (changes.has(PROJECT_CONFIG) && ctx.projectPatterns) {
    const patterns = ctx.projectPatterns();
    if (patterns && rules.setPatterns(patterns)) {
      sweepFolders.add("");
      plan.gitignoreChanged = true;
      plan.patternsChanged = true;
    }
  }
  for (const p of changes.keys()) {
    if (path.posix.basename(p) !== ".gitignore") continue;
    rules.invalidate(dirOf(p));
    sweepFolders.add(dirOf(p));
    plan.gitignoreChanged = true;
  }
  /** Paths that are no folder now: any indexed files under them went with the folder that was there. */
  const notFolders = new Set<string>();
  // A restored package is a thousand paths, each looked at on disk: the event loop turns between slices.
  const slicer = new TimeSlicer();
  for (const [p, change] of changes) {
    if (slicer.due()) await slicer.yield();
    const base = path.posix.basename(p);
    if (base === ".gitignore") continue;
    if (LAYOUT_FILE.test(base)) plan.layoutTouched = true;
    // Every path is looked at, not judged by its name: `chart.js` or `three.js` can be a folder.
    const st = lstat(path.join(ctx.root, p));
    if (st?.isDirectory()) {
      // A new folder, or one that took the place of an indexed file (read below, and found gone).
      if (!rules.isIgnored(p, true)) {
        sweepFolders.add(p);
        if (change.kind !== "delete" && hasSubfolders(ctx.root, p, rules)) plan.watchedFolders.push(p);
      }
    } else {
      // An indexed file has no indexed files under it; any other path may be where a folder was.
      if (!known.has(p)) notFolders.add(p);
      if (!st) plan.somethingGone = true;
    }
    if (known.has(p)) {
      if (rules.isIgnored(p, false)) plan.drop.set(p, "ignored");
      else plan.check.add(p);
    } else if (st && isIndexedEntry(p, entryKindOf(st), rules, ctx.binaryExtensions)) {
      plan.check.add(p);
    }
    if (st?.isFile() && st.size >= LARGE_FILE_BYTES && plan.check.has(p)) plan.large.add(p);
  }
  if (plan.watchedFolders.length && ctx.watchFolders) {
    // Watched before they are listed, so nothing written into their subfolders from now on is missed.
    await ctx.watchFolders(plan.watchedFolders);
  }
  // Dropped without a read: through a symlink now at the folder's path a read would find the moved
  // folder's files and index them again.
  for (const p of knownUnder(known, notFolders)) {
    if (plan.drop.has(p)) continue;
    plan.drop.set(p, "deleted");
    plan.check.delete(p);
    plan.somethingGone = true;
  }
  if (sweepFolders.size) {
    const found = new Set<string>();
    for (const folder of sweepFolders) for (const p of await walkFolder(ctx.root, folder, rules, ctx.binaryExtensions)) found.add(p);
    for (const p of found) if (!plan.check.has(p)) plan.sweep.add(p);
    for (const p of knownUnder(known, sweepFolders)) {
      if (found.has(p) || plan.drop.has(p)) continue;
      // Indexed, but the sweep left it out: ignored now if it is still there, else let a read confirm it is gone.
      if (rules.isIgnored(p, false) && lstat(path.join(ctx.root, p))) {
        plan.drop.set(p, "ignored");
        plan.check.delete(p);
      } else plan.check.add(p);
    }
  }
  if (ctx.reconcile) await planReconcile(ctx, plan);
  // A package.json or tsconfig that came or went with a folder (a workspace package moved or renamed)
  // changes the layout as much as an edit of one does.
  if (!plan.layoutTouched) plan.layoutTouched = [...plan.check, ...plan.sweep, ...plan.drop.keys()].some((p) => LAYOUT_FILE.test(path.posix.basename(p)));
  return plan;
}
