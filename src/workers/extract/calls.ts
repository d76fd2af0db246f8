// The deep pass: one native descendantsOfType walk (deep-nodes.ts) collects every node kind that can sit
// anywhere in the tree (calls, comments, blocks). From them: call sites, dynamic import()/require() edges,
// comment ranges for the line count, and block nesting. A single walk in C is much cheaper than a query
// or a JS cursor walk; callees are read from the source text, so most call nodes need no further native call.
import type Parser from "tree-sitter";
import type { CallSite } from "../ast-types.js";
import type { CodeContext, Scope } from "./code-context.js";
import { collectDeepNodes, type DeepNodes } from "./deep-nodes.js";
import { importRecord } from "./imports.js";

/** Call sites kept per file: enough for a call graph, small enough for a worker message. */
export const MAX_CALLS_PER_FILE = 2000;

const DEEP_TYPES = ["call_expression", "comment", "statement_block", "switch_body"];

export interface DeepFacts {
  calls: CallSite[];
  /** Comment ranges as flat [start, end, start, end, …] UTF-16 offsets, in order. */
  comments: number[];
  /** Maximum depth of nested statement blocks / switch bodies. */
  nesting: number;
}

/**
 * Adds one parse's facts (the whole file's, or one piece's in order: see source-pieces.ts) to `into`;
 * `scopes` are the named ranges that can enclose its calls.
 */
export function runDeepPass(ctx: CodeContext, tree: Parser.Tree, into: DeepFacts, scopes: Scope[]): void {
  const nodes = collectDeepNodes(tree, ctx.text, DEEP_TYPES);
  const source = ctx.text.source;
  const { calls, comments } = into;
  const blockEnds: number[] = [];
  let nesting = into.nesting;
  const callerAt = scopeFinder(scopes);
  const count = nodes.count;
  for (let i = 0; i < count; i++) {
    const start = nodes.start(i);
    const kind = nodeKind(source, start, nodes, i);
    if (kind === "comment") {
      comments.push(start, nodes.end(i));
    } else if (kind === "call_expression") {
      // Pre-order: a call whose callee contains another call at the same offset (`a.b().c()`) comes first.
      const isOuterOfChain = i + 1 < count && nodes.start(i + 1) === start && nodeKind(source, start, nodes, i + 1) === "call_expression";
      const simple = isOuterOfChain ? null : readSimpleCallee(source, start);
      if (simple && (simple.callee === "import" || simple.callee === "require")) {
        const isImport = simple.callee === "import";
        if (isImport || !ctx.recordedRequireCalls.has(start)) addDynamicImport(ctx, source, simple.argsAt, nodes.line(i), start, isImport);
        continue;
      }
      if (calls.length >= MAX_CALLS_PER_FILE) continue;
      const callee = simple ? simple.callee : trailingChain(source, nodes.functionRange(i));
      if (callee) calls.push({ caller: callerAt(start), callee, line: nodes.line(i) });
    } else {
      while (blockEnds.length > 0 && blockEnds[blockEnds.length - 1]! <= start) blockEnds.pop();
      blockEnds.push(nodes.end(i));
      if (blockEnds.length > nesting) nesting = blockEnds.length;
    }
  }
  into.nesting = nesting;
}

/**
 * The deep node's type, mostly from its first character: `node.type` is a native call, and comments
 * (`//`, `/*`) and blocks (`{`) are told apart from calls by how they start. Only a call that starts
 * with `{` (`{a: 1}.toString()`) needs the tree's answer.
 */
function nodeKind(source: string, start: number, nodes: DeepNodes, i: number): string {
  const c = source.charCodeAt(start);
  if (c === 47 /* / */) {
    const next = source.charCodeAt(start + 1);
    if (next === 47 || next === 42) return "comment";
    return "call_expression";
  }
  return c === 123 /* { */ ? nodes.type(i) : "call_expression";
}

/**
 * If the call starts with a plain identifier / member chain directly followed by its arguments
 * (`(`, `<T>(`, `?.(`, a tagged template), returns that chain with `?.` read as `.`; otherwise null and
 * the caller asks the tree. A hand-rolled scan: this runs for every call in the file.
 */
function readSimpleCallee(source: string, start: number): { callee: string; argsAt: number } | null {
  if (!isIdentifierStart(source.charCodeAt(start))) return null;
  if (startsWithKeyword(source, start)) return null; // `function () {}()`, `new (X)().y()`
  const parts: string[] = [];
  let at = start;
  for (;;) {
    const segment = at;
    at++;
    while (isIdentifierPart(source.charCodeAt(at))) at++;
    parts.push(source.slice(segment, at));
    let next = skipSpace(source, at);
    const c = source.charCodeAt(next);
    if (c === 46 /* . */) next++;
    else if (c === 63 /* ? */ && source.charCodeAt(next + 1) === 46 && source.charCodeAt(next + 2) !== 40 /* ( */) next += 2;
    else break;
    next = skipSpace(source, next);
    if (source.charCodeAt(next) === 35 /* # */ && isIdentifierStart(source.charCodeAt(next + 1))) {
      at = next;
      continue;
    }
    if (!isIdentifierStart(source.charCodeAt(next))) return null; // `a?.[0]()`, `a.b.0`…
    at = next;
  }
  const argsAt = skipSpace(source, at);
  const c = source.charCodeAt(argsAt);
  const opensArgs = c === 40 /* ( */ || c === 60 /* < */ || c === 96 /* ` */ || (c === 63 /* ? */ && source.startsWith("?.(", argsAt));
  return opensArgs ? { callee: parts.length === 1 ? parts[0]! : parts.join("."), argsAt } : null;
}

/** Words that can open a call node without being its callee. */
const KEYWORDS = ["function", "new", "class", "typeof", "void", "delete", "await", "yield"];

function startsWithKeyword(source: string, start: number): boolean {
  for (const word of KEYWORDS) {
    if (source.startsWith(word, start) && !isIdentifierPart(source.charCodeAt(start + word.length))) return true;
  }
  return false;
}

function isIdentifierStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || c >= 0xa0;
}

function isIdentifierPart(c: number): boolean {
  return isIdentifierStart(c) || (c >= 48 && c <= 57);
}

function skipSpace(source: string, at: number): number {
  while (at < source.length && isSpace(source.charCodeAt(at))) at++;
  return at;
}

/**
 * The callee name when the callee is not a plain chain: the last member name (`a.b(c).d` → `d`,
 * `(x as T).y.z` → `z`), the identifier itself, or "" when nothing names it (`(0, f)`, `arr[0]`, `f!`).
 */
function trailingChain(source: string, fn: [number, number] | null): string {
  if (!fn) return "";
  const [from, end] = fn;
  let i = end;
  while (i > from && (isIdentifierPart(source.charCodeAt(i - 1)) || source.charCodeAt(i - 1) === 35 /* # */)) i--;
  if (i === end) return "";
  if (i === from || source.charCodeAt(i - 1) === 46 /* . */) return source.slice(i, end);
  return "";
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/**
 * `import("m")` / `require("m")` with a plain string (or substitution-free template) argument. In a type
 * position (`typeof import("m")`, `x: import("m").T`) it is a type-only import, not a runtime one.
 */
function addDynamicImport(ctx: CodeContext, source: string, argsAt: number, line: number, callStart: number, isImport: boolean): void {
  if (source.charCodeAt(argsAt) !== 40) return;
  let at = argsAt + 1;
  while (at < source.length && isSpace(source.charCodeAt(at))) at++;
  const quote = source[at];
  if (quote !== '"' && quote !== "'" && quote !== "`") return;
  const close = source.indexOf(quote, at + 1);
  if (close === -1) return;
  const from = source.slice(at + 1, close);
  if (from.includes("\\") || from.includes("\n") || (quote === "`" && from.includes("${"))) return;
  // The literal must be the whole first argument: `require("./x/" + name)` names no module.
  let after = close + 1;
  while (after < source.length && isSpace(source.charCodeAt(after))) after++;
  if (source[after] !== ")" && source[after] !== ",") return;
  const record = importRecord("*", from, line, false);
  if (isImport && isTypePosition(ctx, source, callStart)) record.isTypeOnly = true;
  else record.isDynamic = true;
  ctx.ast.imports.push(record);
}

function isTypePosition(ctx: CodeContext, source: string, at: number): boolean {
  if (/\btypeof\s*$/.test(source.slice(Math.max(0, at - 16), at))) return true;
  const ranges = ctx.typeRanges;
  let lo = 0;
  let hi = ranges.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ranges[mid * 2 + 1]! <= at) lo = mid + 1;
    else if (ranges[mid * 2]! > at) hi = mid - 1;
    else return true;
  }
  return false;
}

/** Innermost named scope around an offset; offsets must be queried in non-decreasing order. */
function scopeFinder(scopes: Scope[]): (offset: number) => string {
  const sorted = [...scopes].sort((a, b) => a.start - b.start || b.end - a.end);
  const stack: Scope[] = [];
  let next = 0;
  return (offset) => {
    while (next < sorted.length && sorted[next]!.start <= offset) {
      const scope = sorted[next++]!;
      while (stack.length > 0 && stack[stack.length - 1]!.end <= scope.start) stack.pop();
      stack.push(scope);
    }
    while (stack.length > 0 && stack[stack.length - 1]!.end <= offset) stack.pop();
    return stack.length > 0 ? stack[stack.length - 1]!.name : "<module>";
  };
}
