// blessed 0.1.81 counts emoji as 1 cell (notes-dependencies gotcha 19): the character after one is then
// overwritten, and the cursor drifts. This makes blessed use text-width.ts for every width decision:
// `charWidth` (the screen skips the cell after a wide character), the `combining` table (zero-width code
// points join the previous cell), and `chars.all` (content gets a filler cell after each wide character,
// BMP emoji such as ✅ included). paint.ts writes the screen's cells itself, one terminal cell each, so
// the width of a cell's first code point is the cell's width (a wide character is followed by one
// filler), except for an emoji sequence (flag, skin tone, keycap, VS16, ZWJ): its cells start with an
// escape sequence, width 0 here, and position the cursor themselves.
import blessed from "blessed";
import { codePointWidth } from "./text-width.js";

interface BlessedUnicode {
  charWidth(str: string | number, i?: number): number;
  codePointAt(str: string, i: number): number;
  combining: Record<number, boolean>;
  chars: { all: RegExp };
  ipuaroPatched?: boolean;
}

const TAB = 0x09;

/**
 * One pass over the code points text-width.ts knows (each one's width costs a string and two regex
 * tests, ≈ 10 ms per pass over the BMP at every start): the zero-width ones for blessed's `combining`
 * table, and the wide ones as compact ranges for a /u character class.
 */
function widthTables(): { zeroWidth: number[]; wideClass: string } {
  const zeroWidth: number[] = [];
  const ranges: Array<[number, number]> = [];
  const scan = (from: number, to: number) => {
    for (let cp = from; cp <= to; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const width = codePointWidth(cp);
      if (width === 0) zeroWidth.push(cp);
      if (width !== 2) continue;
      const last = ranges[ranges.length - 1];
      if (last && last[1] === cp - 1) last[1] = cp;
      else ranges.push([cp, cp]);
    }
  };
  scan(0x300, 0xffff);
  scan(0x16fe0, 0x1faff);
  scan(0xe0000, 0xe01ef);
  ranges.push([0x20000, 0x2fffd], [0x30000, 0x3fffd]);
  const hex = (cp: number) => `\\u{${cp.toString(16)}}`;
  return { zeroWidth, wideClass: ranges.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join("") };
}

/** Idempotent; call before the first screen is created. */
export function patchBlessedUnicode(): void {
  const unicode = (blessed as unknown as { unicode: BlessedUnicode }).unicode;
  if (unicode.ipuaroPatched) return;
  const original = unicode.charWidth.bind(unicode);
  unicode.charWidth = (str, i) => {
    const cp = typeof str === "number" ? str : unicode.codePointAt(str, i ?? 0);
    if (cp === TAB) return original(str, i);
    return codePointWidth(cp);
  };
  const { zeroWidth, wideClass } = widthTables();
  for (const cp of zeroWidth) unicode.combining[cp] = true;
  unicode.chars.all = new RegExp(`([${wideClass}])`, "gu");
  unicode.ipuaroPatched = true;
}
