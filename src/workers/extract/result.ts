import type { ComplexityScore, FileAST } from "../ast-types.js";
import type { GraphFacts } from "../protocol.js";
import { complexityScore } from "./complexity.js";
import { emptyFacts } from "./facts.js";

/** What extractFile returns for one file. */
export interface ExtractResult {
  ast: FileAST;
  complexity: ComplexityScore;
  facts: GraphFacts;
}

export function emptyAst(parseError: boolean): FileAST {
  return { imports: [], exports: [], functions: [], classes: [], types: [], parseError };
}

/** The result for a file nothing could be extracted from. */
export function failedResult(): ExtractResult {
  return { ast: emptyAst(true), complexity: complexityScore(0, 0, 0), facts: emptyFacts() };
}
