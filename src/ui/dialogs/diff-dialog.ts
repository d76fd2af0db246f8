// Edit confirmation (seed 000 "Подтверждение изменений"): the file and line range, the model's
// description, the diff with syntax and inline highlights, then `[Y] apply [N] reject [E] edit`. E opens
// the proposed content in $EDITOR (or the inline editor) and applies what the user saved. With
// edit.showDiff off the dialog shows a one-line summary of the change, and D shows the diff anyway.
import type { EditDecision, EditProposal } from "../../main/tools/tool-types.js";
import type { KeyAction } from "../input/keymap.js";
import { shortenPath } from "../text/path-fit.js";
import { span, wrapStyled, type StyledLine } from "../text/styled-text.js";
import { stringWidth } from "../text/text-width.js";
import { latinKey, type ModalHost } from "./choice-dialog.js";
import { DialogBox, keyLegendRows, type Modal } from "./dialog-box.js";
import { diffSummary, renderDiff, type DiffRenderOptions } from "./diff-render.js";

/** Opens the content for editing; resolves with what the user saved, or null when they gave up. */
export type ContentEditor = (content: string, path: string) => Promise<string | null>;

export interface DiffDialogOptions extends DiffRenderOptions {
  showDescription: boolean;
  /** edit.showDiff; default true. */
  showDiff?: boolean;
  editContent: ContentEditor;
}

/**
 * `edit_lines packages/core/src/money.ts (lines 3-9)`, in `width` cells: the folders in the middle of the
 * path give way first (`packages/…/money.ts`), then the range (the diff shows the lines), then the first
 * folder; the file name stays.
 */
export function proposalTitle(p: EditProposal, width = Infinity): string {
  const what = `${p.newContent === null ? "delete" : p.tool === "create_file" ? "create" : p.tool} `;
  const range = p.range ? (p.range.end >= p.range.start ? ` (lines ${p.range.start}-${p.range.end})` : ` (insert before line ${p.range.start})`) : "";
  const room = width - stringWidth(what);
  const withRange = shortenPath(p.path, room - stringWidth(range));
  const first = p.path.includes("/") ? p.path.slice(0, p.path.indexOf("/") + 1) : "";
  if (withRange === p.path || (withRange.startsWith(first) && stringWidth(withRange) > 0)) return `${what}${withRange}${range}`;
  return `${what}${shortenPath(p.path, Math.max(1, room))}`;
}

export function askEditDecision(host: ModalHost, proposal: EditProposal, opts: DiffDialogOptions): Promise<EditDecision> {
  return new Promise<EditDecision>((resolve) => {
    const canEdit = proposal.newContent !== null;
    let diffShown = opts.showDiff !== false;
    const choices = () => [
      { key: "y", label: "apply" },
      { key: "n", label: "reject" },
      ...(canEdit ? [{ key: "e", label: "edit" }] : []),
      ...(diffShown ? [] : [{ key: "d", label: "show diff" }]),
    ];
    let note: StyledLine | null = null;
    const body = (width: number): StyledLine[] => {
      const rows: StyledLine[] = [];
      // Before the diff: applying means a rewind cannot take this file back.
      if (proposal.backupWarning) rows.push(...wrapStyled([span(proposal.backupWarning, "warn")], width), []);
      if (proposal.generatedWarning) rows.push(...wrapStyled([span(proposal.generatedWarning, "warn")], width), []);
      if (opts.showDescription && proposal.description) {
        rows.push(...wrapStyled([span("Change: ", "muted"), { text: proposal.description }], width), []);
      }
      if (diffShown) rows.push(...renderDiff(proposal.diff, proposal.path, width, opts));
      else rows.push([span(diffSummary(proposal.diff), "muted")]);
      return rows;
    };
    const frame = new DialogBox(host.screen, host.painter, {
      title: (width) => [span(proposalTitle(proposal, width), "accent", { bold: true })],
      body,
      footer: (width) => [...keyLegendRows(choices(), width), ...(note ? [note] : [])],
    });
    let busy = false;
    const modal: Modal = {
      handleKey(action: KeyAction | null, ch: string | undefined) {
        if (busy) return;
        if (action?.type === "escape") return finish({ action: "reject", reason: "closed without a decision" });
        if (frame.handleScroll(action)) return host.requestRender();
        const key = action?.type === "insert" ? latinKey(ch) : null;
        if (key === "y") return finish({ action: "apply" });
        if (key === "n") return finish({ action: "reject" });
        if (key === "e" && canEdit) void edit();
        if (key === "d" && !diffShown) {
          diffShown = true;
          host.requestRender();
        }
      },
      layout: (area) => frame.layout(area),
      cursor: () => null,
      destroy: () => frame.destroy(),
    };
    const edit = async () => {
      busy = true;
      try {
        const saved = await opts.editContent(proposal.newContent ?? "", proposal.path);
        if (saved === null) {
          note = [span(" Edit cancelled: the proposal is unchanged.", "muted")];
          host.requestRender();
          return;
        }
        finish({ action: "apply-edited", content: saved });
      } catch (error) {
        note = [span(` Could not edit: ${error instanceof Error ? error.message : String(error)}`, "error")];
        host.requestRender();
      } finally {
        busy = false;
      }
    };
    const finish = (decision: EditDecision) => {
      host.close(modal);
      resolve(decision);
    };
    host.open(modal);
  });
}
