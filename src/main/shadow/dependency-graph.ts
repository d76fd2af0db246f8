// dependency_graph (seed 001 §2.f): what a file or module imports, what imports it (from the index),
// what it changes together with (git) and where errors followed its changes (events), 1–3 levels deep.
import type { ShadowHistory } from "./change-history.js";
import { coChangesOf, targetMatcher, type CoChange } from "./co-change.js";
import type { IndexView } from "./index-view.js";

export const LIST_CAP = 50;
export const CO_CHANGES_SHOWN = 10;

export interface Reached {
  file: string;
  depth: number;
}

export interface DependencyGraphResult {
  root: string;
  kind: "file" | "module";
  imports: string[];
  imported_by: string[];
  co_changed_with: CoChange[];
  causes_bugs_in: Array<{ file: string; count: number }>;
  depth: number;
  /** Levels 2..depth, when depth > 1. */
  transitive?: { imports: Reached[]; imported_by: Reached[] };
  total_dependents: number;
  total_dependencies: number;
}

/** Breadth-first over one edge direction; the targets themselves are never reached. */
function walk(targets: Set<string>, depth: number, next: (file: string) => readonly string[]): Reached[] {
  const seen = new Map<string, number>();
  let frontier = [...targets];
  for (let level = 1; level <= depth && frontier.length; level++) {
    const found: string[] = [];
    for (const f of frontier) {
      for (const n of next(f)) {
        if (targets.has(n) || seen.has(n)) continue;
        seen.set(n, level);
        found.push(n);
      }
    }
    frontier = found.sort();
  }
  return [...seen].map(([file, d]) => ({ file, depth: d })).sort((a, b) => a.depth - b.depth || a.file.localeCompare(b.file));
}

/** null when the target has no edges of any kind. */
export function dependencyGraph(h: ShadowHistory, view: IndexView, target: string, isFolder: boolean, depth: number): DependencyGraphResult | null {
  const matches = targetMatcher(target, isFolder);
  const targets = new Set([...view.metas.keys()].filter(matches));
  if (!isFolder) targets.add(target);
  const imports = walk(targets, depth, (f) => view.metas.get(f)?.dependencies ?? []);
  const importedBy = walk(targets, depth, (f) => view.metas.get(f)?.dependents ?? []);
  const bugs = new Map<string, number>();
  for (const [from, to] of h.causesBugsIn) {
    if (!matches(from)) continue;
    for (const [file, n] of to) if (!matches(file)) bugs.set(file, (bugs.get(file) ?? 0) + n);
  }
  const coChanged = coChangesOf(h, matches).slice(0, CO_CHANGES_SHOWN);
  const causes = [...bugs].map(([file, count]) => ({ file, count })).sort((a, b) => b.count - a.count || a.file.localeCompare(b.file));
  if (!imports.length && !importedBy.length && !coChanged.length && !causes.length) return null;
  const level1 = (list: Reached[]) => list.filter((r) => r.depth === 1).map((r) => r.file).slice(0, LIST_CAP);
  return {
    root: target,
    kind: isFolder ? "module" : "file",
    imports: level1(imports),
    imported_by: level1(importedBy),
    co_changed_with: coChanged,
    causes_bugs_in: causes.slice(0, LIST_CAP),
    depth,
    ...(depth > 1
      ? { transitive: { imports: imports.filter((r) => r.depth > 1).slice(0, LIST_CAP), imported_by: importedBy.filter((r) => r.depth > 1).slice(0, LIST_CAP) } }
      : {}),
    total_dependents: importedBy.length,
    total_dependencies: imports.length,
  };
}
