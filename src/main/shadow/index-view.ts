// What analytics take from the code index: each file's complexity and its import edges (meta), and the
// module a path belongs to.
import type { FileMeta } from "../../workers/ast-types.js";
import { isCodePath } from "../../workers/extract/index.js";
import type { ProjectStore } from "../store/project-store.js";

export interface IndexView {
  metas: Map<string, FileMeta>;
  /** Highest complexity score of the project's hand-written code files (normalises a file's own). */
  maxComplexity: number;
}

export async function loadIndexView(store: ProjectStore): Promise<IndexView> {
  return indexViewOf(await store.getAllMeta());
}

export function indexViewOf(metas: Map<string, FileMeta>): IndexView {
  let maxComplexity = 0;
  for (const [p, m] of metas) if (!m.complexity?.generated && isCodePath(p)) maxComplexity = Math.max(maxComplexity, m.complexity?.score ?? 0);
  return { metas, maxComplexity };
}

/**
 * A file's complexity relative to the project's most complex file, 0–1 (0 when not indexed or generated,
 * and for data: a deeply nested tsconfig.json is not complex code).
 */
export function relativeComplexity(view: IndexView, file: string): number {
  const complexity = view.metas.get(file)?.complexity;
  const score = complexity && !complexity.generated && isCodePath(file) ? complexity.score : 0;
  return view.maxComplexity > 0 ? Math.min(1, score / view.maxComplexity) : 0;
}

/** Containers whose children are the modules (monorepo workspaces, source roots). */
const CONTAINERS = new Set(["src", "packages", "apps", "libs", "lib", "modules", "services"]);

/**
 * The first-level module of a path: `src/auth/session.ts` → `src/auth`, `packages/api/src/x.ts` →
 * `packages/api`, `scripts/build.ts` → `scripts`, a file at the root → `.`.
 */
export function moduleOf(path: string): string {
  const parts = path.split("/");
  if (parts.length === 1) return ".";
  if (CONTAINERS.has(parts[0]!) && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts[0]!;
}

/** Whether a target names a folder of the index (some indexed path lies under it). */
export function isIndexedFolder(view: IndexView, target: string): boolean {
  const prefix = target.endsWith("/") ? target : `${target}/`;
  for (const p of view.metas.keys()) if (p.startsWith(prefix)) return true;
  return false;
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
