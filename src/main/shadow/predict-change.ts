// predict_change (seed 001 §2.b): the risk that changing a file breaks something, from how often its
// past changes were blamed for errors, how much depends on it, and which files broke along with it.
import { changesOf, isoDate, type FileChange, type ShadowHistory } from "./change-history.js";
import { coChangesOf, targetMatcher } from "./co-change.js";
import { levelOf, type RiskLevel } from "./hotspots.js";
import type { IndexView } from "./index-view.js";

/** Co-changes this strong count as a dependency of the change. */
export const COUPLED_FREQUENCY = 0.3;
export const AFFECTED_FILES_SHOWN = 10;
export const SIMILAR_CHANGES_SHOWN = 5;

export interface SimilarChange {
  file: string;
  date: string;
  source: FileChange["source"];
  session_id: string | null;
  commit?: string;
  result: string;
}

export interface PredictChangeResult {
  target: string;
  risk_score: number;
  risk_level: RiskLevel;
  affected_files: string[];
  dependency_count: number;
  historical_breakage_rate: number;
  total_changes: number;
  recent_similar_changes: SimilarChange[];
  recommendation: string;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function resultOf(change: FileChange): string {
  if (!change.errors.length) return "clean";
  const broken = [...new Set(change.errors.map((e) => e.file).filter((f): f is string => !!f && f !== change.file))].sort();
  if (broken.length) return `broke ${broken.slice(0, 3).join(", ")}${broken.length > 3 ? ` and ${broken.length - 3} more` : ""}`;
  const kind = change.errors[0]!.kind;
  return kind === "fix_commit" ? "needed a fix" : kind === "reverted" ? "was reverted" : `caused a ${kind.replace("_", " ")}`;
}

export function recommendation(level: RiskLevel, target: string, breakage: number, affected: string[], dependents: number): string {
  const pct = Math.round(breakage * 100);
  const history = pct > 0 ? `${pct}% of past changes to ${target} were followed by errors` : `no past change to ${target} was followed by an error`;
  const list = affected.length ? ` Check ${affected.slice(0, 5).join(", ")}${affected.length > 5 ? " and the rest of affected_files" : ""}.` : "";
  switch (level) {
    case "critical":
      return `CRITICAL RISK: ${history}. Do not change it without the user's explicit go-ahead; make the smallest possible change and run the full test suite.${list}`;
    case "high":
      return `HIGH RISK: ${history}; ${dependents} file${dependents === 1 ? "" : "s"} import it. Run the tests of every affected file after the change and keep the change small.${list}`;
    case "medium":
      return `MEDIUM RISK: ${history}. Tell the user and run the related tests after the change.${list}`;
    default:
      // A file that broke before is low risk only because little depends on it: not "safe".
      return pct > 0
        ? `LOW RISK (little depends on it), but ${history}: run its own tests after the change.`
        : `LOW RISK: ${history}. Safe to change; run its own tests.`;
  }
}

/** null when there is nothing to predict from: no history and nothing depends on the file. */
export function predictChange(h: ShadowHistory, view: IndexView, target: string): PredictChangeResult | null {
  const changes = changesOf(h, target);
  const dependents = view.metas.get(target)?.dependents ?? [];
  if (!changes.length && !dependents.length) return null;
  const broke = changes.filter((c) => c.errors.length > 0);
  const breakage = changes.length ? broke.length / changes.length : 0;
  const coBroken = [...(h.causesBugsIn.get(target) ?? new Map<string, number>())].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const coupled = coChangesOf(h, targetMatcher(target, false)).filter((c) => c.frequency >= COUPLED_FREQUENCY);
  const weight = dependents.length + coBroken.reduce((s, [, n]) => s + n, 0) + coupled.reduce((s, c) => s + c.frequency, 0);
  const edges = new Set([...dependents, ...coBroken.map(([f]) => f), ...coupled.map((c) => c.file)]);
  const score = Math.min(1, 0.5 * breakage + 0.3 * Math.min(weight / 10, 1) + 0.2 * Math.min(coBroken.length / 5, 1));
  const level = levelOf(score);
  // The dependents most else hangs on first: a hub's first ten by name were all from one app.
  const reach = (f: string) => view.metas.get(f)?.dependents.length ?? 0;
  const byReach = [...dependents].sort((a, b) => reach(b) - reach(a) || a.localeCompare(b));
  const affected = [...new Set([...coBroken.map(([f]) => f), ...byReach, ...coupled.map((c) => c.file)])].slice(0, AFFECTED_FILES_SHOWN);
  const similar = changes
    .slice(-SIMILAR_CHANGES_SHOWN)
    .reverse()
    .map((c) => ({ file: c.file, date: isoDate(c.at), source: c.source, session_id: c.session, ...(c.commit ? { commit: c.commit.slice(0, 8) } : {}), result: resultOf(c) }));
  return {
    target,
    risk_score: round2(score),
    risk_level: level,
    affected_files: affected,
    dependency_count: edges.size,
    historical_breakage_rate: round2(breakage),
    total_changes: changes.length,
    recent_similar_changes: similar,
    recommendation: recommendation(level, target, breakage, affected, dependents.length),
  };
}
