// A terminal for UI tests: blessed writes into a headless xterm (the same parser real terminals are
// tested against), the test pushes keys into the input side, and assertions read real screen frames:
// text rows, cell colours and attributes, the cursor. Widths follow text-width.ts (what tmux draws:
// emoji and CJK 2 cells), registered as the terminal's Unicode version.
//
//   const t = createHeadlessTerminal({ cols: 80, rows: 24 });
//   const app = new TuiApp({ streams: t.streams, ... });
//   t.type("привет"); await t.waitForText("привет");
import { EventEmitter } from "node:events";
import xterm from "@xterm/headless";
import type { IBufferCell, Terminal as XTerminal } from "@xterm/headless";
import { codePointWidth, ZWJ } from "../../src/ui/text/text-width.js";

const { Terminal } = xterm as unknown as { Terminal: typeof XTerminal };

/** Key sequences as a terminal sends them. */
export const KEYS = {
  enter: "\r",
  ctrlJ: "\n",
  altEnter: "\x1b\r",
  shiftEnterCsiU: "\x1b[13;2u",
  tab: "\t",
  backspace: "\x7f",
  delete: "\x1b[3~",
  escape: "\x1b",
  up: "\x1b[A",
  down: "\x1b[B",
  right: "\x1b[C",
  left: "\x1b[D",
  home: "\x1b[H",
  end: "\x1b[F",
  ctrlLeft: "\x1b[1;5D",
  ctrlRight: "\x1b[1;5C",
  pageUp: "\x1b[5~",
  pageDown: "\x1b[6~",
  ctrlC: "\x03",
  ctrlD: "\x04",
  ctrlO: "\x0f",
  ctrlR: "\x12",
  ctrlS: "\x13",
  ctrlW: "\x17",
  ctrlZ: "\x1a",
  pasteStart: "\x1b[200~",
  pasteEnd: "\x1b[201~",
} as const;

class FakeOutput extends EventEmitter {
  readonly isTTY = true;
  readonly writable = true;
  writes = 0;
  constructor(
    private readonly term: XTerminal,
    public columns: number,
    public rows: number,
    private readonly onParsed: () => void,
  ) {
    super();
  }
  write(data: string | Uint8Array): boolean {
    this.writes++;
    this.term.write(typeof data === "string" ? data : Buffer.from(data).toString("utf8"), this.onParsed);
    return true;
  }
}

class FakeInput extends EventEmitter {
  readonly isTTY = true;
  isRaw = false;
  paused = true;
  setRawMode(mode: boolean): this {
    this.isRaw = mode;
    return this;
  }
  resume(): this {
    this.paused = false;
    return this;
  }
  pause(): this {
    this.paused = true;
    return this;
  }
}

export interface CellInfo {
  chars: string;
  width: number;
  fg: number;
  bg: number;
  fgDefault: boolean;
  bgDefault: boolean;
  bold: boolean;
  underline: boolean;
  inverse: boolean;
}

export interface HeadlessTerminal {
  readonly term: XTerminal;
  readonly streams: { input: FakeInput; output: FakeOutput };
  readonly input: FakeInput;
  /** Sends raw input (text or key sequences). */
  type(...chunks: string[]): void;
  /** Resolves once blessed's pending writes are parsed. */
  settle(): Promise<void>;
  lines(): string[];
  text(): string;
  cell(x: number, y: number): CellInfo;
  cursor(): { x: number; y: number };
  /** Finds text on screen: its row and starting column (in cells). */
  find(text: string): { x: number; y: number } | null;
  waitFor(predicate: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  waitForText(text: string, timeoutMs?: number): Promise<void>;
  waitForNoText(text: string, timeoutMs?: number): Promise<void>;
  /** Whether the text was on screen at any point so far (after any write), however briefly. */
  everShown(text: string): boolean;
  resize(cols: number, rows: number): void;
  dispose(): void;
}

export function createHeadlessTerminal(opts: { cols?: number; rows?: number } = {}): HeadlessTerminal {
  const cols = opts.cols ?? 80;
  const rows = opts.rows ?? 24;
  const term = new Terminal({ cols, rows, allowProposedApi: true, scrollback: 0 });
  term.unicode.register({
    version: "ipuaro",
    wcwidth: (cp: number) => codePointWidth(cp),
    charProperties(cp: number, preceding: number): number {
      // Same packing as xterm's own providers (state << 3 | width << 1 | join): zero-width code points
      // join the preceding cell, and so does a non-ASCII one right after a ZWJ (the state remembers it).
      const afterZwj = preceding >> 3 === 1;
      const width = codePointWidth(cp);
      const join = preceding !== 0 && (width === 0 || (afterZwj && cp >= 0x80));
      const prevWidth = (preceding >> 1) & 3;
      return ((cp === ZWJ ? 1 : 0) << 3) | ((join ? prevWidth : width) << 1) | (join ? 1 : 0);
    },
  });
  term.unicode.activeVersion = "ipuaro";
  const waiters = new Set<() => void>();
  /** Every screen the writes left, consecutive repeats dropped (for states too brief to wait for). */
  const screens: string[] = [];
  const check = () => {
    const now = lines().join("\n");
    if (screens[screens.length - 1] !== now) screens.push(now);
    for (const w of [...waiters]) w();
  };
  const output = new FakeOutput(term, cols, rows, check);
  const input = new FakeInput();

  const line = (y: number) => term.buffer.active.getLine(y)?.translateToString(true) ?? "";
  const lines = () => Array.from({ length: term.rows }, (_, y) => line(y));
  const settle = () =>
    new Promise<void>((resolve) => {
      // blessed flushes its output buffer on the next tick; then xterm parses asynchronously.
      setImmediate(() => term.write("", () => resolve()));
    });
  let scratch: IBufferCell | undefined;

  const api: HeadlessTerminal = {
    term,
    streams: { input, output },
    input,
    type(...chunks) {
      for (const c of chunks) input.emit("data", Buffer.from(c, "utf8"));
    },
    settle,
    lines,
    text: () => lines().join("\n"),
    everShown: (text) => screens.some((s) => s.includes(text)),
    cell(x, y) {
      const c = term.buffer.active.getLine(y)?.getCell(x, scratch);
      if (!c) throw new Error(`no cell at ${x},${y}`);
      scratch = c;
      return {
        chars: c.getChars(),
        width: c.getWidth(),
        fg: c.getFgColor(),
        bg: c.getBgColor(),
        fgDefault: c.isFgDefault(),
        bgDefault: c.isBgDefault(),
        bold: !!c.isBold(),
        underline: !!c.isUnderline(),
        inverse: !!c.isInverse(),
      };
    },
    cursor: () => ({ x: term.buffer.active.cursorX, y: term.buffer.active.cursorY }),
    find(text) {
      for (let y = 0; y < term.rows; y++) {
        const row = term.buffer.active.getLine(y);
        if (!row) continue;
        // Map string index → cell column (wide chars take two cells, the second one empty).
        let s = "";
        const colOf: number[] = [];
        for (let x = 0; x < term.cols; x++) {
          const ch = row.getCell(x)?.getChars() ?? "";
          if (row.getCell(x)?.getWidth() === 0) continue;
          const piece = ch || " ";
          for (let i = 0; i < piece.length; i++) colOf.push(x);
          s += piece;
        }
        const i = s.indexOf(text);
        if (i !== -1) return { x: colOf[i]!, y };
      }
      return null;
    },
    waitFor(predicate, what, timeoutMs = 5000) {
      return new Promise<void>((resolve, reject) => {
        const attempt = () => {
          if (!predicate()) return;
          waiters.delete(attempt);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(attempt);
          reject(new Error(`timed out waiting for ${what}; screen:\n${lines().join("\n")}`));
        }, timeoutMs);
        waiters.add(attempt);
        void settle().then(attempt);
      });
    },
    waitForText(text, timeoutMs) {
      return api.waitFor(() => api.find(text) !== null, JSON.stringify(text), timeoutMs);
    },
    waitForNoText(text, timeoutMs) {
      return api.waitFor(() => api.find(text) === null, `${JSON.stringify(text)} to disappear`, timeoutMs);
    },
    resize(c, r) {
      term.resize(c, r);
      output.columns = c;
      output.rows = r;
      output.emit("resize");
    },
    dispose() {
      waiters.clear();
      term.dispose();
    },
  };
  return api;
}
