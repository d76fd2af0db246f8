// A small syntax highlighter for the languages ipuaro indexes (TS/JS/JSX, JSON): comments, strings,
// template literals with `${}` expressions, numbers, keywords, types, calls. It works line by line and
// carries its state across lines, so a block comment or a template literal spanning lines stays coloured.
import type { Role } from "../theme.js";
import { compactLine, type Span, type StyledLine } from "./styled-text.js";

export type CodeLanguage = "ts" | "json" | "plain";

const KEYWORDS = new Set(
  (
    "abstract as async await break case catch class const continue debugger declare default delete do else enum export extends " +
    "false finally for from function get if implements import in infer instanceof interface is keyof let namespace new null " +
    "of override private protected public readonly return satisfies set static super switch this throw true try type typeof " +
    "undefined unique var void while with yield"
  ).split(" "),
);
const BUILTIN_TYPES = new Set("any bigint boolean never number object string symbol unknown".split(" "));

const EXTENSIONS: Record<string, CodeLanguage> = {
  ts: "ts",
  tsx: "ts",
  mts: "ts",
  cts: "ts",
  js: "ts",
  jsx: "ts",
  mjs: "ts",
  cjs: "ts",
  typescript: "ts",
  javascript: "ts",
  json: "json",
  jsonc: "json",
  json5: "json",
};

/** Language of a file path or a code fence tag (`ts`, `typescript`, `json` …). */
export function languageOf(pathOrTag: string): CodeLanguage {
  const tag = pathOrTag.toLowerCase();
  const ext = tag.includes(".") ? tag.slice(tag.lastIndexOf(".") + 1) : tag;
  return EXTENSIONS[ext] ?? "plain";
}

/** Where a line starts: inside nothing, a block comment, or a template literal (with its `${` depth stack). */
export interface HighlightState {
  mode: "code" | "block-comment" | "template";
  /** Brace depths at which an enclosing template literal resumes. */
  templates: number[];
  depth: number;
}

export function initialState(): HighlightState {
  return { mode: "code", templates: [], depth: 0 };
}

const IDENT = /[A-Za-z_$\u00c0-\uffff][\w$\u00c0-\uffff]*/y;
const NUMBER = /(?:0[xX][\da-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?)n?/y;

function readQuoted(line: string, at: number, quote: string): number {
  let i = at + 1;
  while (i < line.length) {
    const c = line[i]!;
    if (c === "\\") i += 2;
    else if (c === quote) return i + 1;
    else i++;
  }
  return line.length;
}

/** Highlights one line starting in `state`; returns its spans and the state the next line starts in. */
export function highlightLine(line: string, lang: CodeLanguage, state: HighlightState = initialState()): { spans: StyledLine; state: HighlightState } {
  if (lang === "plain") return { spans: [{ text: line }], state };
  const st: HighlightState = { mode: state.mode, templates: [...state.templates], depth: state.depth };
  const spans: Span[] = [];
  const push = (text: string, role?: Role) => {
    if (text) spans.push(role ? { text, role } : { text });
  };
  let i = 0;
  while (i < line.length) {
    if (st.mode === "block-comment") {
      const end = line.indexOf("*/", i);
      const stop = end === -1 ? line.length : end + 2;
      push(line.slice(i, stop), "comment");
      i = stop;
      if (end !== -1) st.mode = "code";
      continue;
    }
    if (st.mode === "template") {
      let j = i;
      while (j < line.length && line[j] !== "`" && !(line[j] === "$" && line[j + 1] === "{")) j += line[j] === "\\" ? 2 : 1;
      j = Math.min(j, line.length);
      if (j >= line.length) {
        push(line.slice(i), "string");
        i = line.length;
      } else if (line[j] === "`") {
        push(line.slice(i, j + 1), "string");
        i = j + 1;
        st.mode = "code";
      } else {
        push(line.slice(i, j), "string");
        push("${", "punct");
        st.templates.push(st.depth);
        st.depth++;
        st.mode = "code";
        i = j + 2;
      }
      continue;
    }
    const c = line[i]!;
    const next = line[i + 1];
    if (c === "/" && next === "/") {
      push(line.slice(i), "comment");
      break;
    }
    if (c === "/" && next === "*") {
      st.mode = "block-comment";
      const end = line.indexOf("*/", i + 2);
      const stop = end === -1 ? line.length : end + 2;
      push(line.slice(i, stop), "comment");
      i = stop;
      if (end !== -1) st.mode = "code";
      continue;
    }
    if (c === '"' || c === "'") {
      const end = readQuoted(line, i, c);
      // In JSON, a string followed by ':' is a key.
      const isKey = lang === "json" && /^\s*:/.test(line.slice(end));
      push(line.slice(i, end), isKey ? "type" : "string");
      i = end;
      continue;
    }
    if (c === "`" && lang === "ts") {
      push("`", "string");
      st.mode = "template";
      i++;
      continue;
    }
    if (c === "{") st.depth++;
    if (c === "}") {
      st.depth = Math.max(0, st.depth - 1);
      if (st.templates.length && st.templates[st.templates.length - 1] === st.depth) {
        st.templates.pop();
        push("}", "punct");
        st.mode = "template";
        i++;
        continue;
      }
    }
    if (/\d/.test(c) || (c === "." && next !== undefined && /\d/.test(next))) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(line);
      if (m && m[0]) {
        push(m[0], "number");
        i += m[0].length;
        continue;
      }
    }
    IDENT.lastIndex = i;
    const id = IDENT.exec(line);
    if (id) {
      push(id[0], identRole(id[0], line, i + id[0].length, lang));
      i += id[0].length;
      continue;
    }
    let j = i + 1;
    while (j < line.length && /[^\w$\s"'`/{}\u00c0-\uffff]/.test(line[j]!)) j++;
    push(line.slice(i, j), /\s/.test(c) ? undefined : "punct");
    i = j;
  }
  return { spans: compactLine(spans), state: st };
}

function identRole(word: string, line: string, after: number, lang: CodeLanguage): Role | undefined {
  if (lang === "json") return word === "true" || word === "false" || word === "null" ? "keyword" : undefined;
  if (KEYWORDS.has(word)) return "keyword";
  if (BUILTIN_TYPES.has(word)) return "type";
  if (/^[A-Z]/.test(word)) return "type";
  if (/^\s*(?:<[^>]*>)?\s*\(/.test(line.slice(after))) return "func";
  return undefined;
}

/** Highlights consecutive lines of one snippet. */
export function highlightLines(lines: readonly string[], lang: CodeLanguage): StyledLine[] {
  let state = initialState();
  return lines.map((l) => {
    const r = highlightLine(l, lang, state);
    state = r.state;
    return r.spans;
  });
}

export function highlightCode(code: string, lang: CodeLanguage): StyledLine[] {
  return highlightLines(code.split("\n"), lang);
}
