// The painter's output in a real terminal parser (headless xterm behind a real blessed screen), for text
// with emoji sequences whose width depends on the terminal. Two terminals are emulated: tmux 3.3a (each
// code point its own width, 👍🏽 = 👍 + 🏽, a flag two 1-cell halves, VS16 not widening) and a
// grapheme-aware one (tmux 3.4+, kitty, WezTerm: each sequence one 2-cell cell). In both, every frame
// must equal a full redraw of the same lines (what Ctrl+L shows), after edits, scrolls and dialog rows.
import type { Widgets } from "blessed";
import { afterEach, describe, expect, it } from "vitest";
import { createScreen } from "../../../src/ui/app/screen-setup.js";
import { span, type StyledLine } from "../../../src/ui/text/styled-text.js";
import { codePointWidth, stringWidth, ZWJ } from "../../../src/ui/text/text-width.js";
import { createTheme } from "../../../src/ui/theme.js";
import { Painter, type Rect } from "../../../src/ui/widgets/paint.js";
import { createHeadlessTerminal, type HeadlessTerminal } from "../../helpers/headless-terminal.js";
import { FAMILY, FLAG_UA, HEART, KEYCAP_ONE, RAINBOW_FLAG, THUMBS_MEDIUM } from "./emoji-samples.js";

const SEQUENCES = [THUMBS_MEDIUM, FLAG_UA, KEYCAP_ONE, HEART, FAMILY, RAINBOW_FLAG, "日本", "e\u0301", "ж"];

type TerminalModel = "tmux-3.3a" | "grapheme-aware";
const MODELS: TerminalModel[] = ["tmux-3.3a", "grapheme-aware"];

const isSkinTone = (cp: number) => cp >= 0x1f3fb && cp <= 0x1f3ff;
const isRegionalIndicator = (cp: number) => cp >= 0x1f1e6 && cp <= 0x1f1ff;

/**
 * xterm's packed char properties (state << 3 | width << 1 | join) for a terminal that draws a grapheme
 * in one cell: VS16 widens to 2, a skin tone joins a wide emoji, the second regional indicator joins the
 * first (2 cells), a character after a ZWJ joins. State: 1 after a ZWJ, 2 after an unpaired regional
 * indicator, 3 after a wide character. xterm forgets the state at any escape sequence, like such terminals.
 */
function graphemeAwareProvider() {
  const pack = (state: number, width: number, join: boolean) => (state << 3) | (width << 1) | (join ? 1 : 0);
  return {
    version: "grapheme-aware",
    wcwidth: (cp: number) => codePointWidth(cp),
    charProperties(cp: number, preceding: number): number {
      const state = preceding >> 3;
      const prevWidth = (preceding >> 1) & 3;
      if (preceding !== 0) {
        if (cp === 0xfe0f) return pack(3, 2, true);
        if (cp === ZWJ) return pack(1, prevWidth, true);
        if (state === 1 && cp >= 0x80) return pack(3, prevWidth, true);
        if (state === 3 && isSkinTone(cp)) return pack(0, 2, true);
        if (state === 2 && isRegionalIndicator(cp)) return pack(0, 2, true);
        if (codePointWidth(cp) === 0) return pack(state, prevWidth, true);
      }
      const width = codePointWidth(cp);
      return pack(isRegionalIndicator(cp) ? 2 : width === 2 ? 3 : 0, width, false);
    },
  };
}

interface Stage {
  t: HeadlessTerminal;
  screen: Widgets.Screen;
  /** Paints the lines (one per row, from the top), renders, waits for the terminal to parse it. */
  show(lines: ReadonlyArray<string | StyledLine>, rect?: Rect): Promise<string[]>;
  close(): void;
}

const COLS = 40;
const ROWS = 6;
const open: Stage[] = [];

function stage(model: TerminalModel, cols = COLS, rows = ROWS): Stage {
  const t = createHeadlessTerminal({ cols, rows });
  if (model === "grapheme-aware") {
    t.term.unicode.register(graphemeAwareProvider());
    t.term.unicode.activeVersion = "grapheme-aware";
  }
  const { screen, input } = createScreen(t.streams, { TERM: "xterm-256color" });
  const painter = new Painter(createTheme("dark", { noColor: true }));
  const s: Stage = {
    t,
    screen,
    async show(lines, rect = { x: 0, y: 0, width: cols, height: rows }) {
      painter.paint(screen, rect, lines.map((l) => (typeof l === "string" ? [span(l)] : l)));
      screen.render();
      await t.settle();
      return t.lines().map((l) => l.trimEnd());
    },
    close() {
      screen.destroy();
      input.detach();
      t.dispose();
    },
  };
  open.push(s);
  return s;
}

/** What a full redraw of `lines` shows: a fresh terminal of the same kind (Ctrl+L). */
async function fullRedraw(model: TerminalModel, lines: ReadonlyArray<string | StyledLine>, rect?: Rect): Promise<string[]> {
  const fresh = stage(model);
  return fresh.show(lines, rect);
}

afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

describe.each(MODELS)("painting emoji sequences in a %s terminal", (model) => {
  it("erases a skin-tone emoji on Backspace and draws what follows in place (`> ab 👍🏽` → `> ab ` → `> ab x`)", async () => {
    const s = stage(model);
    const typed = await s.show([`> ab ${THUMBS_MEDIUM}`]);
    expect(typed[0]).toContain(`> ab ${THUMBS_MEDIUM}`);
    // The two emulations really differ: tmux 3.3a keeps the skin tone in cells of its own.
    if (model === "tmux-3.3a") expect([s.t.cell(5, 0).chars, s.t.cell(7, 0).chars]).toEqual(["👍", "🏽"]);
    else expect([s.t.cell(5, 0).chars, s.t.cell(5, 0).width, s.t.cell(7, 0).chars]).toEqual([THUMBS_MEDIUM, 2, ""]);
    expect(await s.show(["> ab "])).toEqual(await fullRedraw(model, ["> ab "]));
    expect(s.t.lines()[0]!.trimEnd()).toBe("> ab");
    expect(s.t.find("🏽")).toBeNull();
    const after = await s.show(["> ab x"]);
    expect(after[0]).toBe("> ab x");
    expect(s.t.find("x")).toEqual({ x: 5, y: 0 });
  });

  it("erases the character after a flag on Backspace (`> x 🇺🇦 y` → `> x 🇺🇦 `), with no blank added after the flag", async () => {
    const s = stage(model);
    await s.show([`> x ${FLAG_UA} y`]);
    expect(s.t.find("y")).toEqual({ x: 7, y: 0 });
    const erased = await s.show([`> x ${FLAG_UA} `]);
    expect(erased).toEqual(await fullRedraw(model, [`> x ${FLAG_UA} `]));
    expect(erased[0]).toBe(`> x ${FLAG_UA}`);
    expect(s.t.find("y")).toBeNull();
  });

  it("puts each character after a sequence at the column the widths give, as a full redraw does", async () => {
    const s = stage(model, 60);
    const markers = "ABCDEFGHI";
    const line = SEQUENCES.map((seq, i) => `${seq}${markers[i]}`).join("");
    await s.show([line]);
    let prefix = "";
    SEQUENCES.forEach((seq, i) => {
      prefix += seq;
      expect(s.t.cell(stringWidth(prefix), 0).chars, `after ${seq}`).toBe(markers[i]);
      prefix += markers[i];
    });
    // Nothing past the line's width.
    expect(s.t.cell(stringWidth(line), 0).chars).toBe("");
  });

  it("matches a full redraw after every edit of a line with each sequence (insert, delete, replace)", async () => {
    const s = stage(model);
    for (const seq of SEQUENCES) {
      const frames = [`> a${seq}b`, `> a${seq}bc`, `> a${seq}`, "> a", `> ${seq}${seq}z`, `> z${seq}`, "> "];
      for (const frame of frames) {
        expect(await s.show([frame]), `${seq}: ${frame}`).toEqual(await fullRedraw(model, [frame]));
      }
    }
  });

  it("matches a full redraw at every step while lines with sequences scroll by (chat)", async () => {
    const s = stage(model);
    const chat = Array.from({ length: 14 }, (_, i) => `L${i} ok ${THUMBS_MEDIUM} ${FLAG_UA}${i % 3 ? KEYCAP_ONE : HEART} ${FAMILY} end`);
    for (let top = 0; top + ROWS <= chat.length; top++) {
      const view = chat.slice(top, top + ROWS);
      expect(await s.show(view), `scrolled to ${top}`).toEqual(await fullRedraw(model, view));
    }
    for (let top = chat.length - ROWS; top >= 0; top -= 3) {
      const view = chat.slice(top, top + ROWS);
      expect(await s.show(view), `scrolled back to ${top}`).toEqual(await fullRedraw(model, view));
    }
  });

  it("puts a combining mark that starts a span into the sequence before it, and draws no trailing ZWJ", async () => {
    const s = stage(model);
    const line: StyledLine = [span(`a${THUMBS_MEDIUM}`, "agent"), span("\u0301b", "user"), span(`${HEART}\u200d日c`)];
    await s.show([line]);
    expect(s.t.cell(5, 0).chars).toBe("b");
    expect(s.t.cell(8, 0).chars).toBe("日");
    expect(s.t.cell(10, 0).chars).toBe("c");
    expect(await s.show([line, "x"])).toEqual(await fullRedraw(model, [line, "x"]));
  });

  it("pads the place of a sequence that does not fit at the edge, over what was there before", async () => {
    const s = stage(model);
    await s.show(["XXXXXXXXXX"]);
    // 3 + 4 > 6: the sequence is left out, cells 3–5 become blanks, cells past the rectangle stay.
    await s.show([`abc${THUMBS_MEDIUM}`], { x: 0, y: 0, width: 6, height: 1 });
    expect(s.t.lines()[0]).toBe("abc   XXXX");
    await s.show([`abcde${FLAG_UA}`], { x: 0, y: 0, width: 6, height: 1 });
    expect(s.t.lines()[0]).toBe("abcde XXXX");
  });

  it("keeps a dialog's right border in its column on a row with sequences", async () => {
    const s = stage(model);
    const inner: Rect = { x: 1, y: 0, width: 20, height: 3 };
    await s.show(["│"], { x: 0, y: 0, width: 1, height: 1 });
    await s.show(["│"], { x: 21, y: 0, width: 1, height: 1 });
    const rows = [`${THUMBS_MEDIUM} ${FLAG_UA} ${HEART}${KEYCAP_ONE} abcdefghij`, `${FAMILY}${RAINBOW_FLAG}`, "plain"];
    await s.show(rows, inner);
    expect(s.t.cell(21, 0).chars).toBe("│");
    expect(s.t.cell(0, 0).chars).toBe("│");
    // The row is cut at the first grapheme that does not fit: 4+1+2+1+2+2+1 = 13, then 7 letters.
    expect(s.t.lines()[0]!.trimEnd().endsWith("abcdefg│")).toBe(true);
    await s.show(["short", "", ""], inner);
    expect(s.t.lines()[0]!.trimEnd()).toBe("│short               │");
    expect(s.t.cell(21, 0).chars).toBe("│");
  });
});

describe("the painted cells blessed keeps", () => {
  it("are single terminal cells, except an emoji sequence, which positions the cursor itself", async () => {
    const s = stage("tmux-3.3a");
    await s.show([`a${THUMBS_MEDIUM}b日c`]);
    const row = (s.screen as unknown as { lines: Array<Array<[number, string]>> }).lines[0]!;
    const chars = row.slice(0, 9).map((c) => c[1]);
    // The sequence's first cell: erase 4 cells, draw it, cursor to column 3 (1-based); the others move on.
    expect(chars.slice(0, 5)).toEqual(["a", `\x1b[4X${THUMBS_MEDIUM}\x1b[3G`, "\x1b[4G", "\x1b[5G", "\x1b[6G"]);
    expect(chars.slice(5, 9)).toEqual(["b", "日", " ", "c"]);
  });
});
