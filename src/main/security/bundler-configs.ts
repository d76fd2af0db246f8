// Where a bundler's config file says it builds: `build.outDir` in vite.config.ts, `output.path` in
// webpack.config.js, `output.dir`/`output.file` in rollup.config.mjs, `outDir` for tsup and astro,
// `distDir` for next. Read from the file's syntax tree, not run: a value that is a path ('build',
// `path.resolve(__dirname, 'build')`, `fileURLToPath(new URL('./build', import.meta.url))`) is worked
// out; anything else (a variable, a function of the mode) cannot be, and is said so.
import fs from "node:fs";
import path from "node:path";
import type Parser from "tree-sitter";
import { parseSource } from "../../workers/extract/parsers.js";

/** The config's say on the output folders: absolute paths; `unknown` when code computes one. */
export type ConfiguredOutput = { kind: "none" } | { kind: "folders"; folders: string[] } | { kind: "unknown"; file: string; key: string };

interface OutputKey {
  key: string;
  /** The key of the object holding it (`output` for webpack's `output.path`). */
  parent?: string;
  /** The value names a file: its folder is what is written. */
  isFile?: boolean;
}

// In the order vite looks for its config (the others rarely have two).
const EXTENSIONS = [".js", ".mjs", ".ts", ".cjs", ".mts", ".cts"];
const namesOf = (stem: string) => EXTENSIONS.map((ext) => `${stem}${ext}`);

interface ConfigSpec {
  files: string[];
  keys: OutputKey[];
  /** A top-level key that moves the folder relative output paths start from (vite's `root`). */
  rootKey?: string;
}

const CONFIGS: Record<string, ConfigSpec> = {
  vite: { files: namesOf("vite.config"), keys: [{ key: "outDir" }], rootKey: "root" },
  astro: { files: namesOf("astro.config"), keys: [{ key: "outDir" }] },
  tsup: { files: namesOf("tsup.config"), keys: [{ key: "outDir" }] },
  rollup: { files: namesOf("rollup.config"), keys: [{ key: "dir", parent: "output" }, { key: "file", parent: "output", isFile: true }] },
  webpack: { files: namesOf("webpack.config"), keys: [{ key: "path", parent: "output" }] },
  next: { files: namesOf("next.config"), keys: [{ key: "distDir" }] },
};

/** Larger than any hand-written config: not read (taken as unknown). */
const MAX_CONFIG_BYTES = 512 * 1024;

/** The config file `program` reads in `dir`: the one named, else the first of its usual names there; null when none. */
export function bundlerConfigFile(program: string, dir: string, named?: string): string | null {
  if (named !== undefined) return path.resolve(dir, named);
  for (const name of CONFIGS[program]?.files ?? []) {
    const file = path.join(dir, name);
    if (fs.existsSync(file)) return file;
  }
  return null;
}

const keyText = (node: Parser.SyntaxNode | null): string | null => {
  if (!node) return null;
  if (node.type === "property_identifier" || node.type === "identifier") return node.text;
  if (node.type === "string") return node.text.slice(1, -1);
  return null;
};

/** The key of the pair whose value is the object holding `node` (a pair or a shorthand), or null. */
function parentKey(node: Parser.SyntaxNode): string | null {
  const object = node.parent;
  let holder = object?.type === "object" ? object.parent : null;
  // `output: [{ dir: "esm" }, { dir: "cjs" }]`: each object of an array value.
  if (holder?.type === "array") holder = holder.parent;
  return holder?.type === "pair" ? keyText(holder.childForFieldName("key")) : null;
}

const PATH_CALLS = new Set(["resolve", "join", "path.resolve", "path.join", "posix.resolve", "posix.join", "path.posix.resolve", "path.posix.join"]);

/** Where a config's path expressions are worked out: its folder, the bundler's, and its top-level consts. */
interface PathScope {
  configDir: string;
  /** Where relative paths start: the folder the bundler runs in, or the root its config sets. */
  base: string;
  /** `const NAME = …` at the top of the file (`const root = resolve(__dirname, "site")`). */
  consts: Map<string, Parser.SyntaxNode>;
  /** Constants being worked out: a cycle is no path. */
  visiting: Set<string>;
}

/** A path expression's value: string literals, __dirname, process.cwd(), top-level consts and path.resolve/join of them; null for anything else. */
function pathValue(node: Parser.SyntaxNode, scope: PathScope): string | null {
  const { configDir, base } = scope;
  switch (node.type) {
    case "string":
      return path.resolve(base, node.text.slice(1, -1));
    case "template_string":
      return node.namedChildren.some((c) => c.type === "template_substitution") ? null : path.resolve(base, node.text.slice(1, -1));
    case "parenthesized_expression":
    case "as_expression":
    case "satisfies_expression":
      return node.namedChildren[0] ? pathValue(node.namedChildren[0], scope) : null;
    case "identifier":
    case "shorthand_property_identifier": {
      if (node.text === "__dirname") return configDir;
      const bound = scope.consts.get(node.text);
      if (!bound || scope.visiting.has(node.text)) return null;
      scope.visiting.add(node.text);
      const value = pathValue(bound, scope);
      scope.visiting.delete(node.text);
      return value;
    }
    case "binary_expression": {
      // `__dirname + "/dist"`: a path and a string glued on.
      const left = node.childForFieldName("left");
      const right = node.childForFieldName("right");
      if (node.childForFieldName("operator")?.text !== "+" || !left || right?.type !== "string") return null;
      const head = pathValue(left, scope);
      return head === null ? null : path.resolve(head + right.text.slice(1, -1));
    }
    case "member_expression":
      return node.text === "import.meta.dirname" ? configDir : null;
    case "call_expression": {
      const fn = node.childForFieldName("function")?.text ?? "";
      const args = node.childForFieldName("arguments")?.namedChildren ?? [];
      if (fn === "process.cwd" && args.length === 0) return base;
      if (fn === "fileURLToPath" || fn === "url.fileURLToPath") return args.length === 1 ? urlPath(args[0]!, configDir) : null;
      if (!PATH_CALLS.has(fn) || args.length === 0) return null;
      const parts: string[] = [];
      for (const arg of args) {
        // Plain strings are segments, resolved only at the end (join('a', 'b') is not resolve('a') + 'b').
        const literal = arg.type === "string" ? arg.text.slice(1, -1) : null;
        const value = literal ?? pathValue(arg, scope);
        if (value === null) return null;
        parts.push(value);
      }
      return fn.endsWith("resolve") ? path.resolve(base, ...parts) : path.resolve(base, path.join(...parts));
    }
    default:
      return null;
  }
}

/** `new URL('./x', import.meta.url)`: x beside the config. */
function urlPath(node: Parser.SyntaxNode, configDir: string): string | null {
  if (node.type !== "new_expression" || node.childForFieldName("constructor")?.text !== "URL") return null;
  const [relative, from] = node.childForFieldName("arguments")?.namedChildren ?? [];
  if (relative?.type !== "string" || from?.text !== "import.meta.url") return null;
  return path.resolve(configDir, relative.text.slice(1, -1));
}

/** `const NAME = value` declared at the top of the file (not `let`: it may be reassigned). */
function topLevelConsts(root: Parser.SyntaxNode): Map<string, Parser.SyntaxNode> {
  const out = new Map<string, Parser.SyntaxNode>();
  for (const statement of root.namedChildren) {
    if (statement.type !== "lexical_declaration" || statement.child(0)?.type !== "const") continue;
    for (const declarator of statement.namedChildren) {
      const name = declarator.childForFieldName("name");
      const value = declarator.childForFieldName("value");
      if (declarator.type === "variable_declarator" && name?.type === "identifier" && value) out.set(name.text, value);
    }
  }
  return out;
}

function* pairs(node: Parser.SyntaxNode): Generator<Parser.SyntaxNode> {
  const cursor = node.walk();
  for (;;) {
    if (cursor.nodeType === "pair" || cursor.nodeType === "shorthand_property_identifier") yield cursor.currentNode;
    if (cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return;
  }
}

/**
 * What `file` (a config of `program`) sets as its output folders; relative ones are relative to `base`,
 * the folder the bundler runs in. No file, or no output key in it: `none` (the default applies).
 */
export function configuredOutput(program: string, file: string | null, base: string): ConfiguredOutput {
  const spec = CONFIGS[program];
  if (!spec || file === null) return { kind: "none" };
  let source: string;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return { kind: "none" };
    if (stat.size > MAX_CONFIG_BYTES) return { kind: "unknown", file, key: spec.keys.map((k) => k.key).join("/") };
    source = fs.readFileSync(file, "utf8");
  } catch {
    return { kind: "none" }; // gone or unreadable: the bundler fails on it the same way
  }
  const tree = parseSource(source, /\.[cm]?ts$/.test(file) ? "typescript" : "javascript");
  const scope: PathScope = { configDir: path.dirname(file), base, consts: topLevelConsts(tree.rootNode), visiting: new Set() };
  const rootPair = spec.rootKey === undefined ? undefined : [...pairs(tree.rootNode)].find((n) => n.type === "pair" && keyText(n.childForFieldName("key")) === spec.rootKey && parentKey(n) === null);
  const rootValue = rootPair?.childForFieldName("value");
  if (rootValue) {
    const root = pathValue(rootValue, scope);
    if (root === null) return { kind: "unknown", file, key: spec.rootKey as string };
    scope.base = root;
  }
  const folders: string[] = [];
  for (const node of pairs(tree.rootNode)) {
    const shorthand = node.type === "shorthand_property_identifier";
    const name = shorthand ? node.text : keyText(node.childForFieldName("key"));
    const key = spec.keys.find((k) => k.key === name && (k.parent === undefined || k.parent === parentKey(node)));
    if (!key) continue;
    const valueNode = shorthand ? null : node.childForFieldName("value");
    // `{ outDir }` is the const of that name.
    const value = pathValue(valueNode ?? node, scope);
    if (value === null) return { kind: "unknown", file, key: key.parent ? `${key.parent}.${key.key}` : key.key };
    folders.push(key.isFile ? path.dirname(value) : value);
  }
  return folders.length ? { kind: "folders", folders } : { kind: "none" };
}
