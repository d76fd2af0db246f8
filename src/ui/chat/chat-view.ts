// The scrollable chat pane. Entries are wrapped once per (version, width) and cached; only the visible
// window is painted, so a long session costs nothing per frame. It follows the tail until the user
// scrolls up (PgUp, mouse wheel), and then stays put while the answer streams on below.
import blessed from "blessed";
import type { Widgets } from "blessed";
import { span, type StyledLine } from "../text/styled-text.js";
import { innerRect, type Painter } from "../widgets/paint.js";
import { renderEntry, type ChatRenderOptions } from "./chat-render.js";
import type { ChatEntry, Transcript } from "./transcript.js";

const WHEEL_STEP = 3;

interface CachedRows {
  version: number;
  width: number;
  rows: StyledLine[];
}

export class ChatView {
  readonly box: Widgets.BoxElement;
  private readonly cache = new Map<number, CachedRows>();
  /** First visible row; null = follow the newest row. */
  private top: number | null = null;
  private lastHeight = 1;

  constructor(
    screen: Widgets.Screen,
    private readonly painter: Painter,
    private readonly transcript: Transcript,
    private readonly opts: ChatRenderOptions,
    private readonly onChange: () => void,
  ) {
    this.box = blessed.box({ parent: screen, top: 1, left: 0, width: "100%", height: 1, mouse: true });
    this.box.on("render", () => this.paint(screen));
    this.box.on("wheelup", () => this.scrollBy(-WHEEL_STEP));
    this.box.on("wheeldown", () => this.scrollBy(WHEEL_STEP));
  }

  private rowsOf(entry: ChatEntry, width: number): StyledLine[] {
    const hit = this.cache.get(entry.id);
    if (hit && hit.version === entry.version && hit.width === width) return hit.rows;
    const rows = renderEntry(entry, width, this.opts);
    this.cache.set(entry.id, { version: entry.version, width, rows });
    return rows;
  }

  /** Every row of the transcript at this width, a blank row between entries. */
  allRows(width: number): StyledLine[] {
    const out: StyledLine[] = [];
    const live = new Set<number>();
    for (const entry of this.transcript.entries) {
      live.add(entry.id);
      if (out.length) out.push([]);
      out.push(...this.rowsOf(entry, width));
    }
    for (const id of this.cache.keys()) if (!live.has(id)) this.cache.delete(id);
    return out;
  }

  /**
   * Columns the entries are drawn in. One column stays free on the right: some terminals draw a wide char
   * in the last column oddly.
   */
  rowWidth(): number {
    return Math.max(1, (innerRect(this.box)?.width ?? (this.box.width as number)) - 1);
  }

  get following(): boolean {
    return this.top === null;
  }

  scrollBy(rows: number): void {
    const total = this.allRows(this.rowWidth()).length;
    const maxTop = Math.max(0, total - this.lastHeight);
    const current = this.top ?? maxTop;
    const next = Math.min(maxTop, Math.max(0, current + rows));
    this.top = next >= maxTop ? null : next;
    this.onChange();
  }

  pageUp(): void {
    this.scrollBy(-Math.max(1, this.lastHeight - 1));
  }

  pageDown(): void {
    this.scrollBy(Math.max(1, this.lastHeight - 1));
  }

  /**
   * Follows the newest row, except that an entry taller than the pane (/help, /analyze's tables) is shown
   * from its first row: following, only its tail was seen and the user had to page up to find its start.
   */
  reveal(id: number): void {
    const width = this.rowWidth();
    const rows = this.allRows(width);
    let start = 0;
    let found = -1;
    for (const entry of this.transcript.entries) {
      if (start > 0) start++; // the blank row between entries
      if (entry.id === id) {
        found = start;
        break;
      }
      start += this.rowsOf(entry, width).length;
    }
    const maxTop = Math.max(0, rows.length - this.lastHeight);
    this.top = found >= 0 && found < maxTop ? found : null;
    this.onChange();
  }

  /** Back to the newest row (a new message was sent). */
  follow(): void {
    this.top = null;
    this.onChange();
  }

  private paint(screen: Widgets.Screen): void {
    const rect = innerRect(this.box);
    if (!rect || rect.height <= 0) return;
    const rows = this.allRows(this.rowWidth());
    this.lastHeight = rect.height;
    const maxTop = Math.max(0, rows.length - rect.height);
    if (this.top !== null && this.top >= maxTop) this.top = null;
    const top = this.top ?? maxTop;
    const visible = rows.slice(top, top + rect.height);
    const below = rows.length - (top + rect.height);
    if (below > 0 && visible.length === rect.height) {
      visible[visible.length - 1] = [span(` ↓ ${below} more line${below === 1 ? "" : "s"} (PgDn) `, "selected")];
    }
    this.painter.paint(screen, rect, visible);
  }
}
