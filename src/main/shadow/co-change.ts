// Logical coupling from git: files committed together. `frequency` is seed 001's (the share of the
// target's commits that also changed the file); `coupling` is code-maat's degree (shared commits over the
// pair's average commit count), which does not flatter a file that changes in every commit anyway.
import { isoDate, type ShadowHistory } from "./change-history.js";

/** Pairs seen together fewer times than this are chance, not coupling. */
export const MIN_SHARED_COMMITS = 2;

export interface CoChange {
  file: string;
  frequency: number;
  coupling: number;
  shared_commits: number;
  last_together: string;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Non-bulk commit counts per file (the denominator of both measures). */
function commitCounts(h: ShadowHistory): Map<string, number> {
  const counts = new Map<string, number>();
  for (const c of h.commits) {
    if (c.bulk) continue;
    for (const f of c.files) counts.set(f.path, (counts.get(f.path) ?? 0) + 1);
  }
  return counts;
}

/**
 * Files that changed together with the target (a file, or every file under a folder), strongest first.
 * Bulk commits (more than BULK_COMMIT_FILES files) are left out.
 */
export function coChangesOf(h: ShadowHistory, isTarget: (path: string) => boolean, minShared = MIN_SHARED_COMMITS): CoChange[] {
  let targetCommits = 0;
  const shared = new Map<string, { count: number; last: number }>();
  for (const c of h.commits) {
    if (c.bulk || !c.files.some((f) => isTarget(f.path))) continue;
    targetCommits++;
    for (const f of c.files) {
      if (isTarget(f.path)) continue;
      const s = shared.get(f.path) ?? { count: 0, last: 0 };
      s.count++;
      s.last = Math.max(s.last, c.at);
      shared.set(f.path, s);
    }
  }
  if (!targetCommits) return [];
  const counts = commitCounts(h);
  const out: CoChange[] = [];
  for (const [file, s] of shared) {
    if (s.count < minShared) continue;
    const own = counts.get(file) ?? s.count;
    out.push({
      file,
      frequency: round2(s.count / targetCommits),
      coupling: round2(s.count / ((targetCommits + own) / 2)),
      shared_commits: s.count,
      last_together: isoDate(s.last),
    });
  }
  return out.sort((a, b) => b.frequency - a.frequency || b.coupling - a.coupling || a.file.localeCompare(b.file));
}

/** A target that is a folder covers every path under it. */
export function targetMatcher(target: string, isFolder: boolean): (path: string) => boolean {
  if (!isFolder) return (p) => p === target;
  const prefix = target.endsWith("/") ? target : `${target}/`;
  return (p) => p.startsWith(prefix);
}
