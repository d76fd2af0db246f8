// Widths of grapheme clusters whose width depends on the terminal (skin tones, flags, keycaps, VS16, ZWJ
// sequences) next to CJK, Cyrillic and combining marks: every measuring function (string width,
// grapheme width, the painter's cell split, wrapping, truncation, the line editor's cursor column) must
// give the same numbers, or the cursor and the painted cells drift apart.
import { describe, expect, it } from "vitest";
import { LineEditor } from "../../../src/ui/input/line-editor.js";
import { fitLine, lineWidth, span, truncateStyled, wrapStyled } from "../../../src/ui/text/styled-text.js";
import {
  fitToWidth,
  graphemeWidth,
  graphemes,
  isEmojiSequence,
  stringWidth,
  terminalCells,
  truncateToWidth,
  wrapText,
} from "../../../src/ui/text/text-width.js";
import { FAMILY, FLAG_UA, HEART, KEYCAP_ONE, RAINBOW_FLAG, THUMBS_MEDIUM } from "./emoji-samples.js";

const SCOTLAND = "🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}";

/** Σ graphemeWidth over the graphemes, each measured after the one before (how the painter walks). */
function sumOfGraphemes(text: string): number {
  let before = "";
  let width = 0;
  for (const g of graphemes(text)) {
    width += graphemeWidth(g, before);
    before = g;
  }
  return width;
}

describe("emoji sequences: one grapheme each, with the cells reserved for them", () => {
  // tmux 3.3a draws a skin-tone sequence as two emoji (4 cells), grapheme-aware terminals in 2: the
  // larger is reserved. A VS16 or keycap sequence is 1 cell in tmux 3.3a and 2 elsewhere: 2 reserved.
  it.each([
    [THUMBS_MEDIUM, 4],
    [FLAG_UA, 2],
    [KEYCAP_ONE, 2],
    [HEART, 2],
    [FAMILY, 2],
    [RAINBOW_FLAG, 2],
    [SCOTLAND, 2],
    ["#\ufe0f\u20e3", 2],
  ])("%s is one grapheme, an emoji sequence, %i cells", (text, width) => {
    expect(graphemes(text)).toEqual([text]);
    expect(isEmojiSequence(text)).toBe(true);
    expect(graphemeWidth(text)).toBe(width);
    expect(stringWidth(text)).toBe(width);
    expect(terminalCells(text)).toEqual([{ text, width, sequence: true }]);
  });

  it.each([
    ["日本", 4],
    ["привет", 6],
    ["e\u0301", 1],
    ["é", 1],
    ["😀", 2],
    ["✅", 2],
    ["\u2764", 1],
    ["abc", 3],
  ])("%s is no emoji sequence and keeps its width (%i)", (text, width) => {
    expect(graphemes(text).some(isEmojiSequence)).toBe(false);
    expect(stringWidth(text)).toBe(width);
  });

  it("splits other graphemes into terminal cells as tmux does: combining marks stay in their base's cell", () => {
    expect(terminalCells("e\u0301")).toEqual([{ text: "e\u0301", width: 1 }]);
    expect(terminalCells("日")).toEqual([{ text: "日", width: 2 }]);
    // After a grapheme ending in a ZWJ, a non-ASCII character joins the cell before (width 0 here).
    expect(terminalCells("文", "中\u200d")).toEqual([{ text: "文", width: 0 }]);
    expect(terminalCells("b", "a\u200d")).toEqual([{ text: "b", width: 1 }]);
  });

  it("measures a mixed line the same way in every function", () => {
    const line = `ab ${THUMBS_MEDIUM} x ${FLAG_UA} y ${KEYCAP_ONE}${HEART}${FAMILY} 日本 привет e\u0301 ${RAINBOW_FLAG}!`;
    // a b ␠ 👍🏽(4) ␠ x ␠ 🇺🇦(2) ␠ y ␠ 1️⃣(2) ❤️(2) 👨‍👩‍👧(2) ␠ 日本(4) ␠ привет(6) ␠ é(1) ␠ 🏳️‍🌈(2) !
    const expected = 3 + 4 + 3 + 2 + 3 + 2 + 2 + 2 + 1 + 4 + 1 + 6 + 1 + 1 + 1 + 2 + 1;
    expect(stringWidth(line)).toBe(expected);
    expect(sumOfGraphemes(line)).toBe(expected);
    let before = "";
    let cells = 0;
    for (const g of graphemes(line)) {
      cells += terminalCells(g, before).reduce((n, c) => n + c.width, 0);
      before = g;
    }
    expect(cells).toBe(expected);
    expect(lineWidth([span(line.slice(0, 10)), span(line.slice(10))])).toBe(expected);
  });

  it("wraps, fits and truncates without splitting a sequence, within the width", () => {
    const text = `${THUMBS_MEDIUM}${FLAG_UA}${KEYCAP_ONE}${HEART}${FAMILY}`.repeat(3);
    for (let width = 4; width <= 14; width++) {
      const rows = wrapText(text, width);
      expect(rows.join("")).toBe(text);
      for (const row of rows) {
        expect(stringWidth(row)).toBeLessThanOrEqual(width);
        expect(graphemes(row).every((g) => graphemes(text).includes(g))).toBe(true);
      }
      const styled = wrapStyled([span(text, "agent")], width);
      expect(styled.map((r) => r.map((s) => s.text).join("")).join("")).toBe(text);
      expect(styled.every((r) => lineWidth(r) <= width)).toBe(true);
      expect(lineWidth(fitLine([span(text)], width))).toBe(width);
      expect(lineWidth(truncateStyled([span(text)], width))).toBeLessThanOrEqual(width);
      expect(stringWidth(truncateToWidth(text, width))).toBeLessThanOrEqual(width);
    }
    expect(fitToWidth(`ab${THUMBS_MEDIUM}c`, 5)).toEqual({ head: "ab", rest: `${THUMBS_MEDIUM}c`, width: 2 });
    expect(fitToWidth(`ab${THUMBS_MEDIUM}c`, 6)).toEqual({ head: `ab${THUMBS_MEDIUM}`, rest: "c", width: 6 });
  });
});

describe("the line editor's cursor column agrees with the widths", () => {
  it.each([
    [`ab ${THUMBS_MEDIUM}`, 2 + 3 + 4],
    [`x ${FLAG_UA} y`, 2 + 2 + 2 + 2],
    [`k ${KEYCAP_ONE} h ${HEART} z`, 2 + 2 + 2 + 3 + 2 + 2],
    [`${FAMILY}日本`, 2 + 2 + 4],
  ])("after %s the cursor is at column %i (prompt `> ` included)", (text, col) => {
    const e = new LineEditor();
    e.insert(text);
    expect(e.layout(80, 2).cursorCol).toBe(col);
    // Backspace removes the whole last grapheme; the column steps back by its width.
    const last = graphemes(text).at(-1)!;
    e.backspace();
    expect(e.text).toBe(text.slice(0, -last.length));
    expect(e.layout(80, 2).cursorCol).toBe(col - stringWidth(last));
  });

  it("steps over a sequence with Left and keeps columns on Up/Down", () => {
    const e = new LineEditor();
    e.insert(`a${THUMBS_MEDIUM}b\nabcdefgh`);
    e.home();
    e.right();
    e.right();
    e.right();
    // "abc" on the second line ↔ column 3; up lands after a + (not inside) the 4-cell sequence.
    expect(e.lineUp()).toBe(true);
    expect(e.layout(80, 0).cursorCol).toBe(1);
    e.right();
    expect(e.layout(80, 0).cursorCol).toBe(5);
    e.left();
    expect(e.layout(80, 0).cursorCol).toBe(1);
  });

  it("wraps a long prompt so every row fits and the cursor ends on the last row", () => {
    const e = new LineEditor();
    const text = `w ${THUMBS_MEDIUM}${FLAG_UA} `.repeat(12);
    e.insert(text);
    const layout = e.layout(30, 2, 2);
    expect(layout.rows.join("")).toBe(text);
    layout.rows.forEach((row) => expect(2 + stringWidth(row)).toBeLessThanOrEqual(30));
    expect(layout.cursorRow).toBe(layout.rows.length - 1);
    expect(layout.cursorCol).toBe(2 + stringWidth(layout.rows.at(-1)!));
  });
});
