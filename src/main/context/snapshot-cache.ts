// Parsed index data kept between context builds in one process. Reading and parsing every file's meta
// is most of a cold build on a big repository; a session builds the context again and again while the
// index rarely changes. Validity is checked on every build against the `stat` hash (one small value
// per file, rewritten together with a file's AST) and `last_indexed`, so a watcher's single-file update
// is seen too.
import type { ContextStore, ProjectSnapshot } from "./project-snapshot.js";
import { loadSnapshot } from "./project-snapshot.js";

/** Projects whose snapshot is kept. */
const CACHED_PROJECTS = 4;
const STAT_SCAN_COUNT = 5000;

interface Entry {
  snapshot: ProjectSnapshot;
  stats: Map<string, string>;
  lastIndexed: string | null;
  /**
   * false right after the index was seen changing: a watcher writes a file's records first and the
   * graph (meta) just after, so a snapshot read in between may hold the old meta. The next build with
   * the same stats reads meta once more and settles.
   */
  settled: boolean;
}

async function readStats(store: ContextStore): Promise<Map<string, string>> {
  const stats = new Map<string, string>();
  for await (const chunk of store.scanRaw("stat", STAT_SCAN_COUNT)) for (const [p, v] of chunk) stats.set(p, v);
  return stats;
}

function sameStats(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [p, v] of a) if (b.get(p) !== v) return false;
  return true;
}

export class SnapshotCache {
  private readonly entries = new Map<string, Entry>();

  async load(store: ContextStore): Promise<ProjectSnapshot> {
    const [lastIndexed, stats] = await Promise.all([store.getConfigField("last_indexed"), readStats(store)]);
    const previous = this.entries.get(store.projectName);
    const unchanged = previous !== undefined && previous.lastIndexed === lastIndexed && sameStats(previous.stats, stats);
    // Re-inserting keeps the Map's order the eviction order.
    this.entries.delete(store.projectName);
    if (unchanged && previous.settled) {
      this.entries.set(store.projectName, previous);
      return previous.snapshot;
    }
    const snapshot = await loadSnapshot(store);
    if (previous) {
      // An AST is valid while its file's stat value is: keep those, drop the changed files' ones.
      for (const [p, ast] of previous.snapshot.asts) {
        const stat = stats.get(p);
        if (stat !== undefined && previous.stats.get(p) === stat) snapshot.asts.set(p, ast);
      }
    }
    this.entries.set(store.projectName, { snapshot, stats, lastIndexed, settled: previous === undefined || unchanged });
    while (this.entries.size > CACHED_PROJECTS) this.entries.delete(this.entries.keys().next().value as string);
    return snapshot;
  }

  clear(): void {
    this.entries.clear();
  }
}
