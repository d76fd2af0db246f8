// Valid TypeScript that tree-sitter-typescript 0.23 cannot read, rewritten in place (same offsets, same
// lines) into text it can, and parsed again. Only for a file whose first parse has errors that are not
// known grammar gaps (grammar-gaps.ts), and kept only when the second parse is clean: a file with a real
// syntax error is reported as one. Two such spots, both in published .d.ts files:
// - `keyof readonly T[]` (TypeScript's own lib): `readonly` is blanked; the type's text is not read.
// - A generic call signature on its own line after a member with no `;` (vite's types, written without
//   semicolons): `<T>(x: T): R` closes the interface early. A `;` takes the place of the indentation
//   space before it, which is where TypeScript's own automatic insertion puts it.
import type Parser from "tree-sitter";
import type { SourceLanguage } from "../protocol.js";
import { onlyGrammarGaps } from "./grammar-gaps.js";
import { parseSource } from "./parsers.js";
import type { SourceText } from "./source-text.js";

type SyntaxNode = Parser.SyntaxNode;

const KEYOF_READONLY = /\bkeyof\s+(readonly)\b/g;
/** Rounds of repair: each parse may uncover the next signature the first error hid. */
const MAX_ROUNDS = 8;

export interface Repaired {
  source: string;
  tree: Parser.Tree;
}

function blankKeyofReadonly(source: string): string {
  return source.replace(KEYOF_READONLY, (match, word: string) => match.slice(0, match.length - word.length) + " ".repeat(word.length));
}

const MEMBER_LISTS = new Set(["interface_body", "object_type"]);

/**
 * Whether an ERROR stands where a member of an interface or type literal would: inside one (vite's case:
 * the grammar read the signature as more of the previous member's conditional type), or right after one
 * the grammar closed with a `}` that is not there.
 */
function atMemberPlace(error: SyntaxNode): boolean {
  for (let up = error.parent; up; up = up.parent) if (MEMBER_LISTS.has(up.type)) return true;
  let before = error.previousSibling;
  while (before?.type === "comment") before = before.previousSibling;
  let last = before?.lastChild ?? null;
  while (last && !last.isMissing && last.lastChild) last = last.lastChild;
  return !!last?.isMissing && last.type === "}" && MEMBER_LISTS.has(last.parent?.type ?? "");
}

/** Offsets of the space before each generic signature the grammar broke off at (see above). */
function signatureBreaks(root: SyntaxNode, source: string): number[] {
  const out: number[] = [];
  const pending: SyntaxNode[] = [root];
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (node.type === "ERROR" && source.charCodeAt(node.startIndex) === 0x3c /* < */ && atMemberPlace(node)) {
      const before = source[node.startIndex - 1];
      // First on its line, after indentation: a member of its own, not `a\n<b` inside an expression's line.
      const lineStart = source.lastIndexOf("\n", node.startIndex - 1) + 1;
      if ((before === " " || before === "\t") && source.slice(lineStart, node.startIndex).trim() === "") out.push(node.startIndex - 1);
      continue;
    }
    for (const child of node.children) if (child.hasError) pending.push(child);
  }
  return out;
}

/** Puts `;` at each offset (all of them hold one character of indentation). */
function withSeparators(source: string, at: number[]): string {
  let out = "";
  let from = 0;
  for (const i of at.sort((a, b) => a - b)) {
    out += `${source.slice(from, i)};`;
    from = i + 1;
  }
  return out + source.slice(from);
}

/**
 * A clean parse of `source` with the spots above rewritten, or null when there is none to be had.
 * `tree` is the first parse of `source` (of `ranges` of it, for a piece of a large file), with errors
 * that are not all grammar gaps.
 */
export function repairGrammarGaps(source: string, tree: Parser.Tree, language: SourceLanguage, text: SourceText, ranges?: Parser.Range[]): Repaired | null {
  if (language !== "typescript" && language !== "tsx") return null;
  let repaired = blankKeyofReadonly(source);
  let current = repaired === source ? tree : parseSource(repaired, language, ranges);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (repaired !== source && (!current.rootNode.hasError || onlyGrammarGaps(current.rootNode, text))) return { source: repaired, tree: current };
    const breaks = signatureBreaks(current.rootNode, repaired);
    if (!breaks.length) return null;
    repaired = withSeparators(repaired, breaks);
    current = parseSource(repaired, language, ranges);
  }
  return null;
}
