// Terminal cell widths of text, as a modern terminal (tmux, xterm with wcwidth from Unicode 9+) draws it:
// East Asian wide/fullwidth and emoji-presentation characters take 2 cells, combining marks and format
// characters none. A non-ASCII character right after a zero width joiner joins the cell before it, as
// tmux draws it: 👨‍👩‍👧 and 🧑‍💻 take 2 cells. The cursor moves by grapheme cluster, so an emoji with its
// modifiers is one step.
//
// Emoji sequences (a skin tone, a flag, a keycap, VS16, a ZWJ sequence) are drawn differently by each
// terminal: tmux 3.3a sums its code points (👍🏽 4 cells, 🇺🇦 two 1-cell halves, ❤️ and 1️⃣ 1 cell), tmux 3.4+
// and grapheme-aware terminals (kitty, WezTerm, iTerm2, Ghostty) draw each in 2 cells. Such a cluster
// gets the larger of the two: paint.ts clears that many cells, draws the cluster and puts the cursor
// after them itself, so whichever way the terminal draws it, nothing shifts and nothing stale is left.

/** Ranges of East Asian Wide (W) and Fullwidth (F) characters outside the emoji set. */
const WIDE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x2329, 0x232a],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x17000, 0x18cff],
  [0x1b000, 0x1b2ff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

const EMOJI_PRESENTATION = /\p{Emoji_Presentation}/u;
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}]/u;
const REGIONAL_INDICATOR_FIRST = 0x1f1e6;
const REGIONAL_INDICATOR_LAST = 0x1f1ff;
/** ZERO WIDTH JOINER: what follows it (unless ASCII) is drawn in the joiner's cell. */
export const ZWJ = 0x200d;

function inWideRange(cp: number): boolean {
  let lo = 0;
  let hi = WIDE_RANGES.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = WIDE_RANGES[mid]!;
    if (cp < a) hi = mid - 1;
    else if (cp > b) lo = mid + 1;
    else return true;
  }
  return false;
}

/** A control character: the painter draws it as a space (it would move the terminal's cursor). */
export function isControl(cp: number): boolean {
  return cp < 0x20 || (cp >= 0x7f && cp < 0xa0);
}

/** Cells one code point takes: 0 (combining, format), 1 (a control character too: see isControl) or 2. */
export function codePointWidth(cp: number): 0 | 1 | 2 {
  // Measured as drawn: as 0 cells, a tab in an answer made the row one cell wider than measured, and
  // the character at its edge was lost.
  if (isControl(cp)) return 1;
  if (cp < 0x300) return 1; // Latin, fast path
  if (cp >= 0x1160 && cp <= 0x11ff) return 0; // Hangul medial vowels and final consonants join the syllable
  const ch = String.fromCodePoint(cp);
  if (ZERO_WIDTH.test(ch)) return 0;
  if (inWideRange(cp)) return 2;
  // A lone regional indicator is narrow; a flag (two of them) then takes 2 cells like in most terminals.
  if (cp >= REGIONAL_INDICATOR_FIRST && cp <= REGIONAL_INDICATOR_LAST) return 1;
  if (cp >= 0x231a && EMOJI_PRESENTATION.test(ch)) return 2;
  return 1;
}

/** True when the code point is drawn in the cell of the one before it: non-ASCII, right after a ZWJ. */
export function joinsPrevious(previous: number, cp: number): boolean {
  return previous === ZWJ && cp >= 0x80;
}

/**
 * Width as tmux 3.3a lays the code points out: the sum of their widths, a character joined by a ZWJ
 * counting none. `previous` is the code point before the text, when it continues a line.
 */
function codePointsWidth(text: string, previous = 0): number {
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) {
      width++;
      previous = c;
      continue;
    }
    const cp = text.codePointAt(i)!;
    if (cp > 0xffff) i++;
    if (!joinsPrevious(previous, cp)) width += codePointWidth(cp);
    previous = cp;
  }
  return width;
}

const VS16 = 0xfe0f;
const COMBINING_KEYCAP = 0x20e3;
const isSkinTone = (cp: number) => cp >= 0x1f3fb && cp <= 0x1f3ff;
const isRegionalIndicator = (cp: number) => cp >= REGIONAL_INDICATOR_FIRST && cp <= REGIONAL_INDICATOR_LAST;
/** Tag characters: the subdivision flags (🏴󠁧󠁢󠁳󠁣󠁴󠁿). */
const isTag = (cp: number) => cp >= 0xe0020 && cp <= 0xe007f;
/** Text without these has no emoji sequence and no ZWJ: its width is the sum of its code points. */
const MAY_HOLD_SEQUENCE = /[\ud800-\udfff\u200d\ufe0f\u20e3]/;

/**
 * An emoji sequence, whose width terminals disagree on (see the top of the file): a regional indicator
 * (a flag, or half of one), a skin tone after something, VS16, a keycap, tags, or a ZWJ that joins two
 * characters inside the cluster.
 */
export function isEmojiSequence(g: string): boolean {
  if (!MAY_HOLD_SEQUENCE.test(g)) return false;
  let first = true;
  for (let i = 0; i < g.length; i++) {
    const cp = g.codePointAt(i)!;
    if (cp > 0xffff) i++;
    if (isRegionalIndicator(cp) || cp === VS16 || cp === COMBINING_KEYCAP || isTag(cp)) return true;
    if (isSkinTone(cp) && !first) return true;
    if (cp === ZWJ && i < g.length - 1 && g.charCodeAt(i + 1) !== ZWJ) return true;
    first = false;
  }
  return false;
}

/** A ZWJ that ends a cluster joins the next one to it (tmux); an emoji sequence's trailing ZWJ is not drawn. */
function endsWithJoiner(g: string): boolean {
  return g.charCodeAt(g.length - 1) === ZWJ && !isEmojiSequence(g);
}

/**
 * Cells grapheme `g` takes right after grapheme `before` ("" at the start of a line). None when a ZWJ
 * ends `before` and `g` is joined to it (Intl.Segmenter puts a ZWJ into the grapheme before it); an
 * emoji sequence takes the larger of its widths in tmux 3.3a and in grapheme-aware terminals.
 */
export function graphemeWidth(g: string, before = ""): number {
  if (endsWithJoiner(before)) return codePointsWidth(g, ZWJ);
  if (isEmojiSequence(g)) return Math.max(2, codePointsWidth(g));
  return codePointsWidth(g);
}

/** Width of a string: the sum of its graphemes' widths, as paint.ts lays the cells out. */
export function stringWidth(text: string): number {
  if (!MAY_HOLD_SEQUENCE.test(text)) return codePointsWidth(text);
  let width = 0;
  let before = "";
  for (const g of graphemes(text)) {
    width += graphemeWidth(g, before);
    before = g;
  }
  return width;
}

/**
 * One terminal cell of a grapheme. `width` 0: drawn into the cell before it (a combining mark, or a
 * character joined by the ZWJ that ended the grapheme before). `sequence`: an emoji sequence that gets
 * `width` cells however the terminal draws it (paint.ts positions the cursor after it).
 */
export interface TerminalCell {
  text: string;
  width: number;
  sequence?: true;
}

/**
 * How grapheme `g` (after grapheme `before`) is laid into terminal cells: an emoji sequence as one cell
 * of its reserved width; anything else as tmux splits it, one cell per code point with a width, the
 * zero-width ones inside the cell before them. The widths add up to graphemeWidth(g, before).
 */
export function terminalCells(g: string, before = ""): TerminalCell[] {
  const afterJoiner = endsWithJoiner(before);
  if (!afterJoiner && isEmojiSequence(g)) return [{ text: g, width: Math.max(2, codePointsWidth(g)), sequence: true }];
  const cells: TerminalCell[] = [];
  let previous = afterJoiner ? ZWJ : 0;
  for (let i = 0; i < g.length; i++) {
    const cp = g.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    if (cp > 0xffff) i++;
    const width = joinsPrevious(previous, cp) ? 0 : codePointWidth(cp);
    const last = cells[cells.length - 1];
    if (width === 0 && last) last.text += ch;
    else cells.push({ text: ch, width });
    previous = cp;
  }
  return cells;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * Characters between which a grapheme cluster always breaks: printable ASCII, Han ideographs and
 * Cyrillic letters are none of Extend, ZWJ, Prepend, SpacingMark, a Hangul jamo or a regional indicator.
 */
const PLAIN_CHAR = /^(?:[\x20-\x7e]|\p{Script=Han}|(?=\p{Script=Cyrillic})\p{L})$/u;
/** Text segmented in one piece at most about this long (see graphemes). */
const SEGMENT_CHUNK = 2048;

/** Whether a cluster surely starts at `i`: after a line break, or between two plain characters. */
function safeCut(text: string, i: number): boolean {
  return text[i - 1] === "\n" || (PLAIN_CHAR.test(text[i - 1]!) && PLAIN_CHAR.test(text[i]!));
}

/** The nearest offset at or before `i` where a grapheme cluster surely starts (0 at the latest). */
export function clusterCutAtOrBefore(text: string, i: number): number {
  let at = Math.max(0, Math.min(i, text.length));
  while (at > 0 && at < text.length && !safeCut(text, at)) at--;
  return at;
}

/** The nearest offset at or after `i` where a grapheme cluster surely starts (text.length at the latest). */
export function clusterCutAtOrAfter(text: string, i: number): number {
  let at = Math.max(0, Math.min(i, text.length));
  while (at > 0 && at < text.length && !safeCut(text, at)) at++;
  return at;
}

/**
 * User-perceived characters: what one cursor step or one Backspace covers. Long text is segmented in
 * chunks cut where a cluster surely starts: V8's Intl.Segmenter is superlinear on one long string (40K
 * characters 0.12 s, 80K 9 s), and a pasted log froze the prompt for minutes.
 */
export function graphemes(text: string): string[] {
  if (/^[\x20-\x7e]*$/.test(text)) return text.split("");
  if (text.length <= SEGMENT_CHUNK) return Array.from(segmenter.segment(text), (s) => s.segment);
  const out: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + SEGMENT_CHUNK);
    // Back to a safe cut in the chunk's second half, else on to the next one (a long run of other
    // scripts without spaces or line breaks makes a longer chunk).
    let cut = end;
    while (cut < text.length && cut > start + SEGMENT_CHUNK / 2 && !safeCut(text, cut)) cut--;
    if (cut < text.length && !safeCut(text, cut)) {
      cut = end;
      while (cut < text.length && !safeCut(text, cut)) cut++;
    }
    end = cut;
    for (const s of segmenter.segment(text.slice(start, end))) out.push(s.segment);
    start = end;
  }
  return out;
}

/**
 * Offsets (UTF-16) at which grapheme clusters start, plus the end: of the whole text, or of the part
 * from `from` to `to`, widened to offsets where a cluster surely starts (so only that part is segmented).
 */
export function graphemeBoundaries(text: string, from = 0, to = text.length): number[] {
  const start = clusterCutAtOrBefore(text, from);
  const end = clusterCutAtOrAfter(text, to);
  const out: number[] = [];
  let at = start;
  for (const g of graphemes(text.slice(start, end))) {
    out.push(at);
    at += g.length;
  }
  out.push(at);
  return out;
}

/** The longest prefix of `text` that fits in `width` cells (never splits a grapheme). */
export function fitToWidth(text: string, width: number): { head: string; rest: string; width: number } {
  let used = 0;
  let cut = 0;
  let before = "";
  for (const g of graphemes(text)) {
    const w = graphemeWidth(g, before);
    if (used + w > width) break;
    used += w;
    cut += g.length;
    before = g;
  }
  return { head: text.slice(0, cut), rest: text.slice(cut), width: used };
}

/** Cuts to `width` cells, ending in `…` when something was cut. */
export function truncateToWidth(text: string, width: number): string {
  if (width <= 0) return "";
  if (stringWidth(text) <= width) return text;
  return `${fitToWidth(text, width - 1).head}…`;
}

/**
 * Wraps plain text to `width` cells: breaks after spaces when a word fits on the next row, else inside
 * the word (long paths, CJK). Newlines in the text start new rows. Returns at least one row.
 */
/** Tab stops in shown text (code in answers and diffs), every this many cells. */
export const TAB_STOP = 4;

/** The line with each tab turned into the spaces up to its stop; `col`: the cells before the line. */
export function expandTabs(line: string, col = 0): string {
  if (!line.includes("\t")) return line;
  let out = "";
  let at = col;
  let before = "";
  for (const g of graphemes(line)) {
    if (g === "\t") {
      const n = TAB_STOP - (at % TAB_STOP);
      out += " ".repeat(n);
      at += n;
    } else {
      out += g;
      at += graphemeWidth(g, before);
    }
    before = g;
  }
  return out;
}

export function wrapText(text: string, width: number): string[] {
  const rows: string[] = [];
  for (const line of text.split("\n")) rows.push(...wrapLine(expandTabs(line), Math.max(1, width)));
  return rows;
}

function wrapLine(line: string, width: number): string[] {
  if (stringWidth(line) <= width) return [line];
  const rows: string[] = [];
  let row = "";
  let rowWidth = 0;
  // Index in `row` just after the last space, to move the tail word to the next row.
  let breakAt = -1;
  let before = "";
  for (const g of graphemes(line)) {
    const w = graphemeWidth(g, before);
    before = g;
    if (rowWidth + w > width) {
      if (g === " ") {
        // The space that overflows is the break itself.
        rows.push(row);
        row = "";
        rowWidth = 0;
        breakAt = -1;
        continue;
      }
      if (breakAt > 0 && stringWidth(row.slice(breakAt)) + w <= width) {
        rows.push(row.slice(0, breakAt));
        row = row.slice(breakAt);
        rowWidth = stringWidth(row);
      } else {
        rows.push(row);
        row = "";
        rowWidth = 0;
      }
      breakAt = -1;
    }
    row += g;
    rowWidth += w;
    if (g === " ") breakAt = row.length;
  }
  rows.push(row);
  return rows;
}
