// The prompt at the bottom: a rule, an optional hint row (completions, "busy" notes), then the text
// being typed after `> `, growing with its lines up to a third of the screen. The real terminal cursor
// is put where the next character goes, so IMEs and screen readers follow it.
import blessed from "blessed";
import type { Widgets } from "blessed";
import { span, truncateStyled, wrapStyled, type StyledLine } from "../text/styled-text.js";
import { truncateToWidth } from "../text/text-width.js";
import { innerRect, type Painter } from "../widgets/paint.js";
import { InputHistory } from "./input-history.js";
import { LineEditor } from "./line-editor.js";

export const PROMPT = "> ";
const INDENT = "  ";
const MAX_ROWS = 10;
/** A hint longer than this many rows ends in … (it is a note, not a text to read in full). */
const MAX_HINT_ROWS = 3;

export class InputLine {
  readonly box: Widgets.BoxElement;
  readonly editor = new LineEditor();
  readonly history = new InputHistory();
  private hintLine: StyledLine | null = null;
  /** Set after each paint: where the cursor goes on the screen. */
  private cursorAt: { x: number; y: number } | null = null;

  constructor(
    private readonly screen: Widgets.Screen,
    private readonly painter: Painter,
  ) {
    this.box = blessed.box({ parent: screen, bottom: 0, left: 0, width: "100%", height: 2 });
    this.box.on("render", () => this.paint());
  }

  get hint(): StyledLine | null {
    return this.hintLine;
  }

  setHint(line: StyledLine | null): void {
    this.hintLine = line;
  }

  private maxRows(): number {
    return Math.max(1, Math.min(MAX_ROWS, Math.floor((this.screen.height as number) / 3)));
  }

  /**
   * The hint wrapped to the width: cut to one row, a hint lost its end on a narrow terminal (the queued
   * message's "Esc or Ctrl+C stops the turn and returns it" was never seen at 80 columns).
   */
  private hintRows(width: number, maxRows = MAX_HINT_ROWS): StyledLine[] {
    if (!this.hintLine || maxRows <= 0) return [];
    const rows = wrapStyled(this.hintLine, Math.max(1, width), [span(" ")]);
    if (rows.length <= maxRows) return rows;
    const kept = rows.slice(0, maxRows);
    kept[maxRows - 1] = truncateStyled([...kept[maxRows - 1]!, span(" …")], width);
    return kept;
  }

  /** Rows the box needs at this width: the rule, the hint, the text. */
  desiredHeight(width: number): number {
    const rows = this.editor.layout(Math.max(4, width - 1), PROMPT.length, INDENT.length).rows.length;
    return 1 + this.hintRows(width).length + Math.min(this.maxRows(), rows);
  }

  private paint(): void {
    const rect = innerRect(this.box);
    if (!rect || rect.height <= 0) return;
    const width = Math.max(4, rect.width - 1);
    const layout = this.editor.layout(width, PROMPT.length, INDENT.length);
    const lines: StyledLine[] = [[span("─".repeat(rect.width), "border")]];
    // At least one row of text stays under the hint on a short terminal.
    lines.push(...this.hintRows(rect.width, Math.min(MAX_HINT_ROWS, rect.height - 2)));
    const room = Math.max(1, rect.height - lines.length);
    // Keep the cursor's row in view when the text is taller than the box.
    const first = Math.max(0, Math.min(layout.cursorRow - room + 1, layout.rows.length - room));
    const shown = layout.rows.slice(first, first + room);
    shown.forEach((row, i) => {
      const lead = first + i === 0 ? span(PROMPT, "accent", { bold: true }) : span(INDENT);
      lines.push([lead, { text: truncateToWidth(row, width) }]);
    });
    this.painter.paint(this.screen, rect, lines);
    this.cursorAt = { x: rect.x + layout.cursorCol, y: rect.y + lines.length - shown.length + (layout.cursorRow - first) };
  }

  /** Shows the terminal cursor at the insertion point (call after the screen rendered). */
  showCursor(): void {
    const program = this.screen.program;
    if (!this.cursorAt) return;
    program.cup(this.cursorAt.y, this.cursorAt.x);
    program.showCursor();
  }

  hideCursor(): void {
    this.screen.program.hideCursor();
  }

  /** Submits: returns the text, or null to keep editing when a trailing `\` (with `continuation`) asked for a new line. */
  takeSubmission(continuation = true): string | null {
    const text = this.editor.text;
    if (continuation && text.endsWith("\\") && this.editor.cursor === text.length) {
      this.editor.set(text.slice(0, -1));
      this.editor.insert("\n");
      return null;
    }
    this.editor.clear();
    return text;
  }
}
