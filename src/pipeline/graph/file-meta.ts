// A file's FileMeta (seed 000): complexity, dependencies, dependents, hub, entry point. The cold index
// writes ~11K of them in its serial tail, after the last file arrives (dependents need every file), so
// the streaming graph builds each file's JSON text up to `dependents` as the file arrives and the tail
// only appends the rest.
import type { ComplexityScore, FileMeta } from "../../workers/ast-types.js";

/** A file with more dependents than this is a hub (seed 000). */
export const HUB_DEPENDENTS_THRESHOLD = 5;
const ENTRY_BASENAMES = new Set(["index", "main", "app", "server", "cli"]);
const TEST_FILE = /(^|\/)(__tests__\/|[^/]*\.(test|spec)\.[cm]?[jt]sx?$)/;
const CODE_FILE = /\.[cm]?[jt]sx?$/;

function isEntryPointPath(p: string, packageEntries: ReadonlySet<string>): boolean {
  if (packageEntries.has(p)) return true;
  // The file name without its last extension (the cold index asks this for every file in its serial end).
  const slash = p.lastIndexOf("/");
  const dot = p.lastIndexOf(".");
  const stem = dot > slash ? p.slice(slash + 1, dot) : p.slice(slash + 1);
  return ENTRY_BASENAMES.has(stem) && CODE_FILE.test(p);
}

/** Seed 000: an entry point is index/main-like or named by a package.json, or a code file nothing imports. */
function isEntryPoint(p: string, dependentCount: number, entries: ReadonlySet<string>): boolean {
  return isEntryPointPath(p, entries) || (dependentCount === 0 && CODE_FILE.test(p) && !TEST_FILE.test(p));
}

export function buildMeta(p: string, complexity: ComplexityScore, deps: string[], dependents: string[], entries: ReadonlySet<string>): FileMeta {
  return {
    complexity,
    dependencies: deps,
    dependents,
    isHub: dependents.length > HUB_DEPENDENTS_THRESHOLD,
    isEntryPoint: isEntryPoint(p, dependents.length, entries),
  };
}

/** The start of JSON.stringify(buildMeta(…)): everything before `dependents`. */
export function metaJsonHead(complexity: ComplexityScore, depsJson: string): string {
  return `{"complexity":${JSON.stringify(complexity)},"dependencies":${depsJson}`;
}

/** The text JSON.stringify(buildMeta(…)) gives, from metaJsonHead and the sorted dependents. */
export function metaJson(head: string, p: string, dependents: string[], entries: ReadonlySet<string>): string {
  const hub = dependents.length > HUB_DEPENDENTS_THRESHOLD;
  return `${head},"dependents":${JSON.stringify(dependents)},"isHub":${hub},"isEntryPoint":${isEntryPoint(p, dependents.length, entries)}}`;
}
