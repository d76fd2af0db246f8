// The prompt's text and cursor, without any terminal: every edit moves by grapheme cluster (an emoji or
// a letter with its accent is one step, one Backspace), words are Unicode letters and digits, and the
// text may hold several lines. layout() maps it to terminal rows for a given width.
import { graphemeBoundaries, graphemeWidth, graphemes, TAB_STOP } from "../text/text-width.js";

// An emoji counts as a word: Ctrl+W after "see 👋" took "see" along with it.
const WORD = /[\p{L}\p{N}_\p{Extended_Pictographic}]/u;
/** Characters around the cursor segmented for a step; doubled while a word runs past them. */
const NEAR = 64;

export interface EditorLayout {
  /** Terminal rows, each at most `width` cells. */
  rows: string[];
  cursorRow: number;
  cursorCol: number;
}

export class LineEditor {
  private value = "";
  /** UTF-16 offset, always on a grapheme boundary. */
  private pos = 0;
  /** The last layout and what it was made for. */
  private laidOut: { value: string; key: string; layout: EditorLayout } | null = null;

  get text(): string {
    return this.value;
  }

  get cursor(): number {
    return this.pos;
  }

  set(text: string, cursor = text.length): void {
    this.value = normalise(text);
    this.pos = this.snap(Math.min(cursor, this.value.length));
  }

  clear(): void {
    this.set("");
  }

  insert(text: string): void {
    const t = normalise(text);
    this.value = this.value.slice(0, this.pos) + t + this.value.slice(this.pos);
    this.pos += t.length;
  }

  /**
   * Grapheme boundaries from `from` to `to` (widened to where a cluster surely starts). Only the part
   * near the cursor is segmented: a pasted log of 300K characters made every key segment all of it.
   */
  private bounds(from: number, to: number): number[] {
    return graphemeBoundaries(this.value, from, to);
  }

  private snap(offset: number): number {
    let best = 0;
    for (const x of this.bounds(offset - 1, offset + 1)) if (x <= offset) best = x;
    return best;
  }

  private prevBoundary(): number {
    const b = this.bounds(this.pos - 1, this.pos);
    for (let i = b.length - 1; i >= 0; i--) if (b[i]! < this.pos) return b[i]!;
    return 0;
  }

  private nextBoundary(): number {
    for (const x of this.bounds(this.pos, this.pos + 1)) if (x > this.pos) return x;
    return this.value.length;
  }

  backspace(): void {
    if (this.pos === 0) return;
    const from = this.prevBoundary();
    this.value = this.value.slice(0, from) + this.value.slice(this.pos);
    this.pos = from;
  }

  deleteForward(): void {
    if (this.pos >= this.value.length) return;
    const to = this.nextBoundary();
    this.value = this.value.slice(0, this.pos) + this.value.slice(to);
  }

  left(): void {
    this.pos = this.prevBoundary();
  }

  right(): void {
    this.pos = this.nextBoundary();
  }

  private lineStart(): number {
    return this.value.lastIndexOf("\n", this.pos - 1) + 1;
  }

  private lineEnd(): number {
    const nl = this.value.indexOf("\n", this.pos);
    return nl === -1 ? this.value.length : nl;
  }

  home(): void {
    this.pos = this.lineStart();
  }

  end(): void {
    this.pos = this.lineEnd();
  }

  private isWordAt(offset: number): boolean {
    const cp = this.value.codePointAt(offset);
    return cp !== undefined && WORD.test(String.fromCodePoint(cp));
  }

  /** Start of the word before the cursor (Ctrl+Left, Alt+B). */
  private wordStartBefore(): number {
    for (let near = NEAR; ; near *= 2) {
      const b = this.bounds(this.pos - near, this.pos).filter((x) => x < this.pos);
      let i = b.length - 1;
      while (i >= 0 && !this.isWordAt(b[i]!)) i--;
      while (i > 0 && this.isWordAt(b[i - 1]!)) i--;
      // The word (or the gap before it) may go on before what was segmented.
      if (i <= 0 && b.length > 0 && b[0]! > 0) continue;
      return i >= 0 ? b[i]! : 0;
    }
  }

  /** End of the word after the cursor (Ctrl+Right, Alt+F). */
  private wordEndAfter(): number {
    for (let near = NEAR; ; near *= 2) {
      const b = this.bounds(this.pos, this.pos + near).filter((x) => x >= this.pos);
      let i = 0;
      while (i < b.length - 1 && !this.isWordAt(b[i]!)) i++;
      while (i < b.length - 1 && this.isWordAt(b[i]!)) i++;
      if (i >= b.length - 1 && b[b.length - 1]! < this.value.length) continue;
      return b[i] ?? this.value.length;
    }
  }

  wordLeft(): void {
    this.pos = this.wordStartBefore();
  }

  wordRight(): void {
    this.pos = this.wordEndAfter();
  }

  deleteWordBefore(): void {
    const from = this.wordStartBefore();
    this.value = this.value.slice(0, from) + this.value.slice(this.pos);
    this.pos = from;
  }

  killToLineEnd(): void {
    const end = this.lineEnd();
    // At the end of a line, Ctrl+K joins the next one (like readline on a multi-line buffer).
    this.value = this.value.slice(0, this.pos) + this.value.slice(end === this.pos ? end + 1 : end);
  }

  killToLineStart(): void {
    const start = this.lineStart();
    this.value = this.value.slice(0, start) + this.value.slice(this.pos);
    this.pos = start;
  }

  get onFirstLine(): boolean {
    return this.value.lastIndexOf("\n", this.pos - 1) === -1;
  }

  get onLastLine(): boolean {
    return this.value.indexOf("\n", this.pos) === -1;
  }

  /** Moves to the previous/next line at the same column; false when there is none (history takes over). */
  lineUp(): boolean {
    if (this.onFirstLine) return false;
    const col = lineWidth(this.value.slice(this.lineStart(), this.pos));
    this.pos = this.lineStart() - 1;
    this.pos = this.atColumn(this.lineStart(), col);
    return true;
  }

  lineDown(): boolean {
    if (this.onLastLine) return false;
    const col = lineWidth(this.value.slice(this.lineStart(), this.pos));
    this.pos = this.lineEnd() + 1;
    this.pos = this.atColumn(this.pos, col);
    return true;
  }

  private atColumn(start: number, col: number): number {
    const nl = this.value.indexOf("\n", start);
    const line = this.value.slice(start, nl === -1 ? undefined : nl);
    let used = 0;
    let offset = start;
    let before = "";
    for (const g of graphemes(line)) {
      const w = cellWidth(g, before, used);
      before = g;
      if (used + w > col) break;
      used += w;
      offset += g.length;
    }
    return offset;
  }

  /**
   * Rows for a box `width` cells wide whose first row starts after `firstIndent` cells (the prompt) and
   * the others after `indent`. Rows break after a space when the word that does not fit is shorter than
   * a row (as a text field does), else by grapheme; the cursor sits on the row it will type into.
   */
  layout(width: number, firstIndent: number, indent = firstIndent): EditorLayout {
    // Asked for twice a frame and on every frame of a spinner: a long paste took 50-160 ms to lay out.
    const key = `${width},${firstIndent},${indent},${this.pos}`;
    if (this.laidOut?.value === this.value && this.laidOut.key === key) return this.laidOut.layout;
    const layout = this.computeLayout(width, firstIndent, indent);
    this.laidOut = { value: this.value, key, layout };
    return layout;
  }

  private computeLayout(width: number, firstIndent: number, indent: number): EditorLayout {
    type Cell = { g: string; w: number; offset: number };
    const rows: Cell[][] = [];
    /** Each logical line's rows: [first, last] indices into `rows`. */
    const lineRows: Array<[number, number]> = [];
    const lead = (row: number) => (row === 0 ? firstIndent : indent);
    let offset = 0;
    for (const line of this.value.split("\n")) {
      const first = rows.length;
      let row: Cell[] = [];
      let used = lead(rows.length);
      /** Cells since the line began (tab stops count from there). */
      let lineCol = 0;
      let before = "";
      for (const g of graphemes(line)) {
        const w = cellWidth(g, before, lineCol);
        lineCol += w;
        before = g;
        if (used + w > width && row.length > 0) {
          // Carry the word being typed to the next row, when it fits on one.
          const space = row.findLastIndex((c) => c.g === " ");
          const tail = space === -1 ? [] : row.slice(space + 1);
          const tailWidth = tail.reduce((n, c) => n + c.w, 0);
          const carry = space > 0 && tail.length > 0 && tailWidth + w <= width - indent;
          rows.push(carry ? row.slice(0, space + 1) : row);
          row = carry ? tail : [];
          used = lead(rows.length) + (carry ? tailWidth : 0);
        }
        row.push({ g, w, offset });
        used += w;
        offset += g.length;
      }
      rows.push(row);
      lineRows.push([first, rows.length - 1]);
      // The position just past the line: a cell-less spot the cursor can be at.
      offset += 1;
    }
    // The cursor: on the cell it stands before, or past the last cell of its line.
    let cursorRow = 0;
    let cursorCol = firstIndent;
    let found = false;
    for (let r = 0; r < rows.length && !found; r++) {
      let col = lead(r);
      for (const c of rows[r]!) {
        if (c.offset === this.pos) {
          cursorRow = r;
          cursorCol = col;
          found = true;
          break;
        }
        col += c.w;
      }
    }
    if (!found) {
      // At the end of a line: after its last row's cells, or at the start of a new row when that one is full.
      let start = 0;
      for (const [first, last] of lineRows) {
        const cells = rows.slice(first, last + 1).flat();
        const end = cells.length ? cells[cells.length - 1]!.offset + cells[cells.length - 1]!.g.length : start;
        if (end === this.pos || (cells.length === 0 && start === this.pos)) {
          const used = lead(last) + rows[last]!.reduce((n, c) => n + c.w, 0);
          if (used >= width) {
            rows.splice(last + 1, 0, []);
            cursorRow = last + 1;
            cursorCol = lead(last + 1);
          } else {
            cursorRow = last;
            cursorCol = used;
          }
          break;
        }
        start = end + 1;
      }
    }
    // A tab is drawn as the spaces up to its stop: the terminal would move the cursor, not paint cells.
    return { rows: rows.map((r) => r.map((c) => (c.g === "\t" ? " ".repeat(c.w) : c.g)).join("")), cursorRow, cursorCol };
  }
}

/**
 * Line breaks become `\n`; tabs are kept (they were turned into spaces once, and a file edited with [E]
 * came back indented with spaces on every line).
 */
function normalise(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/** Cells a grapheme takes `col` cells into its line: a tab reaches the next stop. */
function cellWidth(g: string, before: string, col: number): number {
  return g === "\t" ? TAB_STOP - (col % TAB_STOP) : graphemeWidth(g, before);
}

/** Cells of a line's text (no line breaks in it). */
function lineWidth(text: string): number {
  let col = 0;
  let before = "";
  for (const g of graphemes(text)) {
    col += cellWidth(g, before, col);
    before = g;
  }
  return col;
}
