// Which lines of a file the model has actually been shown, and in which reply. The read ledger says a
// file was read; a 7B model then edits lines 30-33 after reading 1-5, or reads and edits in one reply
// (its numbers then come from the outline, not from the read), and the edit landed one line off. An
// edit must fall on lines a read in an earlier reply showed; ipuaro's own edits shift what lies below
// them and count the lines their result showed.
import type { ToolSessionState } from "./tool-types.js";

interface SeenRange {
  start: number;
  end: number;
  /** The reply of the call that showed it (undefined: outside the agent loop, as `ipuaro tool`). */
  reply: string | undefined;
}

const seen = new WeakMap<ToolSessionState, Map<string, SeenRange[]>>();

function rangesOf(session: ToolSessionState, rel: string): SeenRange[] {
  let files = seen.get(session);
  if (!files) seen.set(session, (files = new Map()));
  let list = files.get(rel);
  if (!list) files.set(rel, (list = []));
  return list;
}

/** Lines `start`-`end` of `rel` were shown to the model by a call of `reply`. */
export function noteSeen(session: ToolSessionState, rel: string, start: number, end: number, reply: string | undefined): void {
  if (end < start) return;
  rangesOf(session, rel).push({ start, end, reply });
}

/** The model knows nothing of `rel`'s lines any more (deleted, compressed away, changed by a rewind). */
export function forgetSeen(session: ToolSessionState, rel: string): void {
  seen.get(session)?.delete(rel);
}

/** Whether anything of `rel` is on record (files read before this was kept count as wholly seen). */
export function hasSeenRecord(session: ToolSessionState, rel: string): boolean {
  return (seen.get(session)?.get(rel)?.length ?? 0) > 0;
}

/**
 * After an edit replaced lines `start`-`end` with `inserted` lines: what lay below moves, what the edit
 * replaced is gone from view (its result shows the new lines, noted by the caller).
 */
export function shiftSeen(session: ToolSessionState, rel: string, start: number, end: number, inserted: number): void {
  const list = seen.get(session)?.get(rel);
  if (!list) return;
  const delta = inserted - (end - start + 1);
  const out: SeenRange[] = [];
  for (const r of list) {
    if (r.end < start) out.push(r);
    else if (r.start > end) out.push({ ...r, start: r.start + delta, end: r.end + delta });
    else {
      // Overlapping the replaced lines: the parts before and after it stay seen.
      if (r.start < start) out.push({ ...r, end: start - 1 });
      if (r.end > end) out.push({ ...r, start: end + 1 + delta, end: r.end + delta });
    }
  }
  list.splice(0, list.length, ...out);
}

/**
 * The first line of `start`-`end` no read from an earlier reply showed, or null when all were shown.
 * An insertion (`end` = `start` - 1) needs the line it goes after (or the first line) to have been seen.
 */
export function firstUnseenLine(session: ToolSessionState, rel: string, start: number, end: number, reply: string | undefined): number | null {
  const list = (seen.get(session)?.get(rel) ?? []).filter((r) => reply === undefined || r.reply !== reply);
  const from = end < start ? Math.max(1, start - 1) : start;
  const to = end < start ? from : end;
  for (let line = from; line <= to; line++) {
    if (!list.some((r) => r.start <= line && line <= r.end)) return line;
  }
  return null;
}
