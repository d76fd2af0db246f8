// The frame every dialog uses: a bordered box centred over the chat, a title row, a scrollable body
// (↑/↓, PgUp/PgDn) and a fixed footer with the key choices. Content is painted by ipuaro, not blessed.
import blessed from "blessed";
import type { Widgets } from "blessed";
import type { KeyAction } from "../input/keymap.js";
import { lineWidth, span, truncateStyled, type StyledLine } from "../text/styled-text.js";
import { innerRect, type Painter } from "../widgets/paint.js";

export interface DialogContent {
  title: StyledLine;
  /** Rows of the body for an inner width. */
  body(width: number): StyledLine[];
  footer(width: number): StyledLine[];
}

/** What the app's modal stack needs from an open dialog. */
export interface Modal {
  handleKey(action: KeyAction | null, ch: string | undefined): void;
  /** Re-sizes to the screen (before each frame). */
  layout(): void;
  /** Where the terminal cursor should be shown, or null to hide it. */
  cursor(): { x: number; y: number } | null;
  destroy(): void;
}

const MAX_WIDTH = 110;

export class DialogBox {
  readonly box: Widgets.BoxElement;
  private scroll = 0;
  private bodyHeight = 1;

  constructor(
    private readonly screen: Widgets.Screen,
    private readonly painter: Painter,
    private readonly content: DialogContent,
    private readonly opts: { maxWidth?: number; minHeight?: number; scrollMarks?: boolean } = {},
  ) {
    const border = painter.theme.roles.border;
    this.box = blessed.box({
      parent: screen,
      top: "center",
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

  layout(): void {
    const inner = this.innerWidth();
    const body = this.content.body(inner).length;
    const footer = this.content.footer(inner).length;
    const wanted = Math.max(this.opts.minHeight ?? 0, 1 + 1 + body + 1 + footer + 2);
    this.box.width = this.width();
    this.box.height = Math.max(5, Math.min((this.screen.height as number) - 1, wanted));
  }

  scrollBy(rows: number): void {
    this.scroll = Math.max(0, this.scroll + rows);
  }

  /** Rows one PgUp/PgDn moves: the body's height less one row kept for context. */
  get pageRows(): number {
    return Math.max(1, this.bodyHeight - 1);
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

  /** Scrolls so that body row `row` is visible (a cursor inside the body). Returns the row's offset on screen. */
  ensureVisible(row: number): number {
    if (row < this.scroll) this.scroll = row;
    else if (row >= this.scroll + this.bodyHeight) this.scroll = row - this.bodyHeight + 1;
    return row - this.scroll;
  }

  /** Top-left of the body area after the last paint (for a cursor inside the body). */
  bodyOrigin: { x: number; y: number } | null = null;

  private paint(): void {
    const inner = innerRect(this.box);
    if (!inner || inner.height <= 0) return;
    // One column of air on each side of the text.
    const rect = { ...inner, x: inner.x + 1, width: Math.max(1, inner.width - 2) };
    const footer = this.content.footer(rect.width);
    this.bodyHeight = Math.max(1, rect.height - 2 - footer.length - 1);
    const body = this.content.body(rect.width);
    this.scroll = Math.min(this.scroll, Math.max(0, body.length - this.bodyHeight));
    const visible = body.slice(this.scroll, this.scroll + this.bodyHeight);
    const below = body.length - this.scroll - this.bodyHeight;
    if (this.opts.scrollMarks !== false) {
      if (below > 0) visible[visible.length - 1] = [span(` ↓ ${below} more (PgDn/↓) `, "selected")];
      if (this.scroll > 0 && visible.length) visible[0] = [span(` ↑ ${this.scroll} more (PgUp/↑) `, "selected")];
    }
    while (visible.length < this.bodyHeight) visible.push([]);
    // A title wider than the dialog (a long path in a narrow terminal) ends in … rather than mid-word.
    const rows: StyledLine[] = [truncateStyled(this.content.title, rect.width), [], ...visible, [], ...footer];
    this.painter.paint(this.screen, rect, rows);
    this.bodyOrigin = { x: rect.x, y: rect.y + 2 };
  }

  destroy(): void {
    this.box.destroy();
  }
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
