// JS/TS/TSX/JSX files: parse once, then a statement walk for declarations and one deep pass for calls,
// comments and nesting. A failure inside one pass keeps what the others found and marks parseError.
import type { SourceLanguage } from "../protocol.js";
import { runDeepPass, type DeepFacts } from "./calls.js";
import { createCodeContext } from "./code-context.js";
import { complexityScore, countCodeLines } from "./complexity.js";
import { extractDeclarations } from "./declarations.js";
import { buildGraphFacts } from "./facts.js";
import { onlyGrammarGaps } from "./grammar-gaps.js";
import { repairGrammarGaps } from "./grammar-repairs.js";
import { maskImportTypes } from "./import-type-mask.js";
import { importRecord } from "./imports.js";
import { buildLightTree, typeRanges } from "./light-tree.js";
import { parseSource } from "./parsers.js";
import { SourceText } from "./source-text.js";
import type { ExtractResult } from "./result.js";
import { commentMarkers } from "./todo-markers.js";

export function extractCode(source: string, language: SourceLanguage): ExtractResult {
  // Import types only exist in TypeScript; in JavaScript `import("x")` is always code.
  const masked = language === "javascript" ? null : maskImportTypes(source);
  const parsed = masked ? masked.source : source;
  let tree = parseSource(parsed, language);
  const ctx = createCodeContext(new SourceText(source));
  for (const { from, at } of masked?.importTypes ?? []) ctx.ast.imports.push({ ...importRecord("*", from, ctx.text.lineAt(at), false), isTypeOnly: true });
  ctx.ast.parseError = tree.rootNode.hasError && !onlyGrammarGaps(tree.rootNode, ctx.text);
  if (ctx.ast.parseError) {
    // Valid TypeScript the grammar cannot read, in the few shapes grammar-repairs.ts knows: parsed again.
    const repaired = repairGrammarGaps(parsed, tree, language, ctx.text);
    if (repaired) {
      tree = repaired.tree;
      ctx.ast.parseError = false;
    }
  }
  try {
    const skeleton = buildLightTree(tree, language);
    ctx.typeRanges = typeRanges(skeleton);
    extractDeclarations(ctx, skeleton);
  } catch {
    ctx.ast.parseError = true;
  }
  let deep: DeepFacts = { calls: [], comments: [], nesting: 0 };
  try {
    deep = runDeepPass(ctx, tree);
  } catch {
    ctx.ast.parseError = true;
  }
  // Dynamic imports are found after the static ones; keep the list in source order.
  ctx.ast.imports.sort((a, b) => a.line - b.line);
  const complexity = complexityScore(countCodeLines(source, deep.comments), deep.nesting, ctx.ast.imports.length);
  return { ast: ctx.ast, complexity, facts: buildGraphFacts(ctx.ast, deep.calls, ctx), todos: commentMarkers(ctx.text, deep.comments) };
}
