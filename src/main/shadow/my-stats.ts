// my_stats (seed 001 §2.e): the person at this checkout — their ipuaro sessions, the agent's edits in
// them, their own commits (git user.email) and edits outside ipuaro — with trends against the window before.
import { errorCountOf, isoDate, type FileChange, type ShadowHistory } from "./change-history.js";
import { averageMinutes, sessionsIn, type SessionActivity } from "./session-activity.js";
import { DAY_MS } from "./shadow-validate.js";
import { counted } from "../plural.js";

export interface Trend {
  previous: number;
  current: number;
  direction: "increasing" | "decreasing" | "improving" | "worsening" | "stable";
  change_pct: number;
}

export interface MyStatsResult {
  me: { name: string | null; email: string | null };
  sessions_total: number;
  sessions_per_day: number;
  avg_session_duration_min: number;
  files_edited: number;
  ai_generated_ratio: number;
  human_fix_ratio: number;
  top_files: Array<{ file: string; edits: number; errors: number }>;
  tools_used: Record<string, number>;
  errors_encountered: number;
  trends: { ai_reliance: Trend; fix_rate: Trend; session_duration: Trend };
  achievements: string[];
}

interface Period {
  changes: FileChange[];
  sessions: SessionActivity[];
  aiRatio: number;
  fixRate: number;
  minutes: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function period(h: ShadowHistory, from: number, to: number, email: string | null, gitAuthors: Map<string, string>): Period {
  const changes = h.changes.filter((c) => {
    if (c.at < from || c.at > to) return false;
    if (c.source !== "git") return true;
    return email !== null && gitAuthors.get(c.commit!) === email;
  });
  const agent = changes.filter((c) => c.source === "agent");
  const lines = (list: FileChange[]) => list.reduce((s, c) => s + c.added + c.removed, 0);
  const agentLines = lines(agent);
  const ownLines = lines(changes.filter((c) => c.source === "git"));
  const aiRatio = agentLines + ownLines > 0 ? agentLines / (agentLines + ownLines) : changes.length ? agent.length / changes.length : 0;
  const fixes = changes.filter((c) => c.humanFix).length;
  const sessions = sessionsIn(h, from, to);
  return { changes, sessions, aiRatio, fixRate: agent.length ? fixes / agent.length : 0, minutes: averageMinutes(sessions) };
}

function trend(previous: number, current: number, lowerIsBetter = false): Trend {
  const pct = previous === 0 ? (current === 0 ? 0 : 100) : ((current - previous) / previous) * 100;
  const moved = Math.abs(current - previous) >= 0.01 && Math.abs(pct) >= 5;
  let direction: Trend["direction"] = "stable";
  if (moved) direction = lowerIsBetter ? (current < previous ? "improving" : "worsening") : current > previous ? "increasing" : "decreasing";
  return { previous: round2(previous), current: round2(current), direction, change_pct: Math.round(pct * 10) / 10 };
}

/** null when this person did nothing in the window. */
export function myStats(h: ShadowHistory, from: number, now: number, days: number | null, me: { name: string | null; email: string | null }): MyStatsResult | null {
  const gitAuthors = new Map(h.commits.map((c) => [c.hash, c.email]));
  const cur = period(h, from, now, me.email, gitAuthors);
  if (!cur.changes.length && !cur.sessions.length) return null;
  const span = (days ?? Math.max(1, (now - (h.changes[0]?.at ?? now)) / DAY_MS)) * DAY_MS;
  const prev = period(h, now - 2 * span, now - span, me.email, gitAuthors);
  const perFile = new Map<string, number>();
  for (const c of cur.changes) perFile.set(c.file, (perFile.get(c.file) ?? 0) + 1);
  const topFiles = [...perFile]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 5)
    .map(([file, edits]) => ({ file, edits, errors: errorCountOf(h, file, from, now) }));
  const tools: Record<string, number> = {};
  for (const s of cur.sessions) for (const [t, n] of Object.entries(s.tools)) tools[t] = (tools[t] ?? 0) + n;
  const trends = { ai_reliance: trend(prev.aiRatio, cur.aiRatio), fix_rate: trend(prev.fixRate, cur.fixRate, true), session_duration: trend(prev.minutes, cur.minutes) };
  const achievements: string[] = [];
  if (trends.fix_rate.direction === "improving") achievements.push(`Human fixes of agent edits fell by ${Math.abs(Math.round(trends.fix_rate.change_pct))}% against the previous period`);
  const byDay = new Map<string, { sessions: number; edits: number }>();
  for (const s of cur.sessions) {
    const d = byDay.get(isoDate(s.start)) ?? { sessions: 0, edits: 0 };
    d.sessions++;
    d.edits += s.edits;
    byDay.set(isoDate(s.start), d);
  }
  const best = [...byDay].sort((a, b) => b[1].edits - a[1].edits || b[1].sessions - a[1].sessions)[0];
  if (best && best[1].edits > 0) achievements.push(`Most productive day: ${best[0]} (${counted(best[1].sessions, "session")}, ${counted(best[1].edits, "edit")})`);
  const favourite = Object.entries(tools).sort((a, b) => b[1] - a[1])[0];
  if (favourite) achievements.push(`Favourite tool: ${favourite[0]} (${favourite[1]} calls)`);
  return {
    me,
    sessions_total: cur.sessions.length,
    sessions_per_day: round2(cur.sessions.length / (span / DAY_MS)),
    avg_session_duration_min: cur.minutes,
    files_edited: perFile.size,
    ai_generated_ratio: round2(cur.aiRatio),
    human_fix_ratio: round2(cur.fixRate),
    top_files: topFiles,
    tools_used: tools,
    errors_encountered: cur.sessions.reduce((s, x) => s + x.errors, 0),
    trends,
    achievements,
  };
}
