// JS/TS/TSX/JSX files: parse once (a very large file a piece at a time), then a statement walk for
// declarations and one deep pass for calls, comments and nesting. A failure inside one pass keeps what
// the others found and marks parseError.
import type Parser from "tree-sitter";
import type { SourceLanguage } from "../protocol.js";
import { runDeepPass, type DeepFacts } from "./calls.js";
import { createCodeContext, type CodeContext } from "./code-context.js";
import { complexityScore, countCodeLines } from "./complexity.js";
import { walkStatements } from "./declarations.js";
import { resolveLocalExports } from "./exports.js";
import { buildGraphFacts } from "./facts.js";
import { maskImportTypes } from "./import-type-mask.js";
import { importRecord } from "./imports.js";
import { buildLightTree, typeRanges } from "./light-tree.js";
import { SourcePieces, type PieceSizes } from "./source-pieces.js";
import { SourceText } from "./source-text.js";
import type { ExtractResult } from "./result.js";
import { commentMarkers } from "./todo-markers.js";

/**
 * extractCode a step at a time: a very large file is parsed in pieces (source-pieces.ts), and the
 * generator pauses after each one, with nothing holding its tree, yielding the piece's length. node
 * tree-sitter frees a tree only when V8 collects its wrapper and a turn of the event loop runs its
 * finaliser, and V8 does not count the native memory: the index worker collects garbage and yields
 * at these pauses.
 */
export function* extractCodeSteps(source: string, language: SourceLanguage, sizes?: PieceSizes): Generator<number, ExtractResult, void> {
  // Import types only exist in TypeScript; in JavaScript `import("x")` is always code.
  const masked = language === "javascript" ? null : maskImportTypes(source);
  const parsed = masked ? masked.source : source;
  const ctx = createCodeContext(new SourceText(source));
  for (const { from, at } of masked?.importTypes ?? []) ctx.ast.imports.push({ ...importRecord("*", from, ctx.text.lineAt(at), false), isTypeOnly: true });
  const deep: DeepFacts = { calls: [], comments: [], nesting: 0 };
  const pieces = new SourcePieces(parsed, language, ctx.text, sizes);
  while (!pieces.done) {
    const freed = extractNextPiece(ctx, pieces, language, deep);
    if (freed) yield freed;
  }
  try {
    resolveLocalExports(ctx);
  } catch {
    ctx.ast.parseError = true;
  }
  // Dynamic imports are found after the static ones; keep the list in source order.
  ctx.ast.imports.sort((a, b) => a.line - b.line);
  const complexity = complexityScore(countCodeLines(source, deep.comments), deep.nesting, ctx.ast.imports.length);
  return { ast: ctx.ast, complexity, facts: buildGraphFacts(ctx.ast, deep.calls, ctx), todos: commentMarkers(ctx.text, deep.comments) };
}

export function extractCode(source: string, language: SourceLanguage, sizes?: PieceSizes): ExtractResult {
  return runToEnd(extractCodeSteps(source, language, sizes));
}

export function runToEnd<T>(steps: Generator<unknown, T, void>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Parses and extracts the next piece; when it was one of several, its length (its tree is free to go), else 0. */
function extractNextPiece(ctx: CodeContext, pieces: SourcePieces, language: SourceLanguage, deep: DeepFacts): number {
  const piece = pieces.next();
  if (piece.parseError) ctx.ast.parseError = true;
  extractPiece(ctx, piece.tree, language, deep);
  return piece.partial ? piece.chars : 0;
}

/** The declaration walk and the deep pass over one parse (the whole file, or one piece of it, in order). */
function extractPiece(ctx: CodeContext, tree: Parser.Tree, language: SourceLanguage, deep: DeepFacts): void {
  try {
    const skeleton = buildLightTree(tree, language);
    for (const bound of typeRanges(skeleton)) ctx.typeRanges.push(bound);
    walkStatements(ctx, skeleton, true);
  } catch {
    ctx.ast.parseError = true;
  }
  try {
    // A piece's calls can only sit in scopes that reach into it (an overload group widened by an
    // implementation in this piece started in an earlier one): the rest are left out of the search.
    const pieceStart = tree.rootNode.startIndex;
    runDeepPass(ctx, tree, deep, pieceStart === 0 ? ctx.scopes : ctx.scopes.filter((s) => s.end > pieceStart));
  } catch {
    ctx.ast.parseError = true;
  }
}
