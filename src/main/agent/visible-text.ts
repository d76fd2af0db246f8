// Streams the model's text to the UI without the tool-call markup: everything between `<tool_call` and
// `</tool_call>` is held back (the call is shown as a tool-call event instead). A tag the parser would
// not take for a call (quoted in backticks, inside a ```ts block) is text like any other.
import { isQuotedAt } from "../llm/tool-call-parser.js";

const OPEN = "<tool_call";
const CLOSE = "</tool_call>";

export class VisibleTextFilter {
  private pending = "";
  private inside = false;
  /** The reply so far, and how much of it lies before `pending` (to ask the parser about a tag). */
  private reply = "";
  private consumed = 0;
  /** Held back since an opening tag that was never closed (the reply may have been no call at all). */
  private opened = "";

  /** Feeds a delta; returns the part that can be shown now. */
  push(delta: string): string {
    this.reply += delta;
    this.pending += delta;
    let out = "";
    const take = (n: number): string => {
      const part = this.pending.slice(0, n);
      this.pending = this.pending.slice(n);
      this.consumed += n;
      return part;
    };
    for (;;) {
      if (this.inside) {
        const end = this.pending.indexOf(CLOSE);
        if (end === -1) return out;
        take(end + CLOSE.length);
        this.inside = false;
        this.opened = "";
        continue;
      }
      const start = this.pending.indexOf(OPEN);
      if (start !== -1) {
        out += take(start);
        if (isQuotedAt(this.reply, this.consumed)) {
          out += take(OPEN.length);
          continue;
        }
        this.inside = true;
        this.opened = this.pending;
        continue;
      }
      // Keep a tail that could be the beginning of `<tool_call`, and the first half of a surrogate pair
      // (an emoji split between deltas): shown alone, each half would print as "�".
      let cut = this.pending.length - partialPrefixLength(this.pending);
      if (cut > 0 && isHighSurrogate(this.pending.charCodeAt(cut - 1))) cut--;
      out += take(cut);
      return out;
    }
  }

  /** End of the reply: whatever is held back and not inside a call. */
  flush(): string {
    const rest = this.inside ? "" : this.pending;
    if (this.inside) this.opened = this.pending;
    this.pending = "";
    this.inside = false;
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

function partialPrefixLength(text: string): number {
  for (let n = Math.min(OPEN.length - 1, text.length); n > 0; n--) if (OPEN.startsWith(text.slice(-n))) return n;
  return 0;
}
