// code_errors: recent errors from run_tests and run_command, grouped by the file they point at, and the
// decisions list (seed 001 §2.h) — two plain listings over stored records.
import { isoDate, type ShadowHistory } from "./change-history.js";
import type { ErrorEvent } from "./event-types.js";
import type { DecisionEntry, DecisionStatus } from "./memory-store.js";

export const ERRORS_PER_FILE_SHOWN = 5;

export interface CodeErrorsResult {
  timeframe: string;
  total_errors: number;
  files: Array<{
    file: string | null;
    count: number;
    last_seen: string;
    kinds: Record<string, number>;
    recent: Array<{ date: string; line: number | null; kind: string; source: string; session_id: string | null; message: string }>;
  }>;
}

export function codeErrors(h: ShadowHistory, from: number, now: number, timeframe: string, limit: number): CodeErrorsResult {
  const inWindow = h.errors.filter((e) => e.at >= from && e.at <= now);
  const groups = new Map<string | null, ErrorEvent[]>();
  for (const e of inWindow) groups.set(e.file, [...(groups.get(e.file) ?? []), e]);
  const files = [...groups]
    .map(([file, list]) => {
      const kinds: Record<string, number> = {};
      for (const e of list) kinds[e.kind] = (kinds[e.kind] ?? 0) + 1;
      return {
        file,
        count: list.length,
        last_seen: isoDate(list.at(-1)!.at),
        lastAt: list.at(-1)!.at,
        kinds,
        recent: list
          .slice(-ERRORS_PER_FILE_SHOWN)
          .reverse()
          .map((e) => ({ date: isoDate(e.at), line: e.line, kind: e.kind, source: e.source, session_id: e.session, message: e.message })),
      };
    })
    .sort((a, b) => b.count - a.count || b.lastAt - a.lastAt)
    .slice(0, limit)
    .map(({ lastAt: _lastAt, ...rest }) => rest);
  return { timeframe, total_errors: inWindow.length, files };
}

export interface DecisionsListResult {
  decisions: Array<{
    id: number;
    title: string;
    status: DecisionStatus;
    decided_at: string;
    tags: string[];
    context: string | null;
    decision: string;
    alternatives: string[];
    related_files: string[];
    supersedes?: number;
    superseded_by?: number;
  }>;
  total: number;
}

/** Newest first; `total` counts every decision with the status filter applied. */
export function decisionsList(all: readonly DecisionEntry[], status: DecisionStatus | null, limit: number): DecisionsListResult {
  const matching = all.filter((d) => !status || d.status === status).sort((a, b) => b.created_at - a.created_at || b.id - a.id);
  return {
    decisions: matching.slice(0, limit).map((d) => ({
      id: d.id,
      title: d.title,
      status: d.status,
      decided_at: isoDate(d.created_at),
      tags: d.tags,
      context: d.context,
      decision: d.description,
      alternatives: d.alternatives,
      related_files: d.related_files,
      ...(d.supersedes !== undefined ? { supersedes: d.supersedes } : {}),
      ...(d.superseded_by !== undefined ? { superseded_by: d.superseded_by } : {}),
    })),
    total: matching.length,
  };
}
