// Turns tree-sitter-bash word nodes into the argv values bash would see, where those are known before
// the command runs: quotes removed, backslash escapes and $'…' strings resolved. Anything bash fills in
// at run time ($VAR, $(…), `…`, $((…)), {a,b}, ~) marks the word dynamic; its value then keeps that
// part's source text, which is good for messages and nothing else.
import type Parser from "tree-sitter";

type SyntaxNode = Parser.SyntaxNode;

export interface ShellWord {
  /** Source text of the word, quotes and all. */
  raw: string;
  /** Value after quote removal and escape resolution; dynamic parts keep their source text. */
  value: string;
  /** Holds a part whose value is only known at run time (expansion, substitution, brace, tilde). */
  dynamic: boolean;
  /** Holds an unquoted glob character (`*`, `?`, `[`), so it may become other words or several. */
  glob: boolean;
  /** Starts with an unquoted `~` (home directory). */
  tilde: boolean;
  /** The literal text before the first dynamic or glob part (the whole value when there is none). */
  literalPrefix: string;
}

class WordBuilder {
  value = "";
  dynamic = false;
  glob = false;
  tilde = false;
  literalPrefix: string | null = null;

  literal(text: string): void {
    this.value += text;
  }
  special(text: string, kind: "dynamic" | "glob"): void {
    if (this.literalPrefix === null) this.literalPrefix = this.value;
    this.value += text;
    if (kind === "dynamic") this.dynamic = true;
    else this.glob = true;
  }
}

/** A word made of several nodes that bash reads as one (no blank between them). */
export function wordFromNodes(nodes: readonly SyntaxNode[], source: string): ShellWord {
  const builder = new WordBuilder();
  for (const node of nodes) appendNode(builder, node, nodes[0] === node);
  const raw = nodes.length === 0 ? "" : source.slice(nodes[0]!.startIndex, nodes[nodes.length - 1]!.endIndex);
  // Brace expansion (`-{r,f}` → `-r -f`) can split one word into several.
  if (/\{[^{}]*(,|\.\.)[^{}]*\}/.test(unquotedText(nodes))) builder.dynamic = true;
  return {
    raw,
    value: builder.value,
    dynamic: builder.dynamic,
    glob: builder.glob,
    tilde: builder.tilde,
    literalPrefix: builder.literalPrefix ?? builder.value,
  };
}

/** A word that ipuaro made up (xargs' default `echo`), or text from a payload split on blanks. */
export function literalWord(value: string): ShellWord {
  return { raw: value, value, dynamic: false, glob: false, tilde: false, literalPrefix: value };
}

function unquotedText(nodes: readonly SyntaxNode[]): string {
  let text = "";
  const visit = (node: SyntaxNode): void => {
    if (node.type === "word") text += node.text.replace(/\\./gs, "");
    else if (node.type === "concatenation") node.children.forEach(visit);
    else text += " ";
  };
  nodes.forEach(visit);
  return text;
}

function appendNode(builder: WordBuilder, node: SyntaxNode, first: boolean): void {
  switch (node.type) {
    case "word":
      appendUnquoted(builder, node.text, first);
      return;
    case "number":
    case "variable_name":
    case "test_operator":
    case "regex":
      builder.literal(node.text);
      return;
    case "raw_string":
      builder.literal(node.text.slice(1, -1));
      return;
    case "ansi_c_string":
      builder.literal(decodeAnsiC(node.text.slice(2, -1)));
      return;
    case "string":
    case "translated_string":
      appendDoubleQuoted(builder, node);
      return;
    case "concatenation": {
      const children = node.children;
      children.forEach((child, index) => {
        // `$"…"` (a translated string) parses as an anonymous `$` followed by a string.
        if (child.type === "$" && children[index + 1]?.type === "string") return;
        appendNode(builder, child, first && index === 0);
      });
      return;
    }
    case "$":
      builder.literal("$");
      return;
    default:
      // Expansions and substitutions, and any node type this module does not know.
      builder.special(node.text, node.type === "extglob_pattern" ? "glob" : "dynamic");
  }
}

function appendUnquoted(builder: WordBuilder, text: string, first: boolean): void {
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === "\\") {
      const next = text[i + 1];
      if (next === undefined) builder.literal("\\");
      else if (next !== "\n") builder.literal(next); // backslash-newline is a line continuation
      i++;
    } else if (char === "*" || char === "?" || char === "[") {
      builder.special(char, "glob");
    } else if (char === "~" && first && i === 0) {
      builder.tilde = true;
      builder.special(char, "dynamic");
    } else if (char === "'" || char === '"' || char === "`" || (char === "$" && i + 1 < text.length)) {
      // The grammar normally splits these off; if one slips into a word, its value is not trustworthy.
      builder.special(char, "dynamic");
    } else {
      builder.literal(char);
    }
  }
}

function appendDoubleQuoted(builder: WordBuilder, node: SyntaxNode): void {
  for (const child of node.children) {
    if (child.type === '"' || child.type === '$"') continue;
    if (child.type === "string_content") builder.literal(unescapeDoubleQuoted(child.text));
    else if (child.type === "$") builder.literal("$");
    else builder.special(child.text, "dynamic");
  }
}

/** Inside double quotes a backslash only escapes `$`, backtick, `"`, `\` and newline. */
export function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, char: string) => (char === "\n" ? "" : char));
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** Resolves the escapes of a `$'…'` string body the way bash does. */
export function decodeAnsiC(body: string): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char !== "\\" || i + 1 >= body.length) {
      out += char;
      continue;
    }
    const next = body[++i]!;
    if (next in SIMPLE_ESCAPES) {
      out += SIMPLE_ESCAPES[next];
    } else if (/[0-7]/.test(next)) {
      const digits = /^[0-7]{1,3}/.exec(body.slice(i))![0];
      out += String.fromCharCode(parseInt(digits, 8) & 0xff);
      i += digits.length - 1;
    } else if (next === "x" || next === "u" || next === "U") {
      const max = next === "x" ? 2 : next === "u" ? 4 : 8;
      const digits = new RegExp(`^[0-9a-fA-F]{1,${max}}`).exec(body.slice(i + 1))?.[0];
      if (!digits) {
        out += "\\" + next;
        continue;
      }
      const code = parseInt(digits, 16);
      out += code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
      i += digits.length;
    } else if (next === "c" && i + 1 < body.length) {
      out += String.fromCharCode(body.charCodeAt(++i) & 0x1f);
    } else {
      out += "\\" + next;
    }
  }
  return out;
}

export interface ProgramName {
  /** Basename after quote removal: `\rm`, `/bin/rm`, `"rm"`, `'r'm` → `rm`. */
  name: string;
  /** The word when it names a path (holds a `/`), else null. */
  path: string | null;
}

/** The program a command word names, or null when it is only known at run time. */
export function programName(word: ShellWord): ProgramName | null {
  if (word.dynamic || word.glob || word.value === "") return null;
  const slash = word.value.lastIndexOf("/");
  if (slash === -1) return { name: word.value, path: null };
  const name = word.value.slice(slash + 1);
  return name ? { name, path: word.value } : null;
}
