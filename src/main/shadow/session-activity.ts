// Agent sessions as the events show them: when each started and last did something, what it edited and
// which tools it called. Durations are first to last event, so an idle open session does not inflate them.
import type { ShadowHistory } from "./change-history.js";
import { sessionOf } from "./event-types.js";

export interface SessionActivity {
  id: string;
  start: number;
  end: number;
  edits: number;
  errors: number;
  tools: Record<string, number>;
}

export function sessionsIn(h: ShadowHistory, from: number, to: number): SessionActivity[] {
  const byId = new Map<string, SessionActivity>();
  for (const e of h.events) {
    if (e.at < from || e.at > to) continue;
    const id = sessionOf(e);
    if (!id) continue;
    let s = byId.get(id);
    if (!s) byId.set(id, (s = { id, start: e.at, end: e.at, edits: 0, errors: 0, tools: {} }));
    s.start = Math.min(s.start, e.at);
    s.end = Math.max(s.end, e.at);
    if (e.type === "edit") s.edits++;
    else if (e.type === "error") s.errors++;
    else if (e.type === "turn") for (const [tool, n] of Object.entries(e.tools)) s.tools[tool] = (s.tools[tool] ?? 0) + n;
  }
  return [...byId.values()].sort((a, b) => a.start - b.start);
}

/** Mean duration in whole minutes; 0 without sessions. */
export function averageMinutes(sessions: readonly SessionActivity[]): number {
  if (!sessions.length) return 0;
  return Math.round(sessions.reduce((s, x) => s + (x.end - x.start), 0) / sessions.length / 60_000);
}
