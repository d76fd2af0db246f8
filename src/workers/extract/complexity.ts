// ComplexityScore: a deliberately simple, explainable number for ranking files.
//
//   score = round(loc / 10 + nesting * 5 + imports * 2)
//
// loc: non-blank lines that hold something other than comments; nesting: the deepest nesting of
// statement blocks (function bodies, if/for/while/try blocks, switch bodies; a top-level function's body
// is depth 1; object and array literals do not count); imports: ImportInfo records. For JSON and YAML,
// nesting is the depth of nested mappings/sequences and imports is 0.
import type { ComplexityScore } from "../ast-types.js";

export function complexityScore(loc: number, nesting: number, imports: number): ComplexityScore {
  return { loc, nesting, imports, score: Math.round(loc / 10 + nesting * 5 + imports * 2) };
}

/**
 * Lines with code outside comments. `comments` is a flat, ordered [start, end, …] list of UTF-16
 * ranges; a line counts when its first character outside every comment is not whitespace.
 */
export function countCodeLines(source: string, comments: readonly number[]): number {
  let loc = 0;
  let c = 0; // index into comments (pairs)
  let pos = 0;
  const length = source.length;
  while (pos < length) {
    let lineEnd = source.indexOf("\n", pos);
    if (lineEnd === -1) lineEnd = length;
    let at = pos;
    while (at < lineEnd) {
      const code = source.charCodeAt(at);
      if (code === 32 || code === 9 || code === 13 || code === 0xfeff || code === 12 || code === 11) {
        at++;
        continue;
      }
      while (c < comments.length && comments[c + 1]! <= at) c += 2;
      if (c < comments.length && comments[c]! <= at) {
        at = comments[c + 1]!;
        continue;
      }
      loc++;
      break;
    }
    // A block comment can end on a later line: resume after it rather than at the next line start.
    pos = at > lineEnd ? source.lastIndexOf("\n", at - 1) + 1 : lineEnd + 1;
  }
  return loc;
}
