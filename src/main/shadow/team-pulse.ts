// team_pulse (seed 001 §2.d): the project's health (0–1, higher is better), its trend against the window
// before, month by month, and per first-level module.
import { isRevertChange, type FileChange, type ShadowHistory } from "./change-history.js";
import { scoreFiles, type HotspotWindow } from "./hotspots.js";
import { basename, moduleOf, type IndexView } from "./index-view.js";
import { averageMinutes, sessionsIn } from "./session-activity.js";
import { DAY_MS } from "./shadow-validate.js";

/** A health change smaller than this between two windows is "stable". */
export const TREND_THRESHOLD = 0.05;
export const HOTSPOT_LEVEL = 0.6;
export const MONTHS_SHOWN = 6;
export const MODULES_SHOWN = 15;

export interface TeamPulseResult {
  project_health_score: number;
  trend: "improving" | "stable" | "declining";
  previous_health_score: number | null;
  total_files: number;
  active_files: number;
  hotspot_count: number;
  avg_session_duration_min: number;
  ai_reliance_ratio: number;
  error_rate: number;
  top_concern: string | null;
  health_over_time: Array<{ month: string; score: number; changes: number }>;
  module_breakdown: Array<{ module: string; health_score: number; files: number; active_files: number; hotspot: string | null }>;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Health of a set of changes: 1 minus the weight of what went wrong — changes followed by errors, and
 * agent edits humans had to fix or undo, and changes reverted in git. null when there were no changes.
 */
export function changeHealth(changes: readonly FileChange[], reverts: number): number | null {
  if (!changes.length) return null;
  const broke = changes.filter((c) => c.errors.length > 0).length / changes.length;
  const reworked = (changes.filter((c) => c.humanFix).length + reverts) / changes.length;
  return round2(1 - Math.min(1, 0.6 * broke + 0.4 * Math.min(1, 2 * reworked)));
}

function within(h: ShadowHistory, from: number, to: number): { changes: FileChange[]; reverts: number } {
  const changes = h.changes.filter((c) => c.at >= from && c.at < to);
  // Agent edits undone and revert commits: both are changes taken back.
  let reverts = changes.filter(isRevertChange).length;
  for (const list of h.reverts.values()) reverts += list.filter((r) => r.at >= from && r.at < to).length;
  return { changes, reverts };
}

function monthKey(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

/** null when nothing changed in the window. */
export function teamPulse(h: ShadowHistory, view: IndexView, w: HotspotWindow): TeamPulseResult | null {
  const now = w.now;
  const current = within(h, w.from, now + 1);
  if (!current.changes.length) return null;
  const scores = scoreFiles(h, view, w);
  const meanScore = scores.length ? scores.reduce((s, x) => s + x.score, 0) / scores.length : 0;
  const health = round2(0.5 * (1 - meanScore) + 0.5 * (changeHealth(current.changes, current.reverts) ?? 1));

  // Trend: this window's change health against the same length just before it ("all": the last 30 days).
  const span = (w.days ?? 30) * DAY_MS;
  const recent = within(h, now - span, now + 1);
  const before = within(h, now - 2 * span, now - span);
  const recentHealth = changeHealth(recent.changes, recent.reverts);
  const previousHealth = changeHealth(before.changes, before.reverts);
  const delta = recentHealth !== null && previousHealth !== null ? recentHealth - previousHealth : 0;
  const trend = delta >= TREND_THRESHOLD ? "improving" : delta <= -TREND_THRESHOLD ? "declining" : "stable";

  // Month by month over the last MONTHS_SHOWN months whatever the window: the trend needs a longer view.
  const firstMonth = new Date(now);
  firstMonth.setUTCDate(1);
  firstMonth.setUTCHours(0, 0, 0, 0);
  firstMonth.setUTCMonth(firstMonth.getUTCMonth() - (MONTHS_SHOWN - 1));
  const months = new Map<string, FileChange[]>();
  for (const c of h.changes) {
    if (c.at < firstMonth.getTime() || c.at > now) continue;
    const key = monthKey(c.at);
    const list = months.get(key);
    if (list) list.push(c);
    else months.set(key, [c]);
  }
  const healthOverTime = [...months]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([month, list]) => {
      const start = Date.parse(`${month}-01T00:00:00Z`);
      const end = new Date(start).setUTCMonth(new Date(start).getUTCMonth() + 1);
      return { month, score: changeHealth(list, within(h, start, end).reverts) ?? 1, changes: list.length };
    });

  const moduleFiles = new Map<string, number>();
  for (const p of view.metas.keys()) moduleFiles.set(moduleOf(p), (moduleFiles.get(moduleOf(p)) ?? 0) + 1);
  const byModule = new Map<string, typeof scores>();
  for (const s of scores) {
    const m = moduleOf(s.file);
    byModule.set(m, [...(byModule.get(m) ?? []), s]);
  }
  const modules = [...byModule]
    .map(([module, list]) => ({
      module,
      health_score: round2(1 - list.reduce((s, x) => s + x.score, 0) / list.length),
      files: moduleFiles.get(module) ?? list.length,
      active_files: list.length,
      hotspot: list[0]!.score > HOTSPOT_LEVEL ? basename(list[0]!.file) : null,
    }))
    .sort((a, b) => a.health_score - b.health_score || a.module.localeCompare(b.module))
    .slice(0, MODULES_SHOWN);

  const agent = current.changes.filter((c) => c.source === "agent").length;
  const broke = current.changes.filter((c) => c.errors.length > 0).length;
  const worst = modules[0];
  const top = scores[0];
  const concern =
    worst && worst.health_score < 0.6
      ? `Module ${worst.module} is the least healthy (${worst.health_score})${worst.hotspot ? `; its worst file is ${worst.hotspot}` : ""}.`
      : top && top.score > HOTSPOT_LEVEL
        ? `${top.file} is a hotspot (${top.score}): ${top.explanation}`
        : null;
  return {
    project_health_score: health,
    trend,
    previous_health_score: previousHealth,
    total_files: view.metas.size || new Set(h.changes.map((c) => c.file)).size,
    active_files: scores.length,
    hotspot_count: scores.filter((s) => s.score > HOTSPOT_LEVEL).length,
    avg_session_duration_min: averageMinutes(sessionsIn(h, w.from, now)),
    ai_reliance_ratio: round2(agent / current.changes.length),
    error_rate: round2(broke / current.changes.length),
    top_concern: concern,
    health_over_time: healthOverTime,
    module_breakdown: modules,
  };
}
