// Text with styles, as the widgets paint it: a line is a list of spans, each with a theme role and
// attributes. Wrapping works on grapheme clusters and cell widths, so styles survive a break and wide
// characters never straddle the edge.
import { expandTabs, graphemeWidth, graphemes, stringWidth } from "./text-width.js";
import type { Role } from "../theme.js";

export interface Span {
  text: string;
  role?: Role;
  /** A role whose background (and emphasis, but not its foreground) is laid under the text: diff lines. */
  bg?: Role;
  bold?: boolean;
  underline?: boolean;
  inverse?: boolean;
}

export type StyledLine = Span[];

export function span(text: string, role?: Role, extra: Omit<Span, "text" | "role"> = {}): Span {
  return role ? { text, role, ...extra } : { text, ...extra };
}

export function lineText(line: StyledLine): string {
  return line.map((s) => s.text).join("");
}

export function lineWidth(line: StyledLine): number {
  // One string, so a character joined by a ZWJ at the end of the span before counts as it is drawn.
  return stringWidth(line.map((s) => s.text).join(""));
}

function sameStyle(a: Span, b: Span): boolean {
  return a.role === b.role && a.bg === b.bg && !!a.bold === !!b.bold && !!a.underline === !!b.underline && !!a.inverse === !!b.inverse;
}

/** Merges neighbouring spans of the same style and drops empty ones. */
export function compactLine(line: StyledLine): StyledLine {
  const out: StyledLine = [];
  for (const s of line) {
    if (!s.text) continue;
    const last = out[out.length - 1];
    if (last && sameStyle(last, s)) out[out.length - 1] = { ...last, text: last.text + s.text };
    else out.push(s);
  }
  return out;
}

interface Cell {
  g: string;
  w: number;
  style: Span;
}

/** Tabs turned into spaces up to their stops, counted across the spans of the line. */
function expandStyledTabs(line: StyledLine): StyledLine {
  let col = 0;
  return line.map((s) => {
    const text = expandTabs(s.text, col);
    col += stringWidth(text);
    return text === s.text ? s : { ...s, text };
  });
}

function toCells(line: StyledLine): Cell[] {
  const cells: Cell[] = [];
  let before = "";
  for (const s of line)
    for (const g of graphemes(s.text)) {
      cells.push({ g, w: graphemeWidth(g, before), style: s });
      before = g;
    }
  return cells;
}

function fromCells(cells: Cell[]): StyledLine {
  return compactLine(cells.map((c) => ({ ...c.style, text: c.g })));
}

/**
 * Wraps one styled line to `width` cells. Continuation rows start with `indent` (e.g. the chat's
 * hanging indent); breaks fall after a space when the next word fits, else inside the word.
 */
export function wrapStyled(line: StyledLine, width: number, indent: StyledLine = []): StyledLine[] {
  if (line.some((s) => s.text.includes("\n"))) return splitLines(line).flatMap((l) => wrapStyled(l, width, indent));
  if (line.some((s) => s.text.includes("\t"))) line = expandStyledTabs(line);
  const indentWidth = lineWidth(indent);
  const cells = toCells(line);
  if (cells.reduce((n, c) => n + c.w, 0) <= width) return [compactLine(line)];
  const rows: StyledLine[] = [];
  let row: Cell[] = [];
  let used = 0;
  let breakAt = -1;
  const limit = () => (rows.length === 0 ? width : Math.max(1, width - indentWidth));
  const push = (r: Cell[]) => rows.push(rows.length === 0 ? fromCells(r) : compactLine([...indent, ...fromCells(r)]));
  for (const cell of cells) {
    if (used + cell.w > limit()) {
      if (cell.g === " ") {
        push(row);
        row = [];
        used = 0;
        breakAt = -1;
        continue;
      }
      const tail = breakAt > 0 ? row.slice(breakAt) : [];
      const tailWidth = tail.reduce((n, c) => n + c.w, 0);
      if (breakAt > 0 && tailWidth + cell.w <= Math.max(1, width - indentWidth)) {
        push(row.slice(0, breakAt));
        row = tail;
        used = tailWidth;
      } else {
        push(row);
        row = [];
        used = 0;
      }
      breakAt = -1;
    }
    row.push(cell);
    used += cell.w;
    if (cell.g === " ") breakAt = row.length;
  }
  push(row);
  return rows;
}

/** Cuts a line longer than `width` cells and ends it with `…` (in the style of the cut span). */
export function truncateStyled(line: StyledLine, width: number): StyledLine {
  const cells = toCells(line);
  if (cells.reduce((n, c) => n + c.w, 0) <= width) return compactLine(line);
  const out: Cell[] = [];
  let used = 0;
  for (const c of cells) {
    if (used + c.w > width - 1) break;
    out.push(c);
    used += c.w;
  }
  const last = out[out.length - 1];
  out.push({ g: "…", w: 1, style: last?.style ?? { text: "" } });
  return fromCells(out);
}

/** Pads or cuts a line to exactly `width` cells (status bars, dialog rows). */
export function fitLine(line: StyledLine, width: number, fill: Span = { text: " " }): StyledLine {
  const out: Cell[] = [];
  let used = 0;
  for (const c of toCells(line)) {
    if (used + c.w > width) break;
    out.push(c);
    used += c.w;
  }
  const padded = fromCells(out);
  if (used < width) padded.push({ ...fill, text: " ".repeat(width - used) });
  return compactLine(padded);
}

/** Splits a line whose spans hold `\n` into one line per row of text, styles kept. */
export function splitLines(line: StyledLine): StyledLine[] {
  const out: StyledLine[] = [[]];
  for (const s of line) {
    s.text.split("\n").forEach((part, i) => {
      if (i > 0) out.push([]);
      if (part) out[out.length - 1]!.push({ ...s, text: part });
    });
  }
  return out;
}
