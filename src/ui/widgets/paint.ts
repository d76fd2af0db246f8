// Paints styled lines straight into blessed's cell buffer. ipuaro's widgets do their own wrapping and
// widths (text-width.ts), so blessed's content parser (tags, its own wrapping, which counts UTF-16 units)
// is bypassed; blessed still diffs the buffer and writes only the changed cells.
//
// Each buffer cell holds one terminal cell, as tmux splits text: a character with its combining marks,
// a wide one followed by a filler that blessed skips. An emoji sequence, whose width depends on the
// terminal, is written so that it cannot shift the row: its first cell erases all the cells reserved for
// it, draws it and moves the cursor to the next cell; its other cells only move the cursor on. blessed
// writes every cell as if it advanced the cursor by one, so after any of them, drawn or skipped, the
// cursor is where blessed thinks it is.
import blessed from "blessed";
import type { Widgets } from "blessed";
import { graphemes, isControl, terminalCells, ZWJ } from "../text/text-width.js";
import type { Span, StyledLine } from "../text/styled-text.js";
import type { Role, RoleStyle, Theme } from "../theme.js";

export type Cell = [number, string];
export type CellRow = Cell[] & { dirty?: boolean };

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const DEFAULT_COLOUR = 0x1ff;
const FLAG_BOLD = 1;
const FLAG_UNDERLINE = 2;
const FLAG_INVERSE = 8;

const convert = (c: string | number | undefined): number =>
  c === undefined ? DEFAULT_COLOUR : (blessed as unknown as { colors: { convert(c: string | number): number } }).colors.convert(c);

/** blessed's packed cell attribute: flags << 18 | fg << 9 | bg. */
export function attrOf(style: RoleStyle, extra: Pick<Span, "bold" | "underline" | "inverse"> = {}): number {
  let flags = 0;
  if (style.bold || extra.bold) flags |= FLAG_BOLD;
  if (style.underline || extra.underline) flags |= FLAG_UNDERLINE;
  // Inverse on inverse would cancel out; a span asking for it on an inverse role keeps it visible.
  if (!!style.inverse !== !!extra.inverse) flags |= FLAG_INVERSE;
  return (flags << 18) | (convert(style.fg) << 9) | convert(style.bg);
}

export class Painter {
  private readonly cache = new Map<string, number>();

  constructor(readonly theme: Theme) {}

  attr(s: Pick<Span, "role" | "bg" | "bold" | "underline" | "inverse">, base?: Role): number {
    const key = `${base ?? ""}|${s.role ?? ""}|${s.bg ?? ""}|${s.bold ? 1 : 0}${s.underline ? 1 : 0}${s.inverse ? 1 : 0}`;
    let a = this.cache.get(key);
    if (a === undefined) {
      const baseStyle = base ? this.theme.roles[base] : {};
      const own = s.role ? this.theme.roles[s.role] : {};
      const { fg: _fg, ...under } = s.bg ? this.theme.roles[s.bg] : {};
      // A span's own colour wins; the base (e.g. the status bar) fills in what it leaves open.
      a = attrOf({ ...baseStyle, ...stripUndefined(own), ...stripUndefined(under) }, s);
      this.cache.set(key, a);
    }
    return a;
  }

  /**
   * Writes `lines` into the rectangle, one per row, padding each row with the base style. Cells past
   * the rectangle are never touched; a character that would straddle the edge ends the row.
   */
  paint(screen: Widgets.Screen, rect: Rect, lines: readonly StyledLine[], base?: Role): void {
    const rows = (screen as unknown as { lines: CellRow[] }).lines;
    const fill = this.attr({}, base);
    for (let dy = 0; dy < rect.height; dy++) {
      const row = rows[rect.y + dy];
      if (!row) break;
      const end = Math.min(rect.x + rect.width, row.length);
      let x = rect.x;
      let before = "";
      /** The last cell drawn: a zero-width character after it goes into it. */
      let last: { x: number; text: string; width: number; sequence: boolean } | null = null;
      spans: for (const s of lines[dy] ?? []) {
        const attr = this.attr(s, base);
        for (const raw of graphemes(s.text)) {
          // Control characters would move the real cursor: they are shown as a space.
          const g = isControl(raw.charCodeAt(0)) ? " " : raw;
          for (const cell of terminalCells(g, before)) {
            if (cell.width === 0) {
              // A stray combining mark, or a character joined by a ZWJ: drawn in the previous cell.
              if (!last) continue;
              last.text += cell.text;
              row[last.x]![1] = last.sequence ? sequenceCell(last.text, last.x, last.width) : last.text;
              continue;
            }
            // A character that would straddle the edge is left out; the padding below covers its place.
            if (x + cell.width > end) break spans;
            if (cell.sequence) {
              row[x] = [attr, sequenceCell(cell.text, x, cell.width)];
              for (let i = 1; i < cell.width; i++) row[x + i] = [attr, cursorToColumn(x + i + 1)];
            } else {
              row[x] = [attr, cell.text];
              if (cell.width === 2) row[x + 1] = [attr, " "];
            }
            last = { x, text: cell.text, width: cell.width, sequence: !!cell.sequence };
            x += cell.width;
          }
          before = g;
        }
      }
      for (; x < end; x++) row[x] = [fill, " "];
      row.dirty = true;
    }
  }
}

/** CHA: moves the cursor to a 0-based screen column. */
function cursorToColumn(x: number): string {
  return `\x1b[${x + 1}G`;
}

/**
 * The first cell of an emoji sequence at column `x`, `width` cells reserved: ECH erases them (in the
 * cell's colours), the sequence is drawn, CHA puts the cursor on the next cell. A trailing ZWJ is left
 * out: tmux would join the next character to the sequence. Starting with ESC, the cell has width 0 for
 * blessed, which then skips no filler after it.
 */
function sequenceCell(text: string, x: number, width: number): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === ZWJ) end--;
  return `\x1b[${width}X${text.slice(0, end)}${cursorToColumn(x + 1)}`;
}

function stripUndefined(style: RoleStyle): RoleStyle {
  return Object.fromEntries(Object.entries(style).filter(([, v]) => v !== undefined)) as RoleStyle;
}

/** The inner rectangle of an element after its last render (inside border and padding), or null. */
export function innerRect(el: Widgets.BlessedElement): Rect | null {
  const pos = (el as unknown as { lpos?: { xi: number; xl: number; yi: number; yl: number } }).lpos;
  if (!pos) return null;
  const e = el as unknown as { ileft: number; iright: number; itop: number; ibottom: number };
  const x = pos.xi + e.ileft;
  const y = pos.yi + e.itop;
  return { x, y, width: Math.max(0, pos.xl - e.iright - x), height: Math.max(0, pos.yl - e.ibottom - y) };
}
