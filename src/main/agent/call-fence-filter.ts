// The second stage of the streamed text (after VisibleTextFilter took the <tool_call> tags out): a fenced
// block that may hold a call (```json, ``` with no language, ```tool_call …) is held until it closes and
// then shown only if it was not one. Qwen often writes its calls that way; streamed as they came, the
// call's JSON stood in the answer above the call itself. A ```ts block, and all prose, stream as before.

/** Fence languages the parser reads calls from (tool-call-parse-context.ts FENCE_LANGS, and xml). */
const CALL_FENCE_LANGS = new Set(["", "json", "jsonc", "json5", "tool_call", "tool_code", "tool", "xml"]);
const OPENER = /^[ \t]*(`{3,})[ \t]*([\w-]*)[^\n]*\n$/;
/** A line that may still grow into a fence opener. */
const MAYBE_OPENER = /^[ \t]*(`{1,2}|```[^\n]*)?$/;
const CLOSER = /\n[ \t]*```[ \t]*\n/;
/** The closing line of a code block (at least as many backticks as its opener). */
const CODE_CLOSER = /^[ \t]*(`{3,})[ \t]*\n$/;
/** A line inside a code block that may still grow into its closing line. */
const MAYBE_CODE_CLOSER = /^[ \t]*`*$/;

export class CallFenceFilter {
  private pending = "";
  private lineStart = true;
  /** The open fence so far (from its opening line), or null outside one. */
  private fence: string | null = null;
  /**
   * Inside a code block that streams as it comes (```ts): its opener's backtick count. Its closing ```
   * must not be taken for the opener of a call fence, which would hold the rest of the answer back.
   */
  private codeFence: number | null = null;

  /** `isCall`: whether a whole fenced block (``` lines included) is a tool call. */
  constructor(private readonly isCall: (block: string) => boolean) {}

  push(text: string): string {
    this.pending += text;
    let out = "";
    while (this.pending) {
      if (this.fence !== null) {
        this.fence += this.pending;
        this.pending = "";
        const close = CLOSER.exec(this.fence);
        if (!close) return out;
        const end = close.index + close[0].length;
        this.pending = this.fence.slice(end);
        out += this.decide(this.fence.slice(0, end));
        this.fence = null;
        this.lineStart = true;
        continue;
      }
      const nl = this.pending.indexOf("\n");
      if (this.lineStart) {
        const line = nl === -1 ? this.pending : this.pending.slice(0, nl + 1);
        if (nl === -1 && (this.codeFence === null ? MAYBE_OPENER : MAYBE_CODE_CLOSER).test(line)) return out;
        if (this.codeFence !== null) {
          const closer = CODE_CLOSER.exec(line);
          if (closer && closer[1]!.length >= this.codeFence) this.codeFence = null;
        } else {
          const opener = OPENER.exec(line);
          if (opener && CALL_FENCE_LANGS.has(opener[2]!.toLowerCase())) {
            this.fence = line;
            this.pending = this.pending.slice(line.length);
            continue;
          }
          if (opener) this.codeFence = opener[1]!.length;
        }
      }
      if (nl === -1) {
        out += this.pending;
        this.pending = "";
        this.lineStart = false;
        return out;
      }
      out += this.pending.slice(0, nl + 1);
      this.pending = this.pending.slice(nl + 1);
      this.lineStart = true;
    }
    return out;
  }

  /** End of the reply: a fence still open (or closed on the last line) is decided as it stands. */
  flush(): string {
    const rest = this.fence !== null ? this.decide(this.fence + this.pending) : this.pending;
    this.fence = null;
    this.codeFence = null;
    this.pending = "";
    this.lineStart = true;
    return rest;
  }

  private decide(block: string): string {
    return isEmptied(block) || this.isCall(block) ? "" : block;
  }
}

/**
 * A block with nothing between its ``` lines. It is what is left of a ```xml fence around an XML call once
 * VisibleTextFilter took the call out (qwen2.5-coder wraps real calls that way; the parser runs them), and
 * shown it was an empty box above the call's own line. The parser's text drops such fences too (cleanText).
 */
function isEmptied(block: string): boolean {
  const body = block.replace(/^[^\n]*\n?/, "").replace(/\n?[ \t]*`*[ \t]*\n?$/, "");
  return body.trim() === "";
}
