// JSON files: JSON.parse is far cheaper than tree-sitter for the little the index keeps (top-level keys),
// so tree-sitter-json runs only when JSON.parse refuses the text (JSONC comments, trailing commas, broken).
import { complexityScore } from "./complexity.js";
import { emptyFacts } from "./facts.js";
import { parseSource } from "./parsers.js";
import { emptyAst, type ExtractResult } from "./result.js";
import { stringLiteralValue } from "./source-text.js";
import type Parser from "tree-sitter";

/** Top-level keys kept per document: config files have few; a 10K-key data file should not bloat the index. */
export const MAX_KEYS = 500;

export function extractJson(source: string): ExtractResult {
  const body = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  let keys: string[];
  let parseError = false;
  try {
    const value: unknown = JSON.parse(body);
    keys = value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [];
  } catch {
    ({ keys, parseError } = keysFromTree(body));
  }
  const shape = scanJsonShape(body);
  const ast = emptyAst(parseError);
  ast.keys = keys.slice(0, MAX_KEYS);
  return { ast, complexity: complexityScore(shape.loc, shape.nesting, 0), facts: emptyFacts() };
}

function keysFromTree(body: string): { keys: string[]; parseError: boolean } {
  const root = parseSource(body, "json").rootNode;
  const keys: string[] = [];
  const top = root.namedChildren.find((n) => n.type !== "comment");
  // A broken top-level object comes back as an ERROR node; its well-formed pairs are still keys.
  if (top?.type === "object" || (top?.type === "ERROR" && body.trimStart().startsWith("{"))) {
    for (const pair of top.namedChildren) {
      if (pair.type !== "pair") continue;
      const key = pair.childForFieldName("key");
      if (key) keys.push(stringLiteralValue(body.slice(key.startIndex, key.endIndex)));
    }
  }
  return { keys, parseError: root.hasError && !onlyStrayCommas(root, body) };
}

/** Trailing commas (common in tsconfig.json and other JSONC) leave comma-only ERROR nodes; they are harmless. */
function onlyStrayCommas(root: Parser.SyntaxNode, body: string): boolean {
  const errors = root.descendantsOfType("ERROR");
  return errors.length > 0 && errors.every((e) => body.slice(e.startIndex, e.endIndex).trim() === ",");
}

/** One character pass: lines holding something besides comments, and the deepest `{`/`[` nesting. */
export function scanJsonShape(text: string): { loc: number; nesting: number } {
  let loc = 0;
  let lineHasCode = false;
  let depth = 0;
  let nesting = 0;
  let inString = false;
  let inBlockComment = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      if (lineHasCode) loc++;
      lineHasCode = false;
      continue;
    }
    if (inBlockComment) {
      if (c === 42 && text.charCodeAt(i + 1) === 47) {
        inBlockComment = false;
        i++;
      }
      continue;
    }
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 32 || c === 9 || c === 13) continue;
    if (c === 47 && text.charCodeAt(i + 1) === 47) {
      const end = text.indexOf("\n", i);
      i = (end === -1 ? text.length : end) - 1;
      continue;
    }
    if (c === 47 && text.charCodeAt(i + 1) === 42) {
      inBlockComment = true;
      i++;
      continue;
    }
    lineHasCode = true;
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > nesting) nesting = depth;
    } else if (c === 125 || c === 93) depth = Math.max(0, depth - 1);
  }
  if (lineHasCode) loc++;
  return { loc, nesting };
}
