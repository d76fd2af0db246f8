// TODO, FIXME, HACK and XXX markers (and JSDoc @todo) in a file's comments, found while the file is
// indexed: the deep pass already knows where its comments are, so get_todos reads the markers from the
// index instead of parsing every file that mentions one (≈ 2.4 s of main-thread parsing on 12K files).
import type { SourceText } from "./source-text.js";

export const TODO_MARKERS = ["TODO", "FIXME", "HACK", "XXX"] as const;
export type TodoMarker = (typeof TODO_MARKERS)[number];

/** A marker word, or JSDoc's `@todo` (reported as TODO). */
export const MARKER_PATTERN = /\b(TODO|FIXME|HACK|XXX)\b|@todo\b/g;
/** Line text kept per marker: enough for any display, bounded for minified lines. */
const MAX_TEXT = 500;

export interface TodoEntry {
  line: number;
  marker: TodoMarker;
  /** The marker's line as it is in the file (trimmed, at most MAX_TEXT characters). */
  text: string;
}

/**
 * The markers inside comments, the first one per line, in line order. `comments` holds each comment's
 * [start, end) as UTF-16 offsets, in source order (the deep pass's list); a marker in a string, an
 * identifier or JSX text lies in none of them.
 */
export function commentMarkers(text: SourceText, comments: readonly number[]): TodoEntry[] {
  const out: TodoEntry[] = [];
  if (!comments.length) return out;
  const source = text.source;
  let c = 0;
  let lastLine = 0;
  for (const m of source.matchAll(MARKER_PATTERN)) {
    const start = m.index;
    const end = start + m[0].length;
    while (c < comments.length && (comments[c + 1] as number) < end) c += 2;
    if (c >= comments.length) break;
    if ((comments[c] as number) > start) continue;
    const line = text.lineAt(start);
    if (line === lastLine) continue;
    lastLine = line;
    const from = text.lineStart(line);
    const to = source.indexOf("\n", from);
    const raw = source.slice(from, to === -1 ? source.length : to).trim();
    out.push({ line, marker: (m[1] as TodoMarker | undefined) ?? "TODO", text: raw.length > MAX_TEXT ? raw.slice(0, MAX_TEXT) : raw });
  }
  return out;
}
