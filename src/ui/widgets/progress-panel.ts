// The indexing progress bar inside the UI (first start, /reindex): a row above the prompt with the
// phase, a bar and the counts. The index runs in worker threads, so the UI keeps drawing meanwhile.
import blessed from "blessed";
import type { Widgets } from "blessed";
import { span, type StyledLine } from "../text/styled-text.js";
import { innerRect, type Painter } from "./paint.js";

export interface ProgressState {
  label: string;
  done: number;
  /** 0 = unknown (a spinner-less text line). */
  total: number;
  unit: string;
  /** The status bar's word for it ("indexing…" when absent). */
  status?: string;
}

export function formatProgress(p: ProgressState, width: number): StyledLine {
  if (p.total <= 0) return [span(` ${p.label}`, "muted")];
  const ratio = Math.min(1, p.done / p.total);
  const counts = ` ${Math.round(ratio * 100)}% ${p.done.toLocaleString("en-US")}/${p.total.toLocaleString("en-US")} ${p.unit}`;
  const barWidth = Math.max(5, Math.min(40, width - p.label.length - counts.length - 4));
  const full = Math.round(ratio * barWidth);
  return [span(` ${p.label} `), span("█".repeat(full), "progress"), span("░".repeat(barWidth - full), "muted"), span(counts)];
}

export class ProgressPanel {
  readonly box: Widgets.BoxElement;
  state: ProgressState | null = null;

  constructor(screen: Widgets.Screen, painter: Painter) {
    this.box = blessed.box({ parent: screen, left: 0, width: "100%", height: 1, hidden: true });
    this.box.on("render", () => {
      const rect = innerRect(this.box);
      if (rect && this.state) painter.paint(screen, rect, [formatProgress(this.state, rect.width)]);
    });
  }

  get visible(): boolean {
    return this.state !== null;
  }
}
