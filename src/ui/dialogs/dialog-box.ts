// The frame every dialog uses: a bordered box centred in the rows above the prompt, a title row, a
// scrollable body (↑/↓, PgUp/PgDn) and a fixed footer with the key choices. Content is painted by ipuaro,
// not blessed; a row wider than the box ends in `…`, and on a short terminal the blank rows go first.
import blessed from "blessed";
import type { Widgets } from "blessed";
import type { KeyAction } from "../input/keymap.js";
import { lineWidth, span, truncateStyled, type StyledLine } from "../text/styled-text.js";
import { innerRect, type Painter } from "../widgets/paint.js";

export interface DialogContent {
  /** The title, or the title for an inner width (a path shortened to fit). */
  title: StyledLine | ((width: number) => StyledLine);
  /** Rows of the body for an inner width. */
  body(width: number): StyledLine[];
  footer(width: number): StyledLine[];
  /** The body row to keep in view (a list's selection), also when the terminal is resized. */
  focus?(): number;
}

/** The screen rows a dialog may take: those between the status bar and the prompt. */
export interface DialogArea {
  top: number;
  height: number;
}

/** What the app's modal stack needs from an open dialog. */
export interface Modal {
  handleKey(action: KeyAction | null, ch: string | undefined): void;
  /** Re-sizes to the screen (before each frame), within `area`. */
  layout(area: DialogArea): void;
  /** Where the terminal cursor should be shown, or null to hide it. */
  cursor(): { x: number; y: number } | null;
  destroy(): void;
}

const MAX_WIDTH = 110;
/** A dialog is at least this tall (borders, title, one row, the keys) when the area has the rows. */
const MIN_HEIGHT = 5;

export class DialogBox {
  readonly box: Widgets.BoxElement;
  private scroll = 0;
  private bodyHeight = 1;
  /** Where the last layout put it (until the app's first: the screen less a row). */
  private area: DialogArea | null = null;

  /** `fill`: take the area's whole height (an editor). */
  constructor(
    private readonly screen: Widgets.Screen,
    private readonly painter: Painter,
    private readonly content: DialogContent,
    private readonly opts: { maxWidth?: number; fill?: boolean; scrollMarks?: boolean } = {},
  ) {
    const border = painter.theme.roles.border;
    this.box = blessed.box({
      parent: screen,
      top: 0,
      left: "center",
      width: 10,
      height: 5,
      border: { type: "line" },
      style: { border: { ...(border.fg !== undefined ? { fg: border.fg as string } : {}) } },
    });
    this.box.on("render", () => this.paint());
    this.layout();
  }

  private innerWidth(): number {
    return Math.max(10, this.width() - 4);
  }

  private width(): number {
    return Math.max(20, Math.min((this.screen.width as number) - 2, this.opts.maxWidth ?? MAX_WIDTH));
  }

  /**
   * Sizes the box to its content within `area` (the last one given when none is), centred in it: drawn
   * over the whole screen, a dialog on a short terminal covered the prompt with its bottom border.
   */
  layout(area?: DialogArea): void {
    if (area) this.area = area;
    const { top, height } = this.area ?? { top: 0, height: Math.max(1, (this.screen.height as number) - 1) };
    const inner = this.innerWidth();
    const body = this.content.body(inner).length;
    const footer = this.content.footer(inner).length;
    const wanted = this.opts.fill ? height : 1 + 1 + body + 1 + footer + 2;
    const rows = Math.max(1, Math.min(height, Math.max(MIN_HEIGHT, wanted)));
    this.box.width = this.width();
    this.box.height = rows;
    this.box.top = top + Math.floor((height - rows) / 2);
  }

  scrollBy(rows: number): void {
    this.scroll = Math.max(0, this.scroll + rows);
  }

  /**
   * Rows one PgUp/PgDn moves: the rows of text in view less one kept for context. The `↑/↓ N more` marks
   * take a row each, so with them a page is two rows shorter (a whole body height skipped a row a page).
   */
  get pageRows(): number {
    return Math.max(1, this.bodyHeight - (this.opts.scrollMarks !== false ? 3 : 1));
  }

  /** ↑/↓/PgUp/PgDn scroll the body; returns true when the key was one of those. */
  handleScroll(action: KeyAction | null): boolean {
    if (!action) return false;
    const page = this.pageRows;
    if (action.type === "up") this.scrollBy(-1);
    else if (action.type === "down") this.scrollBy(1);
    else if (action.type === "pageUp") this.scrollBy(-page);
    else if (action.type === "pageDown") this.scrollBy(page);
    else return false;
    return true;
  }

  /** The first body row in view (after the last paint). */
  get scrollTop(): number {
    return this.scroll;
  }

  /** Top-left of the body area after the last paint (for a cursor inside the body). */
  bodyOrigin: { x: number; y: number } | null = null;

  private paint(): void {
    const inner = innerRect(this.box);
    if (!inner || inner.height <= 0) return;
    // One column of air on each side of the text.
    const rect = { ...inner, x: inner.x + 1, width: Math.max(1, inner.width - 2) };
    const footer = this.content.footer(rect.width);
    const body = this.content.body(rect.width);
    // The blank rows under the title and over the keys give way to the body's rows on a short terminal.
    const room = rect.height - 1 - footer.length;
    const gaps = body.length + 2 <= room || room >= 10 ? 2 : room >= 6 ? 1 : 0;
    this.bodyHeight = Math.max(1, room - gaps);
    const marks = this.opts.scrollMarks !== false;
    const focus = this.content.focus?.();
    if (focus !== undefined) this.scroll = scrollShowing(focus, this.scroll, body.length, this.bodyHeight, marks);
    this.scroll = Math.min(this.scroll, Math.max(0, body.length - this.bodyHeight));
    const visible = body.slice(this.scroll, this.scroll + this.bodyHeight);
    const below = body.length - this.scroll - this.bodyHeight;
    if (marks) {
      // Muted, not reversed: in the selected row's style a mark read as the selection.
      // A mark takes the place of a row, which it counts too.
      const last = visible.length - 1;
      if (below > 0 && this.scroll + last !== focus) visible[last] = [span(` ↓ ${below + 1} more (PgDn/↓) `, "muted")];
      if (this.scroll > 0 && visible.length && this.scroll !== focus) visible[0] = [span(` ↑ ${this.scroll + 1} more (PgUp/↑) `, "muted")];
    }
    while (visible.length < this.bodyHeight) visible.push([]);
    const title = typeof this.content.title === "function" ? this.content.title(rect.width) : this.content.title;
    const rows: StyledLine[] = [title, ...(gaps === 2 ? [[]] : []), ...visible, ...(gaps > 0 ? [[]] : []), ...footer];
    // A row wider than the dialog (a long path or key label on a narrow terminal) ends in … rather than
    // at the border mid-word.
    this.painter.paint(this.screen, rect, rows.map((r) => truncateStyled(r, rect.width)));
    this.bodyOrigin = { x: rect.x, y: rect.y + (gaps === 2 ? 2 : 1) };
  }

  destroy(): void {
    this.box.destroy();
  }
}

/**
 * The scroll (nearest to `scroll`) that shows body row `row` in a window of `height` rows, not under a
 * `↑/↓ N more` mark: a list shrunk by a resize kept its selection out of view.
 */
export function scrollShowing(row: number, scroll: number, total: number, height: number, marks: boolean): number {
  const max = Math.max(0, total - height);
  const shows = (s: number): boolean => {
    const top = marks && s > 0 ? 1 : 0;
    const bottom = marks && total - s - height > 0 ? 1 : 0;
    return row >= s + top && row <= s + height - 1 - bottom;
  };
  const from = Math.min(Math.max(0, scroll), max);
  if (shows(from)) return from;
  const step = row - from < height / 2 ? -1 : 1;
  for (let s = from; s >= 0 && s <= max; s += step) if (shows(s)) return s;
  // Too few rows for the marks as well: the row itself, the mark left off it.
  return Math.min(max, Math.max(0, row - height + 1));
}

/** One key of a legend; `keyText` is shown as written (`Ctrl+S`) instead of upper-cased. */
export interface LegendKey {
  key: string;
  label: string;
  keyText?: string;
}

/** `[Y] apply  [N] reject …` as one footer row. */
export function keyLegend(choices: ReadonlyArray<LegendKey>): StyledLine {
  return choices.flatMap((c, i) => [...(i ? [span("  ")] : [span(" ")]), span(`[${c.keyText ?? c.key.toUpperCase()}]`, "accent", { bold: true }), span(` ${c.label}`)]);
}

/**
 * The same legend in as many rows as `width` needs, a choice never split: on a narrow terminal one row
 * was cut, and the last choice (`[N] no`) could not be seen.
 */
export function keyLegendRows(choices: ReadonlyArray<LegendKey>, width: number): StyledLine[] {
  const rows: StyledLine[] = [];
  let row: LegendKey[] = [];
  for (const choice of choices) {
    const next = [...row, choice];
    if (row.length && lineWidth(keyLegend(next)) > width) {
      rows.push(keyLegend(row));
      row = [choice];
    } else row = next;
  }
  if (row.length) rows.push(keyLegend(row));
  return rows;
}
