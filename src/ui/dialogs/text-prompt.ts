// A one-line question in a dialog (the subdirectory to index instead of a huge root). Enter answers
// after `validate` accepts the text (its message is shown otherwise); Esc gives null; Tab completes
// when the question knows how (what remains to choose from is shown under the field).
import type { KeyAction } from "../input/keymap.js";
import { LineEditor } from "../input/line-editor.js";
import { span, wrapStyled, type StyledLine } from "../text/styled-text.js";
import { truncateToWidth } from "../text/text-width.js";
import type { ModalHost } from "./choice-dialog.js";
import { DialogBox, keyLegendRows, type Modal } from "./dialog-box.js";

export interface TextPromptOptions {
  title: string;
  question: string;
  /** null = accepted; a string = why not (shown under the field). */
  validate?(text: string): string | null | Promise<string | null>;
  /** Lines shown under the question (e.g. the choices worth knowing about). */
  details?: string[];
  /** Tab: the text completed as far as it is unambiguous, and the candidates left. */
  complete?(text: string): { text: string; candidates: string[] };
}

/** Candidates shown under the field after a Tab, at most. */
const MAX_SHOWN_CANDIDATES = 6;

export function askText(host: ModalHost, opts: TextPromptOptions): Promise<string | null> {
  return new Promise<string | null>((resolve) => {
    const editor = new LineEditor();
    let problem: string | null = null;
    let candidates: string[] = [];
    let fieldRow = 0;
    let fieldCol = 0;
    const frame = new DialogBox(
      host.screen,
      host.painter,
      {
        title: [span(opts.title, "accent", { bold: true })],
        body: (w) => {
          const rows: StyledLine[] = wrapStyled([{ text: opts.question }], w);
          for (const line of opts.details ?? []) rows.push([span(truncateToWidth(line, w), "muted")]);
          fieldRow = rows.length;
          const at = editor.layout(Number.MAX_SAFE_INTEGER, 2);
          const text = editor.text;
          // One row: when the text is longer than the field, its end is shown.
          const visible = at.cursorCol + 1 > w ? `…${text.slice(-Math.max(1, w - 4))}` : truncateToWidth(text, w - 2);
          fieldCol = Math.min(at.cursorCol, w - 1);
          rows.push([span("> ", "accent", { bold: true }), { text: visible }]);
          if (problem) rows.push(...wrapStyled([span(problem, "error")], w));
          if (candidates.length > 1) {
            const shown = candidates.slice(0, MAX_SHOWN_CANDIDATES).join("  ");
            const more = candidates.length > MAX_SHOWN_CANDIDATES ? `  … +${candidates.length - MAX_SHOWN_CANDIDATES}` : "";
            rows.push([span(truncateToWidth(`${shown}${more}`, w), "muted")]);
          }
          return rows;
        },
        footer: (w) => keyLegendRows([{ key: "Enter", label: "ok" }, { key: "Esc", label: "cancel" }], w),
      },
      { maxWidth: 80 },
    );
    const modal: Modal = {
      handleKey(action: KeyAction | null) {
        if (!action) return;
        if (action.type === "escape") return finish(null);
        if (action.type === "submit") return void submit();
        if (action.type === "complete") {
          if (!opts.complete) return;
          const done = opts.complete(editor.text);
          editor.set(done.text);
          candidates = done.candidates;
          frame.layout();
          return host.requestRender();
        }
        if (action.type === "insert") editor.insert(action.text.replace(/\n/g, ""));
        else if (action.type === "backspace") editor.backspace();
        else if (action.type === "delete") editor.deleteForward();
        else if (action.type === "left") editor.left();
        else if (action.type === "right") editor.right();
        else if (action.type === "home") editor.home();
        else if (action.type === "end") editor.end();
        else if (action.type === "wordLeft") editor.wordLeft();
        else if (action.type === "wordRight") editor.wordRight();
        else if (action.type === "deleteWordBefore") editor.deleteWordBefore();
        else return;
        problem = null;
        candidates = [];
        frame.layout();
        host.requestRender();
      },
      layout: (area) => frame.layout(area),
      cursor: () => (frame.bodyOrigin ? { x: frame.bodyOrigin.x + fieldCol, y: frame.bodyOrigin.y + fieldRow } : null),
      destroy: () => frame.destroy(),
    };
    const submit = async () => {
      const text = editor.text.trim();
      problem = (await opts.validate?.(text)) ?? null;
      if (problem) {
        frame.layout();
        host.requestRender();
        return;
      }
      finish(text);
    };
    const finish = (value: string | null) => {
      host.close(modal);
      resolve(value);
    };
    host.open(modal);
  });
}
