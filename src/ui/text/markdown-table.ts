// A Markdown table (`| a | b |` rows under a `|---|---|` line) drawn with aligned columns. One that does
// not fit the pane's width is left as its text lines (wrapped), which still read as a table of sorts.
import { lineWidth, span, type Span, type StyledLine } from "./styled-text.js";

export const TABLE_ROW = /^\s*\|.*\|\s*$/;
const SEPARATOR = /^\s*\|?(\s*:?-{1,}:?\s*\|)+\s*(:?-{1,}:?\s*)?\|?\s*$/;

function cells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, "").replace(/\|$/, "");
  // `\|` is a pipe inside a cell.
  return inner.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, "|"));
}

/** The table drawn to fit `width`, or null when `lines` are not a table or it does not fit. */
export function renderTable(lines: readonly string[], width: number, renderInline: (text: string) => StyledLine): StyledLine[] | null {
  if (lines.length < 2 || !SEPARATOR.test(lines[1]!)) return null;
  const rows = [lines[0]!, ...lines.slice(2)].map(cells);
  const columns = Math.max(...rows.map((r) => r.length));
  const rendered = rows.map((r) => Array.from({ length: columns }, (_, i) => renderInline(r[i] ?? "")));
  const widths = Array.from({ length: columns }, (_, i) => Math.max(1, ...rendered.map((r) => lineWidth(r[i]!))));
  const total = widths.reduce((a, b) => a + b, 0) + 3 * (columns - 1);
  if (total > width) return null;
  const line = (row: StyledLine[], header: boolean): StyledLine =>
    row.flatMap((cell, i) => {
      const padded: Span[] = [...cell.map((s) => (header ? { ...s, bold: true } : s)), { text: " ".repeat(widths[i]! - lineWidth(cell)) }];
      return i === 0 ? padded : [span(" │ ", "muted"), ...padded];
    });
  const rule: StyledLine = [span(widths.map((w) => "─".repeat(w)).join("─┼─"), "muted")];
  return [line(rendered[0]!, true), rule, ...rendered.slice(1).map((r) => line(r, false))];
}
