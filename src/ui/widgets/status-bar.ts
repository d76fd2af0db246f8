// The top line: `[ipuaro] [ctx: 12%] [project: name] [main] [47 min] ✓` plus index/watcher state and
// auto-apply. When the terminal is narrow, the least important parts are dropped first.
import blessed from "blessed";
import type { Widgets } from "blessed";
import { fitLine, lineWidth, span, type Span, type StyledLine } from "../text/styled-text.js";
import type { Role } from "../theme.js";
import { innerRect, type Painter } from "./paint.js";

export type Activity = "ready" | "thinking" | "error";

export interface StatusState {
  project: string;
  branch: string | null;
  /** Session start (ms epoch), for the elapsed time. */
  startedAt: number;
  /** Context fill 0–100, null before the first request. */
  contextPercent: number | null;
  activity: Activity;
  /** e.g. `indexing 45%`, `watching`, `watcher ✗`; null = nothing to say. */
  index: string | null;
  indexRole?: Role;
  autoApply: boolean;
}

const ACTIVITY: Record<Activity, { mark: string; role: Role }> = {
  ready: { mark: "✓", role: "status" },
  thinking: { mark: "⟳", role: "status" },
  error: { mark: "✗", role: "status" },
};

/** The session's age: `12 min`, `1 h 05`. (`[0m]` read like a leaked colour code.) */
export function formatElapsed(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")}`;
}

interface Part {
  spans: Span[];
  /** Lower goes first when space is short. */
  priority: number;
}

export function formatStatus(s: StatusState, width: number, now = Date.now()): StyledLine {
  const act = ACTIVITY[s.activity];
  const parts: Part[] = [
    { spans: [span("[ipuaro]", undefined, { bold: true })], priority: 9 },
    { spans: [span(`[ctx: ${s.contextPercent === null ? "–" : `${Math.round(s.contextPercent)}%`}]`)], priority: 8 },
    { spans: [span(`[project: ${s.project}]`)], priority: 6 },
    ...(s.branch ? [{ spans: [span(`[${s.branch}]`)], priority: 4 }] : []),
    { spans: [span(`[${formatElapsed(now - s.startedAt)}]`)], priority: 3 },
    ...(s.index ? [{ spans: [span(`[${s.index}]`, s.indexRole)], priority: 5 }] : []),
    ...(s.autoApply ? [{ spans: [span("[auto-apply]", undefined, { bold: true })], priority: 7 }] : []),
    { spans: [span(act.mark, act.role, { bold: true })], priority: 10 },
  ];
  const build = (ps: Part[]): StyledLine => ps.flatMap((p, i) => (i === 0 ? p.spans : [{ text: "  " }, ...p.spans]));
  let kept = parts;
  let line = build(kept);
  while (lineWidth(line) + 2 > width && kept.length > 1) {
    const lowest = kept.reduce((a, b) => (b.priority < a.priority ? b : a));
    kept = kept.filter((p) => p !== lowest);
    line = build(kept);
  }
  return fitLine([{ text: " " }, ...line], width);
}

export class StatusBar {
  readonly box: Widgets.BoxElement;

  constructor(
    screen: Widgets.Screen,
    painter: Painter,
    private readonly state: () => StatusState,
  ) {
    this.box = blessed.box({ parent: screen, top: 0, left: 0, width: "100%", height: 1 });
    this.box.on("render", () => {
      const rect = innerRect(this.box);
      if (rect) painter.paint(screen, rect, [formatStatus(this.state(), rect.width)], "status");
    });
  }
}
