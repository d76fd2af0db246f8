// How the prompt reads a key before acting on it: input.multiline swaps or drops the line-break keys
// (see the top of input-controller.ts), and most editing keys are one call on the line editor.
import type { CommandKey, KeyAction } from "../input/keymap.js";
import type { LineEditor } from "../input/line-editor.js";

type EditAction = CommandKey;

export type MultilineMode = "auto" | "always" | "never";

export const EDITS: Partial<Record<EditAction, (e: LineEditor) => void>> = {
  newline: (e) => e.insert("\n"),
  backspace: (e) => e.backspace(),
  delete: (e) => e.deleteForward(),
  left: (e) => e.left(),
  right: (e) => e.right(),
  home: (e) => e.home(),
  end: (e) => e.end(),
  wordLeft: (e) => e.wordLeft(),
  wordRight: (e) => e.wordRight(),
  deleteWordBefore: (e) => e.deleteWordBefore(),
  killLineEnd: (e) => e.killToLineEnd(),
  killLineStart: (e) => e.killToLineStart(),
};

/** The prompt's reading of a key under input.multiline; null: the key does nothing (`refused` hears why). */
export function promptAction(multiline: MultilineMode, action: KeyAction, refused: (why: string) => void): KeyAction | null {
  if (multiline === "always") {
    if (action.type === "submit") return { type: "newline" };
    if (action.type === "newline") return { type: "submit" };
  } else if (multiline === "never") {
    if (action.type === "newline") {
      refused("One-line input (input.multiline is \"never\"): Enter sends.");
      return null;
    }
    if (action.type === "insert" && /[\r\n]/.test(action.text)) return { type: "insert", text: action.text.replace(/\r?\n|\r/g, " ") };
  }
  return action;
}
