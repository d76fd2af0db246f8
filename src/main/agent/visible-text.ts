// Streams the model's text to the UI without the tool-call markup: everything between `<tool_call` and
// `</tool_call>`, or Qwen3-coder's bare `<function=` and `</function>`, is held back (the call is shown as a
// tool-call event instead), and a stray `</tool_call>` (left after a bare function block) is dropped. A tag
// the parser would not take for a call (quoted in backticks, inside a ```ts block) is text like any other.
import { isQuotedAt } from "../llm/tool-call-parser.js";

/** Markup that opens a call, and what closes it (null: the tag alone is dropped). */
const MARKERS: ReadonlyArray<{ open: string; close: string | null }> = [
  { open: "<tool_call", close: "</tool_call>" },
  { open: "<function=", close: "</function>" },
  { open: "</tool_call>", close: null },
];

export class VisibleTextFilter {
  /** Text outside a call not yet shown (a tail that may begin `<tool_call`, half an emoji). */
  private pending = "";
  /** Inside a call: its text so far, in pieces (a long call arrives in thousands of deltas). */
  private held: string[] | null = null;
  /** Inside a call: the tag that ends it. */
  private close = "";
  /** Inside a call: the last characters seen, where a closing tag split between deltas begins. */
  private tail = "";
  /** The reply so far, and how much of it lies before `pending` (to ask the parser about a tag). */
  private reply = "";
  private consumed = 0;
  /** After flush: the text of a call that never closed. */
  private opened = "";

  /** Feeds a delta; returns the part that can be shown now. */
  push(delta: string): string {
    this.reply += delta;
    return this.feed(delta);
  }

  private feed(delta: string): string {
    if (this.held) {
      const window = this.tail + delta;
      const end = window.indexOf(this.close);
      if (end === -1) {
        this.held.push(delta);
        this.tail = window.slice(-(this.close.length - 1));
        this.consumed += delta.length;
        return "";
      }
      // Past the closing tag: the rest of this delta is ordinary text again.
      const after = end + this.close.length - this.tail.length;
      this.consumed += after;
      this.held = null;
      this.tail = "";
      return this.scan(delta.slice(after));
    }
    return this.scan(delta);
  }

  private scan(text: string): string {
    this.pending += text;
    let out = "";
    for (;;) {
      const next = firstMarker(this.pending);
      if (!next) break;
      const { start, marker } = next;
      out += this.pending.slice(0, start);
      this.consumed += start;
      const quoted = isQuotedAt(this.reply, this.consumed);
      if (quoted || marker.close === null) {
        if (quoted) out += marker.open;
        this.consumed += marker.open.length;
        this.pending = this.pending.slice(start + marker.open.length);
        continue;
      }
      // A call begins: whatever follows in this text goes through push's inside branch.
      const rest = this.pending.slice(start);
      this.pending = "";
      this.held = [];
      this.close = marker.close;
      this.tail = "";
      return out + this.feed(rest);
    }
    // Keep a tail that could be the beginning of a marker, and the first half of a surrogate pair
    // (an emoji split between deltas): shown alone, each half would print as "�".
    let cut = this.pending.length - partialPrefixLength(this.pending);
    if (cut > 0 && isHighSurrogate(this.pending.charCodeAt(cut - 1))) cut--;
    out += this.pending.slice(0, cut);
    this.consumed += cut;
    this.pending = this.pending.slice(cut);
    return out;
  }

  /** End of the reply: whatever is held back and not inside a call. */
  flush(): string {
    const rest = this.held ? "" : this.pending;
    this.opened = this.held ? this.held.join("") : "";
    this.pending = "";
    this.held = null;
    this.tail = "";
    return rest;
  }

  /**
   * After flush: the text from an opening tag that was never closed. The caller shows it when the
   * parser found no call in the reply (the model wrote `<tool_call` in prose), so nothing is lost.
   */
  unclosed(): string {
    return this.opened;
  }
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

function firstMarker(text: string): { start: number; marker: (typeof MARKERS)[number] } | null {
  let best: { start: number; marker: (typeof MARKERS)[number] } | null = null;
  for (const marker of MARKERS) {
    const start = text.indexOf(marker.open);
    if (start !== -1 && (!best || start < best.start)) best = { start, marker };
  }
  return best;
}

function partialPrefixLength(text: string): number {
  let longest = 0;
  for (const { open } of MARKERS) {
    for (let n = Math.min(open.length - 1, text.length); n > longest; n--) {
      if (open.startsWith(text.slice(-n))) {
        longest = n;
        break;
      }
    }
  }
  return longest;
}
