// Line arithmetic of the edit tools, kept pure. A file is split the way the index splits it (on LF,
// CRLF or a lone CR; a final newline adds no empty line), so the model's line numbers are the index's, and each line
// keeps its own terminator: untouched lines are written back byte for byte, new lines take the file's
// dominant ending, and the file keeps (or keeps lacking) its trailing newline.
import { createTwoFilesPatch, diffArrays } from "diff";

export type Eol = "\n" | "\r\n" | "\r";

/** Where the index ends lines (src/workers/file-json.ts splitLines agrees). */
const LINE_BREAK = /\r\n?|\n/;

export interface SplitText {
  lines: string[];
  /** The terminator after each line; only the last may be "" (no trailing newline). */
  eols: string[];
}

export function splitWithEols(text: string): SplitText {
  const lines: string[] = [];
  const eols: string[] = [];
  const re = new RegExp(LINE_BREAK.source, "g");
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    lines.push(text.slice(last, m.index));
    eols.push(m[0]);
    last = m.index + m[0].length;
  }
  if (last < text.length || lines.length === 0) {
    lines.push(text.slice(last));
    eols.push("");
  }
  return { lines, eols };
}

/** The index's line view: "" is one empty line, as get_lines shows it. */
export function textLines(text: string): string[] {
  return splitWithEols(text).lines;
}

/** The most common terminator; LF on a tie and for a file without any newline. */
export function dominantEol(eols: readonly string[]): Eol {
  let crlf = 0;
  let lf = 0;
  let cr = 0;
  for (const e of eols) {
    if (e === "\r\n") crlf++;
    else if (e === "\n") lf++;
    else if (e === "\r") cr++;
  }
  if (crlf > lf && crlf >= cr) return "\r\n";
  return cr > lf ? "\r" : "\n";
}

/**
 * The model's `content` as lines: "" is no lines (a deletion), and a final newline ends the last line
 * rather than adding an empty one ("a\n" and "a" are both the single line `a`).
 */
export function contentLines(content: string): string[] {
  if (content === "") return [];
  const lines = content.split(LINE_BREAK);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

// `  12│ code` as numberLines prints it: a small model sometimes pastes the numbers back.
const NUMBERED_LINE = /^\s*\d+│ ?/;

/** true when every non-empty line starts with a get_lines line number. */
export function looksLineNumbered(lines: readonly string[]): boolean {
  const nonEmpty = lines.filter((l) => l.trim() !== "");
  return nonEmpty.length > 0 && nonEmpty.every((l) => NUMBERED_LINE.test(l));
}

/**
 * Replaces lines `start`..`end` (1-based, inclusive) of `text` with `inserted`; `end = start - 1`
 * inserts before `start` without replacing (start = total + 1 appends). An empty file counts as one
 * empty line (as the index shows it) and takes LF endings with a trailing newline once it has content.
 */
export function spliceText(text: string, start: number, end: number, inserted: readonly string[]): string {
  const split = text === "" ? { lines: [], eols: [] } : splitWithEols(text);
  if (text === "") end = Math.min(end, 0);
  const eol = dominantEol(split.eols);
  const trailing = text === "" ? eol : split.eols[split.eols.length - 1]!;
  const lines = [...split.lines.slice(0, start - 1), ...inserted, ...split.lines.slice(end)];
  const eols = [...split.eols.slice(0, start - 1), ...inserted.map(() => eol), ...split.eols.slice(end)];
  if (!lines.length) return "";
  // The old last line may now sit in the middle: it needs a terminator; the new last line gets the old ending.
  for (let i = 0; i < eols.length - 1; i++) if (eols[i] === "") eols[i] = eol;
  eols[eols.length - 1] = trailing;
  return lines.map((l, i) => l + eols[i]).join("");
}

/**
 * Text the user typed in the confirmation dialog, in the file's line endings: an editor hands back LF,
 * a CRLF or CR file keeps its endings. Text that already contains a CR is taken as it is.
 */
export function inFileEols(content: string, eol: Eol): string {
  if (eol === "\n" || content.includes("\r")) return content;
  return content.replace(/\n/g, eol);
}

export interface LineRange {
  start: number;
  end: number;
}

/**
 * Where the old range `start`..`end` of `seen` is in `current`, when the lines in it are unchanged and
 * stayed together (lines inserted or removed elsewhere only shift it); null when the range itself was
 * touched. For an insertion (end = start - 1) the anchor is the line before or after the gap.
 */
export function mapRange(seen: readonly string[], current: readonly string[], start: number, end: number): LineRange | null {
  // newLineOf[i] = the current line number of seen line i (1-based), 0 when that line changed.
  const newLineOf = new Array<number>(seen.length + 2).fill(0);
  let oldLine = 1;
  let newLine = 1;
  for (const change of diffArrays([...seen], [...current])) {
    const count = change.count ?? change.value.length;
    if (change.added) newLine += count;
    else if (change.removed) oldLine += count;
    else for (let i = 0; i < count; i++) newLineOf[oldLine++] = newLine++;
  }
  if (end >= start) {
    const first = newLineOf[start] ?? 0;
    const last = newLineOf[end] ?? 0;
    if (!first || !last || last - first !== end - start) return null;
    for (let i = start; i <= end; i++) if (!newLineOf[i]) return null;
    return { start: first, end: last };
  }
  const after = start <= seen.length ? newLineOf[start] : 0;
  const before = start > 1 ? newLineOf[start - 1] : 0;
  if (start === 1 && after) return { start: after, end: after - 1 };
  if (before && (after === before + 1 || start > seen.length)) return { start: before + 1, end: before };
  if (seen.length === 0 && current.length === 0) return { start: 1, end: 0 };
  return null;
}

export interface ChangedRegion {
  /** 1-based; `oldEnd < oldStart` when nothing was removed, `newEnd < newStart` when nothing was added. */
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

/** The span between the common head and the common tail of two line lists. */
export function changedRegion(before: readonly string[], after: readonly string[]): ChangedRegion {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  return { oldStart: head + 1, oldEnd: before.length - tail, newStart: head + 1, newEnd: after.length - tail };
}

/** Lines added and removed between two versions, as the diff shown to the user counts them. */
export function lineChangeCounts(before: readonly string[], after: readonly string[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const part of diffArrays(before as string[], after as string[])) {
    if (part.added) added += part.value.length;
    else if (part.removed) removed += part.value.length;
  }
  return { added, removed };
}

/** Lines of context around each hunk in the diffs shown to the user. */
export const DIFF_CONTEXT_LINES = 3;

/**
 * Unified diff of two line lists under one project-relative path. Lines are compared without their
 * terminators: the dialog shows what the code becomes, endings are kept by the writer.
 */
export function unifiedDiff(relPath: string, before: readonly string[] | null, after: readonly string[] | null, labels?: { old: string; new: string }): string {
  const join = (lines: readonly string[] | null) => (lines && lines.length ? `${lines.join("\n")}\n` : "");
  const patch = createTwoFilesPatch(
    before === null ? "/dev/null" : `a/${relPath}`,
    after === null ? "/dev/null" : `b/${relPath}`,
    join(before),
    join(after),
    labels?.old,
    labels?.new,
    { context: DIFF_CONTEXT_LINES, headerOptions: { includeIndex: false, includeUnderline: false, includeFileHeaders: true } },
  );
  return patch.trimEnd();
}
