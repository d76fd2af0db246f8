// The fallback editor when $EDITOR/$VISUAL is not set: the proposed content in a dialog, edited with the
// same line editor as the prompt (Enter = new line, arrows, word jumps). Ctrl+S saves, Esc cancels.
import type { KeyAction } from "../input/keymap.js";
import { LineEditor } from "../input/line-editor.js";
import { shortenPath } from "../text/path-fit.js";
import { span, type StyledLine } from "../text/styled-text.js";
import type { ModalHost } from "./choice-dialog.js";
import { DialogBox, keyLegendRows, type Modal } from "./dialog-box.js";

export function editInline(host: ModalHost, content: string, title: string): Promise<string | null> {
  return new Promise<string | null>((resolve) => {
    const editor = new LineEditor();
    editor.set(content, 0);
    // Tab indents as the file does.
    const indentUnit = /^\t/m.test(content) ? "\t" : "  ";
    let cursorRow = 0;
    let cursorCol = 0;
    let bodyWidth = 1;
    const frame = new DialogBox(
      host.screen,
      host.painter,
      {
        title: (width) => [span(`Edit ${shortenPath(title, width - 5)}`, "accent", { bold: true })],
        body: (w) => {
          bodyWidth = w;
          const at = editor.layout(w, 0, 0);
          cursorRow = at.cursorRow;
          cursorCol = at.cursorCol;
          return at.rows.map((r): StyledLine => [{ text: r }]);
        },
        // The body scrolls so that the cursor's row is always on screen.
        focus: () => cursorRow,
        footer: (w) => keyLegendRows([{ key: "s", keyText: "Ctrl+S", label: "save and apply" }, { key: "Esc", label: "cancel" }], w),
      },
      { fill: true, scrollMarks: false },
    );
    const apply = (action: KeyAction): boolean => {
      switch (action.type) {
        case "insert":
          editor.insert(action.text);
          return true;
        case "submit":
        case "newline":
          editor.insert("\n");
          return true;
        case "complete":
          editor.insert(indentUnit);
          return true;
        case "backspace":
          editor.backspace();
          return true;
        case "delete":
          editor.deleteForward();
          return true;
        case "left":
        case "right":
        case "home":
        case "end":
        case "wordLeft":
        case "wordRight":
        case "deleteWordBefore":
        case "killLineEnd":
        case "killLineStart":
          editor[action.type === "deleteWordBefore" ? "deleteWordBefore" : action.type === "killLineEnd" ? "killToLineEnd" : action.type === "killLineStart" ? "killToLineStart" : action.type]();
          return true;
        case "up":
          return editor.lineUp() || true;
        case "down":
          return editor.lineDown() || true;
        default:
          return false;
      }
    };
    // PgUp/PgDn move the cursor a page of rows: scrolling alone was undone by keeping the cursor in view.
    const pageBy = (direction: 1 | -1) => {
      const rowOf = () => editor.layout(bodyWidth, 0, 0).cursorRow;
      const start = rowOf();
      while (Math.abs(rowOf() - start) < frame.pageRows) {
        if (!(direction > 0 ? editor.lineDown() : editor.lineUp())) break;
      }
    };
    const modal: Modal = {
      handleKey(action) {
        if (!action) return;
        if (action.type === "escape") return finish(null);
        if (action.type === "save") return finish(editor.text);
        if (action.type === "pageUp" || action.type === "pageDown") pageBy(action.type === "pageDown" ? 1 : -1);
        else if (!apply(action)) return;
        host.requestRender();
      },
      layout: (area) => frame.layout(area),
      cursor: () => {
        const origin = frame.bodyOrigin;
        return origin ? { x: origin.x + cursorCol, y: origin.y + cursorRow - frame.scrollTop } : null;
      },
      destroy: () => frame.destroy(),
    };
    const finish = (value: string | null) => {
      host.close(modal);
      resolve(value);
    };
    host.open(modal);
  });
}
