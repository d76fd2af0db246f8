// Characters that can make a command look different from what runs: control characters (an ESC can
// repaint the confirmation line), bidi overrides (reorder what the user reads), zero-width and other
// invisible code points, and spaces the shell does not split on. Tab and newline are ordinary shell
// syntax and stay allowed.

const HIDDEN =
  /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0\u{e0100}-\u{e01ef}]/u;

function isAllowedWhitespace(char: string): boolean {
  return char === "\t" || char === "\n";
}

export interface HiddenCharacter {
  /** UTF-16 index of the character in the input. */
  index: number;
  /** The character escaped for display, e.g. `\x1b` or `\u202e`. */
  escaped: string;
}

/** The first hidden character in `text`, or null. Lone surrogates count as hidden. */
export function findHiddenCharacter(text: string): HiddenCharacter | null {
  let index = 0;
  for (const char of text) {
    if (!isAllowedWhitespace(char) && HIDDEN.test(char)) return { index, escaped: escapeCodePoint(char) };
    index += char.length;
  }
  return null;
}

function escapeCodePoint(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, "0")}`;
  if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, "0")}`;
  return `\\u{${code.toString(16)}}`;
}

/**
 * The text with every hidden character replaced by its escape (`\x1b`, `\u202e`, `\u{e0041}`), so a
 * confirmation shows exactly what would run. Tab and newline are kept. Backslashes are not doubled,
 * so `\x1b` typed literally and an escaped ESC look alike; a command holding a real one is denied anyway.
 */
export function escapeForDisplay(text: string): string {
  let out = "";
  for (const char of text) {
    out += !isAllowedWhitespace(char) && HIDDEN.test(char) ? escapeCodePoint(char) : char;
  }
  return out;
}

/** Text for one line of a reason: hidden characters escaped, line breaks shown as ⏎, at most `max` characters. */
export function displayInline(text: string, max = 80): string {
  const line = escapeForDisplay(text.replace(/\s*\n\s*/g, " ⏎ ").trim());
  return line.length > max ? `${line.slice(0, max - 3)}…` : line;
}
