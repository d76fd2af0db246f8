// The two rewind dialogs (issue 8): the list of points — user messages of the active branch, newest at
// the bottom, each with the size of a code rewind to it — and the confirm panel for one point, with the
// preview (files restored with +/−, conflicts, files that cannot be restored, git HEAD moved) and the
// modes as keys. Keys work on a Russian layout too (latinKey). Esc cancels both.
import { describeSkip, type RewindMode, type RewindPointStats, type RewindPreview, type OnConflict, type FileChange } from "../../main/checkpoints/index.js";
import type { KeyAction } from "../input/keymap.js";
import { fitLine, span, wrapStyled, type StyledLine } from "../text/styled-text.js";
import { stringWidth, truncateToWidth } from "../text/text-width.js";
import { latinKey, type ModalHost } from "./choice-dialog.js";
import { DialogBox, keyLegendRows, type Modal } from "./dialog-box.js";
import { formatAge } from "./session-picker.js";

/**
 * `2 files +3 −5`, `no code changes`, or `conversation only` (no checkpoint); files that differ but
 * cannot be restored (too large to back up) count too: `1 file, not restorable`, `3 files +1 −1, 1 not restorable`.
 */
export function pointStatsText(p: RewindPointStats): string {
  if (!p.hasCheckpoint) return "conversation only";
  if (p.files === 0) return "no code changes";
  const files = `${p.files} file${p.files === 1 ? "" : "s"}`;
  const unrestorable = p.unrestorable ?? 0;
  if (unrestorable === p.files) return `${files}, not restorable`;
  return `${files} +${p.insertions} −${p.deletions}${unrestorable ? `, ${unrestorable} not restorable` : ""}`;
}

/** A message's first line, for one-row lists. */
export function firstLine(message: string): string {
  const line = message.trim().split("\n")[0] ?? "";
  return message.trim().includes("\n") ? `${line} …` : line;
}

/** ↑/↓ select, Enter chooses, Esc closes. Starts on the newest point (the bottom row). */
export function pickRewindPoint(host: ModalHost, points: readonly RewindPointStats[]): Promise<RewindPointStats | null> {
  return new Promise((resolve) => {
    let selected = points.length - 1;
    const row = (p: RewindPointStats, i: number, width: number): StyledLine => {
      const stats = pointStatsText(p);
      const head = ` ${p.n}. `;
      const room = Math.max(4, width - stringWidth(head) - stringWidth(stats) - 3);
      const message = truncateToWidth(firstLine(p.message), room);
      const gap = " ".repeat(Math.max(2, width - stringWidth(head) - stringWidth(message) - stringWidth(stats) - 1));
      const role = i === selected ? "selected" : undefined;
      return fitLine([span(head + message, role), span(gap, role), span(stats, i === selected ? "selected" : "muted")], width, { text: " ", ...(role ? { role } : {}) });
    };
    const frame = new DialogBox(host.screen, host.painter, {
      title: [span("Rewind to before…", "accent", { bold: true })],
      body: (w) => points.map((p, i) => row(p, i, w)),
      footer: (w) => keyLegendRows([{ key: "↑↓", label: "choose" }, { key: "Enter", label: "preview" }, { key: "Esc", label: "close" }], w),
      focus: () => selected,
    });
    const modal: Modal = {
      handleKey(action: KeyAction | null) {
        if (action?.type === "escape") return finish(null);
        if (action?.type === "submit") return finish(points[selected] ?? null);
        if (action?.type === "up") selected = Math.max(0, selected - 1);
        else if (action?.type === "down") selected = Math.min(points.length - 1, selected + 1);
        else if (action?.type === "pageUp") selected = Math.max(0, selected - 10);
        else if (action?.type === "pageDown") selected = Math.min(points.length - 1, selected + 10);
        else return;
        host.requestRender();
      },
      layout: (area) => frame.layout(area),
      cursor: () => null,
      destroy: () => frame.destroy(),
    };
    const finish = (value: RewindPointStats | null) => {
      host.close(modal);
      resolve(value);
    };
    host.open(modal);
  });
}

export interface RewindChoice {
  mode: RewindMode;
  onConflict: OnConflict;
}

const MODE_KEYS: ReadonlyArray<{ key: string; label: string; mode: RewindMode; code: boolean }> = [
  { key: "b", label: "both", mode: "both", code: true },
  { key: "c", label: "conversation", mode: "conversation", code: false },
  { key: "k", label: "code", mode: "code", code: true },
  { key: "s", label: "summarize from here", mode: "summarize-from-here", code: false },
  { key: "u", label: "summarize up to here", mode: "summarize-up-to-here", code: false },
];

function changeRow(c: FileChange, width: number, role?: "warn"): StyledLine[] {
  const verb = c.action === "delete" ? "delete " : c.action === "create" ? "create " : "restore";
  return wrapStyled([span(`  ${verb} `, "muted"), span(c.path, role), span(`  +${c.insertions}`, "diffAdd"), span(` −${c.deletions}`, "diffDel")], width, [span("    ")]);
}

/** The preview as rows (also what the tests read). */
export function previewRows(preview: RewindPreview, width: number, now = Date.now()): StyledLine[] {
  const rows: StyledLine[] = [];
  const text = (t: string, role?: Parameters<typeof span>[1], indent = "") => rows.push(...wrapStyled([span(t, role)], width, indent ? [span(indent)] : []));
  const p = preview.point;
  text(`Message ${p.n} (${formatAge(now - p.at)}): ${firstLine(p.message)}`, undefined, "  ");
  rows.push([]);
  const code = preview.code;
  if (!code) text("No checkpoint for this message: only the conversation can be rewound.", "warn");
  else {
    const files = code.changes.length + code.conflicts.length;
    if (!files && !code.skipped.length) text("Code: no changes to restore (the files are as they were).", "muted");
    // A conflict is left alone unless [O]: counted apart, or "1 file" read as if it would be restored.
    else if (files) {
      const inConflict = code.conflicts.length ? `, ${code.conflicts.length} of them in conflict` : "";
      text(`Code: ${files} file${files === 1 ? "" : "s"}${inConflict} +${code.insertions} −${code.deletions}`, undefined);
    }
    for (const c of code.changes) rows.push(...changeRow(c, width));
    if (code.conflicts.length) {
      text("Conflicts — changed since by you or by a command; skipped unless [O] overwrite:", "warn");
      for (const c of code.conflicts) rows.push(...changeRow(c, width, "warn"));
    }
    if (code.skipped.length) {
      text("Cannot be restored:", "warn");
      for (const s of code.skipped) text(`  ${describeSkip(s)}`, "muted", "    ");
    }
  }
  const git = preview.git;
  if (git) {
    rows.push([]);
    text(`Git HEAD moved since this point (${git.recorded.slice(0, 10)} → ${git.current ? git.current.slice(0, 10) : "none"}). ipuaro never touches git; you could run:`, "warn");
    for (const cmd of git.commands) text(`  ${cmd}`, "code", "    ");
  }
  return rows;
}

export interface ConfirmRewindOptions {
  preview: RewindPreview;
  /** The mode Enter applies (`/rewind N mode`); default both, or conversation without a checkpoint. */
  mode?: RewindMode;
  now?: number;
}

/** The confirm panel: a mode key applies at once; Enter applies the preselected mode; O toggles overwrite. */
export function confirmRewind(host: ModalHost, opts: ConfirmRewindOptions): Promise<RewindChoice | null> {
  return new Promise((resolve) => {
    const { preview } = opts;
    const hasCode = preview.code !== null;
    const conflicts = preview.code?.conflicts.length ?? 0;
    const modes = MODE_KEYS.filter((m) => hasCode || !m.code);
    const preset = opts.mode && modes.some((m) => m.mode === opts.mode) ? opts.mode : hasCode ? "both" : "conversation";
    let onConflict: OnConflict = "skip";
    // Wrapped to the width: a narrow terminal cut the row, and [K] code or [U] could not be seen.
    const footer = (width: number): StyledLine[] => {
      const overwrite = { key: "o", label: `overwrite conflicts: ${onConflict === "overwrite" ? "on" : "off"}` };
      return [
        ...keyLegendRows(modes, width),
        ...keyLegendRows([{ key: "Enter", label: `apply ${preset}` }, { key: "Esc", label: "cancel" }, ...(conflicts ? [overwrite] : [])], width),
      ];
    };
    const frame = new DialogBox(host.screen, host.painter, {
      title: [span(`Rewind to before message ${preview.point.n}`, "accent", { bold: true })],
      body: (w) => previewRows(preview, w, opts.now),
      footer,
    });
    const modal: Modal = {
      handleKey(action: KeyAction | null, ch: string | undefined) {
        if (action?.type === "escape") return finish(null);
        if (action?.type === "submit") return finish({ mode: preset, onConflict });
        if (frame.handleScroll(action)) return host.requestRender();
        const key = action?.type === "insert" ? latinKey(ch) : null;
        if (key === "o" && conflicts) {
          onConflict = onConflict === "skip" ? "overwrite" : "skip";
          return host.requestRender();
        }
        const m = key ? modes.find((x) => x.key === key) : undefined;
        if (m) finish({ mode: m.mode, onConflict });
      },
      layout: (area) => frame.layout(area),
      cursor: () => null,
      destroy: () => frame.destroy(),
    };
    const finish = (value: RewindChoice | null) => {
      host.close(modal);
      resolve(value);
    };
    host.open(modal);
  });
}
