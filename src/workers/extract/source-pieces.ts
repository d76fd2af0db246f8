// Very large JS/TS files are parsed a piece at a time. A tree-sitter tree takes ≈ 45 bytes per source
// character (a 40 MB generated file: ≈ 1.9 GB, and the declaration mirror another 1 GB), so one parse of
// the whole file can exhaust a laptop. The file is cut at lines that start a top-level statement and each
// piece is parsed on its own (tree-sitter's included ranges: offsets and rows stay those of the whole
// file), extracted, and let go before the next one, so memory follows the piece, not the file.
//
// A cut inside a template literal, comment or block leaves the piece before it with a broken last
// statement: that piece is parsed again with more text until its end is whole (SourcePieces.next). A
// syntax error elsewhere in a piece does not move the cut: the piece ends with whole statements after it.
import type Parser from "tree-sitter";
import type { SourceLanguage } from "../protocol.js";
import { onlyGrammarGaps } from "./grammar-gaps.js";
import { repairGrammarGaps } from "./grammar-repairs.js";
import { parseSource } from "./parsers.js";
import type { SourceText } from "./source-text.js";

export interface PieceSizes {
  /** Sources at least this long (UTF-16 units) are parsed in pieces; shorter ones whole. */
  minChars: number;
  /** The length a piece is cut at (at the next statement line after it). */
  pieceChars: number;
}

export const DEFAULT_PIECE_SIZES: PieceSizes = { minChars: 2_000_000, pieceChars: 1_000_000 };

/** A line that starts, at column 0, a statement that can only sit at the top level. */
const STATEMENT_LINE = /(?:(?:export|import|function|async\s+function|class|abstract\s+class|const|let|var|interface|type|enum|declare|namespace)\b|module\.exports\b|exports\.|@)/y;

export interface ParsedPiece {
  tree: Parser.Tree;
  /** Syntax errors that are not grammar gaps (grammar-gaps.ts) and no repair could clear. */
  parseError: boolean;
  /** One of several pieces of the file (false: the whole file). */
  partial: boolean;
  /** Its length in UTF-16 units. */
  chars: number;
}

/**
 * The first statement line that starts at or after `from`, or the end of the source. A line right after
 * a decorator line is not one: the decorators go with what they decorate.
 */
export function nextStatementLine(source: string, from: number): number {
  let at = from === 0 || source[from - 1] === "\n" ? from : source.indexOf("\n", from) + 1;
  if (at === 0 && from > 0) return source.length;
  while (at < source.length) {
    STATEMENT_LINE.lastIndex = at;
    if (STATEMENT_LINE.test(source) && (at === 0 || source[source.lastIndexOf("\n", at - 2) + 1] !== "@")) return at;
    const newline = source.indexOf("\n", at);
    if (newline === -1) break;
    at = newline + 1;
  }
  return source.length;
}

/**
 * The file's parse as pieces, in order: one piece (the whole file) below `sizes.minChars`. `parsed` is
 * the text given to the parser (import types masked, same offsets as `text`). Nothing here keeps a piece
 * once it is handed out, so its tree can be collected as soon as the caller lets it go.
 */
export class SourcePieces {
  private start = 0;

  constructor(
    private readonly parsed: string,
    private readonly language: SourceLanguage,
    private readonly text: SourceText,
    private readonly sizes: PieceSizes = DEFAULT_PIECE_SIZES,
  ) {}

  get done(): boolean {
    // An empty file is still parsed once.
    return this.start > 0 && this.start >= this.parsed.length;
  }

  next(): ParsedPiece {
    const { parsed, language, text } = this;
    if (parsed.length < this.sizes.minChars) {
      this.start = Math.max(1, parsed.length);
      return { ...checked(parsed, language, text, parseSource(parsed, language), undefined), partial: false, chars: parsed.length };
    }
    const { start } = this;
    // A cut is searched for only after the piece's first line, so every piece holds at least one statement.
    let end = nextStatementLine(parsed, Math.max(start + this.sizes.pieceChars, text.lineStart(text.lineAt(start) + 1)));
    for (;;) {
      const ranges = [rangeOf(text, start, end)];
      const tree = parseSource(parsed, language, ranges);
      if (end < parsed.length && endIsBroken(tree.rootNode)) {
        // Twice as long, and at least one statement more: a bundle whose code sits unindented inside
        // one wrapper function grows to the end of the file, which is what a whole parse would see.
        end = nextStatementLine(parsed, Math.max(start + 2 * (end - start), end + 1));
        continue;
      }
      this.start = end;
      return { ...checked(parsed, language, text, tree, ranges), partial: true, chars: end - start };
    }
  }
}

type CheckedParse = Omit<ParsedPiece, "partial" | "chars">;

function checked(parsed: string, language: SourceLanguage, text: SourceText, tree: Parser.Tree, ranges: Parser.Range[] | undefined): CheckedParse {
  if (!tree.rootNode.hasError || onlyGrammarGaps(tree.rootNode, text)) return { tree, parseError: false };
  // Valid TypeScript the grammar cannot read, in the few shapes grammar-repairs.ts knows: parsed again.
  const repaired = repairGrammarGaps(parsed, tree, language, text, ranges);
  return repaired ? { tree: repaired.tree, parseError: false } : { tree, parseError: true };
}

/** Whether the piece's last statement is cut off (or the parser gave up on the whole piece). */
function endIsBroken(root: Parser.SyntaxNode): boolean {
  if (root.type === "ERROR") return true;
  let last = root.lastChild;
  while (last && last.type === "comment") last = last.previousSibling;
  return last !== null && (last.type === "ERROR" || last.isMissing || last.hasError);
}

function rangeOf(text: SourceText, start: number, end: number): Parser.Range {
  return { startIndex: start, endIndex: end, startPosition: pointAt(text, start), endPosition: pointAt(text, end) };
}

function pointAt(text: SourceText, offset: number): Parser.Point {
  const line = text.lineAt(offset);
  return { row: line - 1, column: offset - text.lineStart(line) };
}
