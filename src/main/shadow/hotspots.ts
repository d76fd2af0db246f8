// Hotspots (seed 001 §2.a): files ranked by a 0–1 problem score. Edit frequency, error rate, recency and
// frustration come from the history; complexity from the index enters as Tornhill's hotspot — change
// frequency × complexity — so a busy trivial file or a complex untouched one does not top the list.
import { changesOf, errorCountOf, errorsLocatedIn, isoDate, revertsOf, type ShadowHistory } from "./change-history.js";
import { relativeComplexity, type IndexView } from "./index-view.js";
import { DAY_MS } from "./shadow-validate.js";

/** Changes in a window that count as "very frequent" (edit_frequency = 1 at this many or the busiest file's). */
export const FREQUENCY_REFERENCE = 10;
export const SCORE_WEIGHTS = { edit_frequency: 0.25, error_rate: 0.25, recent_changes: 0.1, frustration: 0.15, change_x_complexity: 0.25 } as const;
/** Below this no file is reported as a hotspot (SHADOW_ERR_NO_HOTSPOTS when none reaches it). */
export const MIN_HOTSPOT_SCORE = 0.1;

export type RiskLevel = "low" | "medium" | "high" | "critical";

export function levelOf(score: number): RiskLevel {
  return score < 0.3 ? "low" : score < 0.6 ? "medium" : score < 0.8 ? "high" : "critical";
}

export interface Hotspot {
  file: string;
  score: number;
  level: RiskLevel;
  breakdown: { edit_frequency: number; error_rate: number; recent_changes: number; frustration: number; complexity: number; change_x_complexity: number };
  stats: {
    total_edits: number;
    /** Errors blamed on this file's changes. */
    errors_caused: number;
    /** Errors that pointed at this file, whoever caused them (not part of the score). */
    errors_in_file: number;
    sessions_touched: number;
    last_edit: string;
    avg_lines_changed: number;
    human_fixes: number;
    /** Agent edits undone (undo, rewind) plus revert commits of the file. */
    reverts: number;
    /** Of those, revert commits. */
    git_reverts: number;
  };
  explanation: string;
}

export interface HotspotWindow {
  from: number;
  now: number;
  /** Length of the window in days; null for "all" (then the span of the history, at least 30 days). */
  days: number | null;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function explain(h: Hotspot, days: number): string {
  const parts: string[] = [];
  const s = h.stats;
  if (h.breakdown.edit_frequency >= 0.6) parts.push(`changed often (${s.total_edits} times in ${days} days)`);
  if (s.errors_caused) parts.push(`${s.errors_caused} error${s.errors_caused === 1 ? "" : "s"} traced to it`);
  if (s.human_fixes) parts.push(`${s.human_fixes} human fix${s.human_fixes === 1 ? "" : "es"} of agent edits`);
  const undone = s.reverts - s.git_reverts;
  if (undone) parts.push(`${undone} agent edit${undone === 1 ? "" : "s"} undone`);
  if (s.git_reverts) parts.push(`reverted in git ${s.git_reverts} time${s.git_reverts === 1 ? "" : "s"}`);
  if (h.breakdown.complexity >= 0.6) parts.push("among the most complex files");
  if (s.avg_lines_changed >= 40) parts.push(`large changes (${s.avg_lines_changed} lines on average)`);
  if (!parts.length) parts.push(`${s.total_edits} change${s.total_edits === 1 ? "" : "s"}, no errors`);
  const text = parts.join("; ");
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

/**
 * Every file changed in the window, scored and sorted (highest first). Files the index no longer has
 * (deleted or renamed away) are left out when there is an index.
 */
export function scoreFiles(h: ShadowHistory, view: IndexView, w: HotspotWindow): Hotspot[] {
  const files = new Set<string>();
  for (const c of h.changes) if (c.at >= w.from && c.at <= w.now) files.add(c.file);
  const indexed = view.metas.size > 0;
  const candidates = [...files].filter((f) => !indexed || view.metas.has(f));
  const counts = new Map(candidates.map((f) => [f, changesOf(h, f, w.from, w.now)]));
  const busiest = Math.max(FREQUENCY_REFERENCE, ...[...counts.values()].map((c) => c.length));
  const firstChange = h.changes.find((c) => c.at >= w.from)?.at ?? w.now;
  const spanDays = w.days ?? Math.max(30, (w.now - firstChange) / DAY_MS);
  const out: Hotspot[] = [];
  for (const file of candidates) {
    const changes = counts.get(file)!;
    const n = changes.length;
    const errors = errorCountOf(h, file, w.from, w.now);
    const humanFixes = changes.filter((c) => c.humanFix).length;
    const taken = revertsOf(h, file, w.from, w.now);
    const reverts = taken.undone + taken.reverted;
    const last = changes.at(-1)!.at;
    const sized = changes.filter((c) => c.source !== "human");
    const avgLines = sized.length ? Math.round(sized.reduce((s, c) => s + c.added + c.removed, 0) / sized.length) : 0;
    const editFrequency = Math.log1p(n) / Math.log1p(busiest);
    const complexity = relativeComplexity(view, file);
    const breakdown = {
      edit_frequency: round2(editFrequency),
      error_rate: round2(Math.min(1, errors / n)),
      recent_changes: round2(Math.max(0, 1 - (w.now - last) / (spanDays * DAY_MS))),
      frustration: round2(Math.min(1, (2 * (humanFixes + reverts)) / n)),
      complexity: round2(complexity),
      change_x_complexity: round2(Math.sqrt(editFrequency * complexity)),
    };
    const score = round2(
      SCORE_WEIGHTS.edit_frequency * breakdown.edit_frequency +
        SCORE_WEIGHTS.error_rate * breakdown.error_rate +
        SCORE_WEIGHTS.recent_changes * breakdown.recent_changes +
        SCORE_WEIGHTS.frustration * breakdown.frustration +
        SCORE_WEIGHTS.change_x_complexity * breakdown.change_x_complexity,
    );
    const sessions = new Set(changes.flatMap((c) => (c.session ? [c.session] : []))).size;
    const hotspot: Hotspot = {
      file,
      score,
      level: levelOf(score),
      breakdown,
      stats: { total_edits: n, errors_caused: errors, errors_in_file: errorsLocatedIn(h, file, w.from, w.now), sessions_touched: sessions, last_edit: isoDate(last), avg_lines_changed: avgLines, human_fixes: humanFixes, reverts, git_reverts: taken.reverted },
      explanation: "",
    };
    hotspot.explanation = explain(hotspot, Math.round(spanDays));
    out.push(hotspot);
  }
  return out.sort((a, b) => b.score - a.score || b.stats.total_edits - a.stats.total_edits || a.file.localeCompare(b.file));
}

/** One file's hotspot score in the window, or null when it did not change in it. */
export function hotspotOf(h: ShadowHistory, view: IndexView, w: HotspotWindow, file: string): Hotspot | null {
  return scoreFiles(h, view, w).find((s) => s.file === file) ?? null;
}
