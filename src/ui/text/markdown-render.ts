// Markdown-ish rendering of the model's answers for the chat pane: fenced code blocks with syntax
// highlighting, headings, lists with a hanging indent, block quotes, tables (markdown-table.ts), `inline code`, **bold** and *emphasis*. Only the display wraps;
// the stored text stays whole. An unclosed fence (an answer still streaming) renders as code so far.
import { highlightLine, initialState, languageOf, type HighlightState } from "./highlight.js";
import { renderTable, TABLE_ROW } from "./markdown-table.js";
import { compactLine, span, wrapStyled, type Span, type StyledLine } from "./styled-text.js";

const FENCE = /^\s*(```+|~~~+)\s*([\w+#.-]*)/;
const HEADING = /^(#{1,6})\s+(.*)$/;
const LIST_ITEM = /^(\s*)([-*+]|\d+[.)])\s+/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const CODE_GUTTER: Span = { text: "│ ", role: "muted" };
/** Columns a code block's gutter takes from each row. */
export const CODE_GUTTER_WIDTH = CODE_GUTTER.text.length;
const QUOTE_BAR: Span = { text: "▏ ", role: "muted" };

// Before an emphasis marker: the line's start, a space or opening punctuation (not a slash, as in globs).
const EMPHASIS_BEFORE = String.raw`(?<=^|[\s(\[{"'«“‘—-])`;
// After the closing marker: the end, a space or closing punctuation.
const EMPHASIS_AFTER = String.raw`(?=$|[\s)\]}"'»”’.,;:!?—-])`;
const emphasis = (marker: string) => String.raw`${EMPHASIS_BEFORE}${marker}(?=[^\s${marker}])([^${marker}]*?[^\s${marker}])${marker}${EMPHASIS_AFTER}`;
/** `code` (any number of backticks), **bold**, *emphasis*, _emphasis_. */
const INLINE = new RegExp(String.raw`(\x60+)([^\x60]*?)\1|\*\*([^*]+)\*\*|${emphasis("\\*")}|${emphasis("_")}`, "gu");

/**
 * `inline code`, **bold** and *emphasis* / _emphasis_ inside one line of prose. Emphasis is underlined, as
 * man pages show italics (blessed has no italic attribute); its markers must hug a word, so `a * b`,
 * `2*3*4`, `snake_case_name` and a `* item` bullet stay as they are.
 */
export function renderInline(text: string): StyledLine {
  const out: Span[] = [];
  const re = new RegExp(INLINE);
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push({ text: text.slice(last, m.index) });
    if (m[2] !== undefined) out.push(span(m[2], "code"));
    else if (m[3] !== undefined) out.push({ text: m[3], bold: true });
    else out.push({ text: (m[4] ?? m[5])!, underline: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return compactLine(out);
}

export function renderMarkdown(text: string, width: number): StyledLine[] {
  const rows: StyledLine[] = [];
  let fence: { marker: string; lang: ReturnType<typeof languageOf>; state: HighlightState } | null = null;
  const lines = text.split("\n");
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    if (!fence && TABLE_ROW.test(line)) {
      let end = n;
      while (end < lines.length && TABLE_ROW.test(lines[end]!)) end++;
      const table = renderTable(lines.slice(n, end), width, renderInline);
      if (table) {
        rows.push(...table);
        n = end - 1;
        continue;
      }
    }
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1]!.startsWith(fence.marker) && !f[2]) {
        fence = null;
        continue;
      }
      const r = highlightLine(line, fence.lang, fence.state);
      fence.state = r.state;
      rows.push(...wrapStyled([CODE_GUTTER, ...r.spans], width, [CODE_GUTTER]));
      continue;
    }
    if (f) {
      fence = { marker: f[1]!, lang: languageOf(f[2] || "plain"), state: initialState() };
      if (f[2]) rows.push([span(`╭ ${f[2]}`, "muted")]);
      continue;
    }
    const h = HEADING.exec(line);
    if (h) {
      rows.push(...wrapStyled([span(h[2]!, "heading")], width));
      continue;
    }
    // `> quoted` (nested `> >` too): a bar in the margin, the text muted.
    const quote = QUOTE.exec(line);
    if (quote) {
      let body = quote[1]!;
      let depth = 1;
      for (let q = QUOTE.exec(body); q; q = QUOTE.exec(body)) {
        body = q[1]!;
        depth++;
      }
      const bars = Array.from({ length: depth }, () => QUOTE_BAR);
      rows.push(...wrapStyled([...bars, ...renderInline(body).map((s) => ({ ...s, role: s.role ?? "muted" }))], width, bars));
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      const indent = " ".repeat(item[0].length);
      rows.push(...wrapStyled(renderInline(line), width, [{ text: indent }]));
      continue;
    }
    rows.push(...wrapStyled(renderInline(line), width));
  }
  return rows;
}
