// Turning a terminal log into text a small model can read: no colour codes, no progress-bar redraws,
// and when it is long, its start and its end (where the errors and the summary usually are).

// CSI (`ESC [ … final`), OSC (`ESC ] … BEL|ST`) and the two-byte ESC sequences.
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
const OTHER_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Strips escape sequences and control characters; a line redrawn with `\r` keeps only its last state. */
export function cleanTerminalOutput(text: string): string {
  return text
    .replace(ANSI, "")
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((line) => {
      const parts = line.split("\r");
      // `50%\r100%` → `100%`; a trailing \r (cursor back, nothing written) keeps the text before it.
      let last = parts.pop() ?? "";
      while (last === "" && parts.length > 0) last = parts.pop() ?? "";
      return last.replace(OTHER_CONTROLS, "");
    })
    .join("\n");
}

export interface CappedText {
  text: string;
  /** Characters left out of the middle (0 when the text fit). */
  omitted: number;
}

/**
 * The text when it fits in `max` characters; otherwise its first lines and its last lines, cut at line
 * boundaries where possible, with a marker saying how much was left out. The tail gets two thirds.
 */
export function headAndTail(text: string, max: number, marker = "the whole output is shown in the UI"): CappedText {
  if (text.length <= max) return { text, omitted: 0 };
  const headBudget = Math.floor(max / 3);
  const tailBudget = max - headBudget;
  let head = text.slice(0, headBudget);
  const headCut = head.lastIndexOf("\n");
  if (headCut > headBudget / 2) head = head.slice(0, headCut);
  let tail = text.slice(text.length - tailBudget);
  const tailCut = tail.indexOf("\n");
  if (tailCut >= 0 && tailCut < tailBudget / 2) tail = tail.slice(tailCut + 1);
  const omitted = text.length - head.length - tail.length;
  return { text: `${head}\n… [${omitted} characters omitted; ${marker}] …\n${tail}`, omitted };
}
