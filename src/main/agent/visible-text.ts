// Streams the model's text to the UI without the tool-call markup: everything between `<tool_call` and
// `</tool_call>` is held back (the call is shown as a tool-call event instead).
const OPEN = "<tool_call";
const CLOSE = "</tool_call>";

export class VisibleTextFilter {
  private pending = "";
  private inside = false;

  /** Feeds a delta; returns the part that can be shown now. */
  push(delta: string): string {
    this.pending += delta;
    let out = "";
    for (;;) {
      if (this.inside) {
        const end = this.pending.indexOf(CLOSE);
        if (end === -1) return out;
        this.pending = this.pending.slice(end + CLOSE.length);
        this.inside = false;
        continue;
      }
      const start = this.pending.indexOf(OPEN);
      if (start !== -1) {
        out += this.pending.slice(0, start);
        this.pending = this.pending.slice(start);
        this.inside = true;
        continue;
      }
      // Keep a tail that could be the beginning of `<tool_call`, and the first half of a surrogate pair
      // (an emoji split between deltas): shown alone, each half would print as "�".
      let cut = this.pending.length - partialPrefixLength(this.pending);
      if (cut > 0 && isHighSurrogate(this.pending.charCodeAt(cut - 1))) cut--;
      out += this.pending.slice(0, cut);
      this.pending = this.pending.slice(cut);
      return out;
    }
  }

  /** End of the reply: whatever is held back and not inside a call. */
  flush(): string {
    const rest = this.inside ? "" : this.pending;
    this.pending = "";
    this.inside = false;
    return rest;
  }
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

function partialPrefixLength(text: string): number {
  for (let n = Math.min(OPEN.length - 1, text.length); n > 0; n--) if (OPEN.startsWith(text.slice(-n))) return n;
  return 0;
}
