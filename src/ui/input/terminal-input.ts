// The input stream blessed reads, sitting in front of the real stdin (or a test's fake). It forwards raw
// mode and pause/resume to the source, and rewrites what blessed's key parser cannot understand:
// - bracketed paste (`ESC[200~ … ESC[201~`): the text is passed on with line breaks as `\n`, and
//   `pasting` is true while it is parsed, so pasted newlines and tabs are text, not Enter and Tab;
// - Alt+Enter (`ESC CR`), Shift/Ctrl+Enter in CSI-u or modifyOtherKeys form: become `\n` (new line);
// - a paste the terminal did not bracket (tmux paste-buffer without -p, a terminal without the mode):
//   keys faster than anyone types — text with a line break or tab inside it in one read, and what
//   follows within BURST_MS — are passed on as a paste, so a pasted snippet is not sent line by line and
//   its tabs do not complete. Text ending in one Enter (`tmux send-keys 'text' Enter`) still sends.
import { EventEmitter } from "node:events";
import { StringDecoder } from "node:string_decoder";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
/** A sequence split across reads is held this long at most (then passed on as it is). */
const HOLD_MS = 25;
const NEWLINE_KEYS = /\x1b\r|\x1b\[13;[2-8]u|\x1b\[27;[2-8];13~/g;
/** Reads closer together than this continue a burst of pasted keys (key repeat is ≈ 30 ms apart). */
export const BURST_MS = 15;
/** Characters besides a line break or tab in one read that make it a paste (typing gives one a read). */
const BURST_MIN_CHARS = 2;
/** Escape sequences (keys such as arrows, mouse reports): no typed characters, and no line breaks. */
const ESCAPE_SEQUENCE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|O[\s\S]|[\s\S])?/g;

export interface InputSource extends EventEmitter {
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode?(mode: boolean): unknown;
  resume(): unknown;
  pause(): unknown;
}

export class TerminalInput extends EventEmitter {
  readonly isTTY = true;
  /** True while the keys of a bracketed paste are being emitted. */
  pasting = false;
  destroyed = false;
  private raw = false;
  private inPaste = false;
  private held = "";
  private holdTimer: NodeJS.Timeout | null = null;
  /** When the last read of an unbracketed paste came (see burst). */
  private burstAt = -Infinity;
  /** Keeps a character split between two reads (a long paste arrives in pieces) whole: decoded alone, each half was "�". */
  private readonly decoder = new StringDecoder("utf8");
  private readonly onSourceData = (chunk: Buffer | string) => {
    const text = typeof chunk === "string" ? chunk : this.decoder.write(chunk);
    if (text) this.feed(text);
  };

  constructor(
    private readonly source: InputSource,
    private readonly now: () => number = () => performance.now(),
  ) {
    super();
    source.on("data", this.onSourceData);
  }

  get isRaw(): boolean {
    return this.raw;
  }

  setRawMode(mode: boolean): this {
    this.raw = mode;
    this.source.setRawMode?.(mode);
    return this;
  }

  resume(): this {
    this.source.resume();
    return this;
  }

  pause(): this {
    this.source.pause();
    return this;
  }

  /** Detaches from the source (the source itself is left to its owner). */
  detach(): void {
    this.source.off("data", this.onSourceData);
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.destroyed = true;
  }

  /** Feeds raw terminal input (tests call this directly). */
  feed(text: string): void {
    if (this.holdTimer) {
      clearTimeout(this.holdTimer);
      this.holdTimer = null;
    }
    let data = this.held + text;
    this.held = "";
    const tail = partialMarker(data);
    if (tail) {
      this.held = data.slice(data.length - tail);
      data = data.slice(0, data.length - tail);
      this.holdTimer = setTimeout(() => {
        this.holdTimer = null;
        const rest = this.held;
        this.held = "";
        this.emitSegment(rest, this.inPaste);
      }, HOLD_MS);
    }
    while (data) {
      const marker = this.inPaste ? PASTE_END : PASTE_START;
      const at = data.indexOf(marker);
      const part = at === -1 ? data : data.slice(0, at);
      this.emitSegment(part, this.inPaste);
      if (at === -1) break;
      this.inPaste = !this.inPaste;
      data = data.slice(at + marker.length);
    }
  }

  private emitSegment(text: string, paste: boolean): void {
    if (!text) return;
    if (paste || this.burst(text)) {
      this.pasting = true;
      try {
        this.emit("data", Buffer.from(text.replace(NEWLINE_KEYS, "\n").replace(/\r\n?/g, "\n"), "utf8"));
      } finally {
        this.pasting = false;
      }
      return;
    }
    this.emit("data", Buffer.from(text.replace(NEWLINE_KEYS, "\n"), "utf8"));
  }

  /**
   * Whether a read outside a bracketed paste holds pasted line breaks or tabs: it has BURST_MIN_CHARS
   * typed characters and a CR, LF or tab before its end (a hand gives one key a read), or it came within
   * BURST_MS of such a read (a long paste comes in several). Enter pressed on its own is never one, nor
   * one Enter at the end of text that came with it (a program typing a message and sending it).
   */
  private burst(text: string): boolean {
    const t = this.now();
    const keys = text.replace(ESCAPE_SEQUENCE, "");
    const breaks = /[\r\n\t]/.test(keys);
    let typed = 0;
    for (const c of keys) if (c >= " " && c !== "\x7f") typed++;
    const inside = /[\r\n\t]/.test(keys.replace(/(?:\r\n?|\n)$/, ""));
    if (t - this.burstAt > BURST_MS && !(inside && typed >= BURST_MIN_CHARS)) return false;
    this.burstAt = t;
    return breaks;
  }
}

/** Length of a trailing prefix of a paste marker (3+ chars, so a lone Esc press is never held). */
function partialMarker(data: string): number {
  for (let n = Math.min(PASTE_START.length - 1, data.length); n >= 3; n--) {
    const tail = data.slice(data.length - n);
    if (PASTE_START.startsWith(tail) || PASTE_END.startsWith(tail)) return n;
  }
  return 0;
}

/** Terminal modes ipuaro turns on for the session and off on every exit path. */
export const BRACKETED_PASTE_ON = "\x1b[?2004h";
export const BRACKETED_PASTE_OFF = "\x1b[?2004l";
