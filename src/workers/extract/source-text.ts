// Text helpers over the source string. node tree-sitter parses strings as UTF-16, so node.startIndex /
// endIndex are UTF-16 offsets that slice the JS string directly (checked by a non-ASCII test). Slicing
// the string ourselves avoids a native call per `node.text`, and a line table answers line numbers
// without another native call per node.

/** Anything with a UTF-16 range: a tree-sitter node or its light mirror. */
interface Ranged {
  startIndex: number;
  endIndex: number;
}

/** Longest type/param text kept in the AST: huge inline object types would bloat every record. */
export const MAX_TEXT_CHARS = 300;

export class SourceText {
  readonly source: string;
  private readonly lineStarts: number[];

  constructor(source: string) {
    this.source = source;
    const starts = [0];
    let i = source.indexOf("\n");
    while (i !== -1) {
      starts.push(i + 1);
      i = source.indexOf("\n", i + 1);
    }
    this.lineStarts = starts;
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** 1-based line of a UTF-16 offset. */
  lineAt(index: number): number {
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** Start offset of a 1-based line. */
  lineStart(line: number): number {
    return this.lineStarts[line - 1] ?? this.source.length;
  }

  startLine(node: Ranged): number {
    return this.lineAt(node.startIndex);
  }

  /** Line of the node's last character (endIndex is exclusive). */
  endLine(node: Ranged): number {
    const end = node.endIndex;
    return this.lineAt(end > node.startIndex ? end - 1 : end);
  }

  text(node: Ranged): string {
    return this.source.slice(node.startIndex, node.endIndex);
  }

  /** Node text on one line (whitespace runs collapsed) and capped, for types and params. */
  compactText(node: Ranged): string {
    return compact(this.text(node));
  }
}

export function compact(text: string): string {
  const oneLine = /\s/.test(text) ? text.replace(/\s+/g, " ").trim() : text;
  return oneLine.length > MAX_TEXT_CHARS ? oneLine.slice(0, MAX_TEXT_CHARS - 1) + "…" : oneLine;
}

/** The body of a string literal node: strips the quotes without unescaping. */
export function stringLiteralValue(text: string): string {
  const first = text.charCodeAt(0);
  // ' " `
  if (first === 39 || first === 34 || first === 96) return text.slice(1, text.length > 1 ? -1 : 1);
  return text;
}
