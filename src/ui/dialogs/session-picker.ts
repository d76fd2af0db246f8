// `/sessions`: the project's sessions, newest first. ↑/↓ select, Enter loads, D deletes (after a Y/N
// confirmation; the current session cannot be deleted), Esc closes.
import type { ListedSession } from "../app/tui-backend.js";
import type { KeyAction } from "../input/keymap.js";
import { fitLine, span, truncateStyled, wrapStyled, type StyledLine } from "../text/styled-text.js";
import { stringWidth, truncateToWidth } from "../text/text-width.js";
import { latinKey, type ModalHost } from "./choice-dialog.js";

/** Rows PgUp/PgDn move the selection by. */
const PAGE = 10;
import { DialogBox, keyLegendRows, type Modal } from "./dialog-box.js";

export interface SessionPickerOptions {
  sessions: ListedSession[];
  currentId: string;
  remove(id: string): Promise<void>;
  /** Who has the session open now (the list may be stale: the other ipuaro may have quit since). */
  openElsewhere?(id: string): Promise<string | null>;
  now?: number;
}

export function formatAge(ms: number): string {
  const m = Math.floor(ms / 60_000);
  if (m < 1) return "just now";
  if (m < 60) return `${m}m ago`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ago`;
  return `${Math.floor(h / 24)}d ago`;
}

/** Fewer cells than this of the first message say nothing: it is left out for the status. */
const MIN_TITLE_CELLS = 8;

/**
 * The first message and the status (`  (open in the UI (pid 7783, since 14:05))`) in `room` cells: the
 * message gives way first, cut with `…` (a row cut at the border ended mid-word inside the status's
 * brackets); with no room left for it the status is cut too.
 */
export function fitTitleAndStatus(title: string, status: string, room: number): [string, string] {
  if (room <= 0) return ["", ""];
  const statusWidth = stringWidth(status);
  if (stringWidth(title) + statusWidth <= room) return [title, status];
  if (!status) return [truncateToWidth(title, room), ""];
  if (room - statusWidth >= MIN_TITLE_CELLS) return [truncateToWidth(title, room - statusWidth), status];
  return ["", truncateToWidth(status.trimStart(), room)];
}

export function pickSession(host: ModalHost, opts: SessionPickerOptions): Promise<string | null> {
  return new Promise<string | null>((resolve) => {
    const list = [...opts.sessions];
    let selected = Math.max(0, list.findIndex((s) => s.id === opts.currentId));
    let confirming: string | null = null;
    let note: StyledLine | null = null;
    const now = opts.now ?? Date.now();
    const row = (s: ListedSession, i: number, width: number): StyledLine => {
      const mark = s.id === opts.currentId ? "●" : s.openElsewhere ? "◌" : " ";
      const head = ` ${mark} ${s.id}  ${String(s.messages).padStart(4)} ${(s.messages === 1 ? "message" : "messages").padEnd(8)}  ${formatAge(now - s.lastActivityAt).padEnd(8)}  `;
      const style = i === selected ? "selected" : undefined;
      const status = s.openElsewhere ? `  (open in ${s.openElsewhere})` : "";
      const [title, shownStatus] = fitTitleAndStatus(s.title, status, width - stringWidth(head));
      const line = [span(head + title, style), ...(shownStatus ? [span(shownStatus, style ?? "muted")] : [])];
      return fitLine(truncateStyled(line, width), width, { text: " ", ...(style ? { role: style } : {}) });
    };
    /**
     * Said at once for a session another ipuaro has open: loading or deleting it would be refused. The
     * mark is checked again first: the other ipuaro may have quit since the list was read.
     */
    const stillOpenElsewhere = async (s: ListedSession, what: string): Promise<boolean> => {
      if (!s.openElsewhere) return false;
      const now = opts.openElsewhere ? await opts.openElsewhere(s.id).catch(() => s.openElsewhere ?? null) : s.openElsewhere;
      if (!now) {
        delete s.openElsewhere;
        return false;
      }
      s.openElsewhere = now;
      note = [span(` ${s.id} is open in ${now}: close it there to ${what} it here.`, "warn")];
      host.requestRender();
      return true;
    };
    const frame = new DialogBox(host.screen, host.painter, {
      // A getter: the box reads it at each paint, so the count follows deletions.
      get title() {
        return [span(`Sessions (${list.length})`, "accent", { bold: true })];
      },
      body: (w) => (list.length ? list.map((s, i) => row(s, i, w)) : [[span("No sessions yet.", "muted")]]),
      focus: () => selected,
      // Wrapped to the width: on a narrow terminal one row was cut and [ESC] close or [N] keep hidden.
      footer: (w) => [
        ...(confirming
          ? [
              ...wrapStyled([span(` Delete session ${confirming}?`, "warn", { bold: true })], w),
              ...keyLegendRows([{ key: "y", label: "delete" }, { key: "n", label: "keep" }], w),
            ]
          : keyLegendRows([{ key: "Enter", label: "load" }, { key: "d", label: "delete" }, { key: "Esc", label: "close" }], w)),
        ...(note ? wrapStyled(note, w) : []),
      ],
    });
    const modal: Modal = {
      handleKey(action: KeyAction | null, ch: string | undefined) {
        const key = action?.type === "insert" ? latinKey(ch) : null;
        if (confirming) {
          if (key === "y") void remove(confirming);
          else if (key === "n" || action?.type === "escape") confirming = null;
          return host.requestRender();
        }
        if (action?.type === "escape") return finish(null);
        if (action?.type === "up") selected = Math.max(0, selected - 1);
        else if (action?.type === "down") selected = Math.min(list.length - 1, selected + 1);
        // The footer offers PgUp/PgDn for a long list: they move the selection a page, as in /rewind.
        else if (action?.type === "pageUp") selected = Math.max(0, selected - PAGE);
        else if (action?.type === "pageDown") selected = Math.min(list.length - 1, selected + PAGE);
        else if (action?.type === "home") selected = 0;
        else if (action?.type === "end") selected = list.length - 1;
        else if (action?.type === "submit" && list[selected]) {
          const s = list[selected]!;
          if (!s.openElsewhere) return finish(s.id);
          void stillOpenElsewhere(s, "load").then((held) => held || finish(s.id));
          return;
        } else if (key === "d" && list[selected]) {
          const s = list[selected]!;
          // A note answers the action that caused it; the next action starts without it.
          if (s.id === opts.currentId) note = [span(" The current session cannot be deleted; load another one first.", "warn")];
          else if (s.openElsewhere) {
            void stillOpenElsewhere(s, "delete").then((held) => {
              if (held) return;
              note = null;
              confirming = s.id;
              host.requestRender();
            });
            return;
          } else {
            note = null;
            confirming = s.id;
          }
        } else return;
        host.requestRender();
      },
      layout: (area) => frame.layout(area),
      cursor: () => null,
      destroy: () => frame.destroy(),
    };
    const remove = async (id: string) => {
      confirming = null;
      try {
        await opts.remove(id);
        const i = list.findIndex((s) => s.id === id);
        if (i !== -1) list.splice(i, 1);
        selected = Math.min(selected, Math.max(0, list.length - 1));
        note = [span(` Deleted ${id}.`, "muted")];
      } catch (error) {
        note = [span(` Could not delete ${id}: ${error instanceof Error ? error.message : String(error)}`, "error")];
      }
      frame.layout();
      host.requestRender();
    };
    const finish = (value: string | null) => {
      host.close(modal);
      resolve(value);
    };
    host.open(modal);
  });
}
