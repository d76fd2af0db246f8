// Turns blessed's keypress events into ipuaro's actions. blessed splits input into UTF-16 units, so an
// emoji arrives as two keypresses (high then low surrogate); they are joined here. Enter (`\r`) sends;
// Ctrl+J (`\n`) — and Alt+Enter / Shift+Enter, which terminal-input.ts rewrites to `\n` — adds a line.

export type KeyAction = { type: "insert"; text: string } | { type: CommandKey };

export type CommandKey =
  | "submit"
  | "newline"
  | "backspace"
  | "delete"
  | "left"
  | "right"
  | "home"
  | "end"
  | "wordLeft"
  | "wordRight"
  | "up"
  | "down"
  | "deleteWordBefore"
  | "killLineEnd"
  | "killLineStart"
  | "complete"
  | "interrupt"
  | "exit"
  | "undo"
  | "escape"
  | "pageUp"
  | "pageDown"
  | "redraw"
  | "showOutput"
  | "save"
  | "searchHistory";

/** What blessed passes with a keypress (the fields ipuaro reads). */
export interface BlessedKey {
  name?: string;
  full?: string;
  sequence?: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
}

const NAMED: Record<string, CommandKey> = {
  return: "submit",
  linefeed: "newline",
  backspace: "backspace",
  delete: "delete",
  left: "left",
  right: "right",
  home: "home",
  end: "end",
  up: "up",
  down: "down",
  tab: "complete",
  escape: "escape",
  pageup: "pageUp",
  pagedown: "pageDown",
};

const CTRL: Record<string, CommandKey> = {
  c: "interrupt",
  d: "exit",
  z: "undo",
  a: "home",
  e: "end",
  b: "left",
  f: "right",
  k: "killLineEnd",
  u: "killLineStart",
  w: "deleteWordBefore",
  h: "backspace",
  l: "redraw",
  left: "wordLeft",
  right: "wordRight",
  p: "up",
  n: "down",
  s: "save",
  o: "showOutput",
  r: "searchHistory",
};

const META: Record<string, CommandKey> = {
  b: "wordLeft",
  f: "wordRight",
  left: "wordLeft",
  right: "wordRight",
  backspace: "deleteWordBefore",
};

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

export class KeyDecoder {
  private high: string | null = null;

  /** `pasting`: inside a bracketed paste, Enter and Tab are text, not commands. */
  decode(ch: string | undefined, key: BlessedKey | undefined, pasting = false): KeyAction | null {
    const code = ch?.length === 1 ? ch.charCodeAt(0) : -1;
    if (code !== -1 && isHigh(code)) {
      this.high = ch!;
      return null;
    }
    if (code !== -1 && isLow(code)) {
      const high = this.high;
      this.high = null;
      return high ? { type: "insert", text: high + ch! } : null;
    }
    this.high = null;
    const name = key?.name;
    if (pasting && (name === "return" || name === "enter" || name === "linefeed")) return key?.sequence === "\r" && name === "enter" ? null : { type: "insert", text: "\n" };
    if (pasting && name === "tab") return { type: "insert", text: "\t" };
    // blessed re-emits `\r` as a synthetic "enter" before "return"; only "return" counts.
    if (name === "enter" && key?.sequence === "\r") return null;
    if (name === "enter") return { type: "newline" };
    // Alt+Enter: a line break where the terminal sends Shift+Enter as a plain Enter.
    if (name === "return" && key?.meta) return { type: "newline" };
    if (name && key?.ctrl && CTRL[name]) return { type: CTRL[name] };
    if (name && key?.meta && META[name]) return { type: META[name] };
    if (name && key?.ctrl) return null;
    if (name && NAMED[name] && !(key?.meta && name === "return")) return { type: NAMED[name] };
    if (key?.meta) return null;
    if (ch && code >= 0x20 && code !== 0x7f) return { type: "insert", text: ch };
    if (name === "space") return { type: "insert", text: " " };
    return null;
  }
}
