// file_history (seed 001 §2.c): every change of one file, newest first — who (the agent in a session, a
// git author, a human outside ipuaro), how much, and whether it was followed by an error.
import { changesOf, isoDate, revertsOf, type ShadowHistory } from "./change-history.js";
import { coChangesOf, targetMatcher } from "./co-change.js";

export const TIMELINE_SHOWN = 50;
export const REFACTOR_SUBJECT = /\b(refactor(ing|ed)?|restructur(e|ed|ing)|rewrite|rewrote|extract(ed)?|split)\b/i;
/** A change this big (added + removed lines) counts as a refactoring even without saying so. */
export const REFACTOR_LINES = 200;

export interface TimelineEntry {
  date: string;
  session_id: string | null;
  agent: "ai" | "human";
  author: string | null;
  source: "agent" | "human" | "git";
  commit?: string;
  subject?: string;
  changes: string;
  caused_error: boolean;
  error_type?: string;
  error_message?: string;
  human_fix?: boolean;
  /** Part of a commit touching more than 30 files: shown, but left out of every score. */
  sweep?: boolean;
  /** A shallow clone's boundary commit: its "+N" is the whole file as the clone first has it. */
  shallow_boundary?: boolean;
}

export interface FileHistoryResult {
  file: string;
  first_seen: string;
  total_edits: number;
  unique_sessions: number;
  authors: { ai: number; human: number; by_name: Record<string, number> };
  timeline: TimelineEntry[];
  /** Agent edits undone (undo, rewind) plus revert commits of the file. */
  reverts: number;
  top_collaborators: string[];
  refactoring_count: number;
  stability_score: number;
  /** The clone is shallow and the oldest change shown is where its history stops: the file is older. */
  history_cut?: string;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** null when the file has no changes in the window. */
export function fileHistory(h: ShadowHistory, file: string, from: number, now: number): FileHistoryResult | null {
  const sweeps = (h.sweeps.get(file) ?? []).filter((c) => c.at >= from && c.at <= now);
  const changes = [...changesOf(h, file, from, now), ...sweeps].sort((a, b) => a.at - b.at);
  if (!changes.length) return null;
  const byName: Record<string, number> = {};
  let ai = 0;
  for (const c of changes) {
    if (c.source === "agent") ai++;
    else if (c.author) byName[c.author] = (byName[c.author] ?? 0) + 1;
  }
  const timeline: TimelineEntry[] = changes
    .slice()
    .reverse()
    .slice(0, TIMELINE_SHOWN)
    .map((c) => {
      const first = c.errors[0];
      return {
        date: isoDate(c.at),
        session_id: c.session,
        agent: c.source === "agent" ? "ai" : "human",
        author: c.author,
        source: c.source,
        ...(c.commit ? { commit: c.commit.slice(0, 8), subject: c.subject } : {}),
        changes: c.source === "human" ? "edited outside ipuaro" : `+${c.added}/-${c.removed} lines`,
        caused_error: c.errors.length > 0,
        ...(first ? { error_type: first.kind, error_message: first.message } : {}),
        ...(c.humanFix ? { human_fix: true } : {}),
        ...(c.bulk ? { sweep: true } : {}),
      };
    });
  const taken = revertsOf(h, file, from, now);
  const reverts = taken.undone + taken.reverted;
  const scored = changes.filter((c) => !c.bulk);
  const broke = scored.filter((c) => c.errors.length).length;
  const frustration = scored.filter((c) => c.humanFix).length + reverts;
  const recent = scored.filter((c) => c.at >= now - 30 * 24 * 3600_000).length;
  const base = Math.max(1, scored.length);
  // Stable: few breakages, little recent churn, little rework of agent edits.
  const stability = 1 - Math.min(1, 0.5 * (broke / base) + 0.3 * Math.min(1, recent / 10) + 0.2 * Math.min(1, frustration / base));
  return {
    file,
    first_seen: isoDate(changes[0]!.at),
    total_edits: changes.length,
    unique_sessions: new Set(changes.flatMap((c) => (c.session ? [c.session] : []))).size,
    authors: { ai, human: changes.length - ai, by_name: byName },
    timeline,
    reverts,
    top_collaborators: coChangesOf(h, targetMatcher(file, false)).slice(0, 3).map((c) => c.file),
    refactoring_count: scored.filter((c) => (c.subject && REFACTOR_SUBJECT.test(c.subject)) || c.added + c.removed >= REFACTOR_LINES).length,
    stability_score: round2(stability),
  };
}
