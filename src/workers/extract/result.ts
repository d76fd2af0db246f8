import type { ComplexityScore, FileAST } from "../ast-types.js";
import type { GraphFacts } from "../protocol.js";
import { complexityScore } from "./complexity.js";
import { emptyFacts } from "./facts.js";
import type { TodoEntry } from "./todo-markers.js";

/** What extractFile returns for one file. */
export interface ExtractResult {
  ast: FileAST;
  complexity: ComplexityScore;
  facts: GraphFacts;
  /** Comment markers (TODO …), for languages whose comments the extractor reads (JS/TS). */
  todos?: TodoEntry[];
}

export function emptyAst(parseError: boolean): FileAST {
  return { imports: [], exports: [], functions: [], classes: [], types: [], parseError };
}

/** The result for a file nothing could be extracted from. */
export function failedResult(): ExtractResult {
  return { ast: emptyAst(true), complexity: complexityScore(0, 0, 0), facts: emptyFacts() };
}
