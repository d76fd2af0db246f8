// A unified diff as the edit dialog shows it: line numbers, +/- signs, syntax highlighting of both
// sides, and inline highlights — inside each changed line the words (or characters, for short tokens)
// that actually differ get a stronger background than the rest of the line.
import { diffChars, diffWordsWithSpace, type ChangeObject } from "diff";
import { highlightLine, initialState, languageOf, type CodeLanguage, type HighlightState } from "../text/highlight.js";
import { compactLine, span, truncateStyled, wrapStyled, type Span, type StyledLine } from "../text/styled-text.js";
import type { Role } from "../theme.js";

export type DiffLineKind = "context" | "add" | "del" | "hunk" | "note";

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
  oldNo?: number;
  newNo?: number;
  /** [start, end) UTF-16 ranges of `text` that changed inside a paired line. */
  changed?: Array<[number, number]>;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/;
/** Above this share of changed characters, a pair is a rewrite: marking words inside it only adds noise. */
const REWRITE_RATIO = 0.7;
const GUTTER = 7;

export function parseUnifiedDiff(diff: string): DiffLine[] {
  const out: DiffLine[] = [];
  let oldNo = 0;
  let newNo = 0;
  let inHunk = false;
  for (const raw of diff.split("\n")) {
    const h = HUNK.exec(raw);
    if (h) {
      oldNo = Number(h[1]);
      newNo = Number(h[2]);
      inHunk = true;
      out.push({ kind: "hunk", text: raw });
      continue;
    }
    if (!inHunk) continue; // ===, ---, +++ and index headers
    if (raw.startsWith("+")) out.push({ kind: "add", text: raw.slice(1), newNo: newNo++ });
    else if (raw.startsWith("-")) out.push({ kind: "del", text: raw.slice(1), oldNo: oldNo++ });
    else if (raw.startsWith(" ")) out.push({ kind: "context", text: raw.slice(1), oldNo: oldNo++, newNo: newNo++ });
    else if (raw.startsWith("\\")) out.push({ kind: "note", text: raw.slice(1).trim() });
  }
  return out;
}

function changedRanges(parts: ChangeObject<string>[], side: "added" | "removed"): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let at = 0;
  for (const p of parts) {
    const other = side === "added" ? p.removed : p.added;
    if (other) continue;
    const len = p.value.length;
    if (p[side] && p.value.trim()) ranges.push([at, at + len]);
    at += len;
  }
  return ranges;
}

/** Joins marks split by one punctuation character (`jwt` `.` `verify` → `jwt.verify`): easier to read. */
function mergeClose(text: string, ranges: Array<[number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && r[0] - last[1] <= 1 && !/\s/.test(text.slice(last[1], r[0]))) last[1] = r[1];
    else out.push([r[0], r[1]]);
  }
  return out;
}

/** Marks what changed inside each `-` line paired with the `+` line at the same position of its run. */
export function markInlineChanges(lines: DiffLine[]): DiffLine[] {
  for (let i = 0; i < lines.length; ) {
    if (lines[i]!.kind !== "del") {
      i++;
      continue;
    }
    let d = i;
    while (d < lines.length && lines[d]!.kind === "del") d++;
    let a = d;
    while (a < lines.length && lines[a]!.kind === "add") a++;
    const pairs = Math.min(d - i, a - d);
    for (let k = 0; k < pairs; k++) {
      const del = lines[i + k]!;
      const add = lines[d + k]!;
      // Words for prose and code; characters when the lines are one token long (numbers, short names).
      const parts = /\s/.test(del.text.trim()) || /\s/.test(add.text.trim()) ? diffWordsWithSpace(del.text, add.text) : diffChars(del.text, add.text);
      const changed = parts.filter((p) => p.added || p.removed).reduce((n, p) => n + p.value.length, 0);
      if (changed / Math.max(1, del.text.length + add.text.length) > REWRITE_RATIO) continue;
      del.changed = mergeClose(del.text, changedRanges(parts, "removed"));
      add.changed = mergeClose(add.text, changedRanges(parts, "added"));
    }
    i = a;
  }
  return lines;
}

/** Lays the changed ranges over the syntax spans of a line. */
function overlay(spans: StyledLine, changed: Array<[number, number]> | undefined, lineBg: Role, strongBg: Role): StyledLine {
  const out: Span[] = [];
  let at = 0;
  for (const s of spans) {
    let start = 0;
    while (start < s.text.length) {
      const pos = at + start;
      const inside = changed?.find(([a, b]) => pos >= a && pos < b);
      const next = changed
        ?.flatMap(([a, b]) => [a, b])
        .filter((x) => x > pos)
        .reduce((m, x) => Math.min(m, x), Infinity);
      const end = Math.min(s.text.length, (next ?? Infinity) - at);
      out.push({ ...s, text: s.text.slice(start, end), bg: inside ? strongBg : lineBg, ...(inside ? { bold: true } : {}) });
      start = end;
    }
    at += s.text.length;
  }
  if (out.length === 0) out.push({ text: "", bg: lineBg });
  return compactLine(out);
}

export interface DiffRenderOptions {
  syntax: boolean;
  inline: boolean;
  /** edit.wrapLongLines: long lines wrap under the code column; false cuts them with `…`. */
  wrap?: boolean;
}

/** `+3 −1 lines in 2 hunks`: what the dialog says instead of the diff when edit.showDiff is off. */
export function diffSummary(diff: string): string {
  const lines = parseUnifiedDiff(diff);
  const count = (k: DiffLineKind) => lines.filter((l) => l.kind === k).length;
  const hunks = count("hunk");
  return `+${count("add")} −${count("del")} lines in ${hunks} ${hunks === 1 ? "hunk" : "hunks"}`;
}

/** The diff of `path` as rows `width` cells wide (long lines wrap under the code column, or are cut). */
export function renderDiff(diff: string, path: string, width: number, opts: DiffRenderOptions = { syntax: true, inline: true }): StyledLine[] {
  const lines = parseUnifiedDiff(diff);
  if (opts.inline) markInlineChanges(lines);
  const lang: CodeLanguage = opts.syntax ? languageOf(path) : "plain";
  // Each side is highlighted as one continuous snippet, so multi-line comments and strings hold.
  let oldState: HighlightState = initialState();
  let newState: HighlightState = initialState();
  const rows: StyledLine[] = [];
  const codeWidth = Math.max(8, width - GUTTER);
  for (const line of lines) {
    if (line.kind === "hunk") {
      oldState = initialState();
      newState = initialState();
      rows.push([span(line.text, "diffHunk")]);
      continue;
    }
    if (line.kind === "note") {
      rows.push([span(`        ${line.text}`, "muted")]);
      continue;
    }
    let spans: StyledLine;
    if (line.kind === "del") {
      const r = highlightLine(line.text, lang, oldState);
      oldState = r.state;
      spans = r.spans;
    } else {
      const r = highlightLine(line.text, lang, newState);
      newState = r.state;
      spans = r.spans;
      if (line.kind === "context") oldState = highlightLine(line.text, lang, oldState).state;
    }
    const no = line.kind === "del" ? line.oldNo : line.newNo;
    const sign = line.kind === "add" ? "+" : line.kind === "del" ? "-" : " ";
    const signRole: Role | undefined = line.kind === "add" ? "diffAdd" : line.kind === "del" ? "diffDel" : undefined;
    const gutter: StyledLine = [span(`${String(no ?? "").padStart(4)} `, "gutter"), span(`${sign} `, signRole, { bold: !!signRole })];
    const body =
      line.kind === "context"
        ? spans
        : overlay(spans, line.changed, line.kind === "add" ? "diffAddLine" : "diffDelLine", line.kind === "add" ? "diffAddStrong" : "diffDelStrong");
    const wrapped = opts.wrap === false ? [truncateStyled(body, codeWidth)] : wrapStyled(body, codeWidth);
    wrapped.forEach((row, i) => rows.push([...(i === 0 ? gutter : [span(" ".repeat(GUTTER))]), ...row]));
  }
  return rows;
}
