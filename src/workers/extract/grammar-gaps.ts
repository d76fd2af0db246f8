// tree-sitter-typescript 0.23 (the newest) has no rules for some valid TypeScript and answers with ERROR
// nodes; the extractor reads those spots anyway (exports.ts, declarations.ts). A file whose only errors
// are such spots is valid code: it must not be reported as having syntax errors. (Import types with type
// arguments are masked before parsing instead: import-type-mask.ts.)
import type Parser from "tree-sitter";
import type { SourceText } from "./source-text.js";

type SyntaxNode = Parser.SyntaxNode;

/** Modifiers the grammar cannot take as a member's name (`interface Spec { abstract?: boolean }`). */
const MODIFIER_AS_NAME = /^(?:abstract|declare|readonly|static|public|private|protected|override|accessor)\??:?$/;
const VARIANCE = /^(?:in|out)$/;
/** What follows a variance keyword the grammar took for the parameter's name: the name (after `in out`, `out` too). */
const NAME_AFTER_VARIANCE = /^(?:out\s+)?[A-Za-z_$][\w$]*$/;

/** Variance annotations (TypeScript 4.7): `<in T>`, `<out T = unknown>`, `<in out T extends U>`. */
function isVarianceGap(error: SyntaxNode, parent: SyntaxNode, text: SourceText): boolean {
  const before = error.previousSibling;
  // `<in T>`: the keyword became the parameter, its name an ERROR beside it.
  if (parent.type === "type_parameters" && before?.type === "type_parameter" && VARIANCE.test(text.text(before))) return NAME_AFTER_VARIANCE.test(text.text(error));
  // `<in T = never>`, `<out T extends U>`: the same, inside the parameter that kept its default or constraint.
  if (parent.type === "type_parameter") return before === parent.firstChild && before?.type === "type_identifier" && VARIANCE.test(text.text(before)) && NAME_AFTER_VARIANCE.test(text.text(error));
  // A parameter on a line of its own (`<\n  out T = unknown,`): the keyword alone is the ERROR.
  return parent.type === "type_parameters" && /^(?:in|out|in\s+out)$/.test(text.text(error)) && error.nextSibling?.type === "type_parameter";
}

function isGrammarGap(error: SyntaxNode, text: SourceText): boolean {
  const parent = error.parent;
  if (!parent) return false;
  // `export type * from "x"` (TypeScript 5.0): the ERROR is the `type` keyword.
  if (parent.type === "export_statement") return text.text(error) === "type";
  // `export default function (a: T): R;`, a .d.ts default signature (declarations.ts recovers it).
  if (parent.type === "expression_statement") {
    return /^export\s+default\s+(?:async\s+)?function\b/.test(text.text(parent)) && error.children.some((c) => c.type === "formal_parameters");
  }
  // The same signature followed by tsc's closing `export {};`, which the grammar takes for its body.
  if (parent.type === "function_expression") return parent.parent?.type === "export_statement" && /^;\s*export$/.test(text.text(error));
  if (parent.type === "interface_body" || parent.type === "object_type") return MODIFIER_AS_NAME.test(text.text(error));
  if (parent.type === "type_parameters" || parent.type === "type_parameter") return isVarianceGap(error, parent, text);
  return false;
}

/**
 * `global { … }` inside `declare module "x" { … }` (a global augmentation, as in @types/node): the
 * grammar reads `global` as an expression missing its `;`, followed by a block.
 */
function isNestedGlobal(missing: SyntaxNode, text: SourceText): boolean {
  const statement = missing.parent;
  if (missing.type !== ";" || statement?.type !== "expression_statement" || text.text(statement.firstChild as SyntaxNode) !== "global") return false;
  const body = statement.parent;
  return body?.type === "statement_block" && (body.parent?.type === "module" || body.parent?.type === "internal_module") && statement.nextSibling?.type === "statement_block";
}

/** True when the tree's errors are all grammar gaps, so the file itself is valid (call only when hasError). */
export function onlyGrammarGaps(root: SyntaxNode, text: SourceText): boolean {
  const pending: SyntaxNode[] = [root];
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (node.isMissing) {
      if (!isNestedGlobal(node, text)) return false;
      continue;
    }
    if (node.type === "ERROR") {
      if (!isGrammarGap(node, text)) return false;
      continue;
    }
    for (const child of node.children) if (child.hasError || child.isMissing) pending.push(child);
  }
  return true;
}
