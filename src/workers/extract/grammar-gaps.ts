// tree-sitter-typescript 0.23 (the newest) has no rules for some valid TypeScript and answers with ERROR
// nodes; the extractor reads those spots anyway (exports.ts, declarations.ts). A file whose only errors
// are such spots is valid code: it must not be reported as having syntax errors.
import type Parser from "tree-sitter";
import type { SourceText } from "./source-text.js";

type SyntaxNode = Parser.SyntaxNode;

/** Modifiers the grammar cannot take as a member's name (`interface Spec { abstract?: boolean }`). */
const MODIFIER_AS_NAME = /^(?:abstract|declare|readonly|static|public|private|protected|override|accessor)\??:?$/;

function isGrammarGap(error: SyntaxNode, text: SourceText): boolean {
  const parent = error.parent;
  if (!parent) return false;
  // `export type * from "x"` (TypeScript 5.0): the ERROR is the `type` keyword.
  if (parent.type === "export_statement") return text.text(error) === "type";
  // `export default function (a: T): R;`, a .d.ts default signature (declarations.ts recovers it).
  if (parent.type === "expression_statement") {
    return /^export\s+default\s+(?:async\s+)?function\b/.test(text.text(parent)) && error.children.some((c) => c.type === "formal_parameters");
  }
  if (parent.type === "interface_body" || parent.type === "object_type") return MODIFIER_AS_NAME.test(text.text(error));
  // Variance annotations, `<in T>`, `<out T>`, `<in out T>` (TypeScript 4.7): the grammar takes `in` or
  // `out` for the parameter and leaves the rest as an ERROR.
  if (parent.type === "type_parameters") {
    const before = error.previousSibling;
    return before?.type === "type_parameter" && /^(?:in|out)$/.test(text.text(before)) && /^(?:out\s+)?[A-Za-z_$][\w$]*$/.test(text.text(error));
  }
  return false;
}

/** True when the tree's errors are all grammar gaps, so the file itself is valid (call only when hasError). */
export function onlyGrammarGaps(root: SyntaxNode, text: SourceText): boolean {
  const pending: SyntaxNode[] = [root];
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (node.isMissing) return false;
    if (node.type === "ERROR") {
      if (!isGrammarGap(node, text)) return false;
      continue;
    }
    for (const child of node.children) if (child.hasError || child.isMissing) pending.push(child);
  }
  return true;
}
