// `cd packages/core && npm test`: the one place where a change of folder is judged rather than asked
// about: a line that starts with `cd` and one static folder name. When the line is one `&&` chain (no
// `;`, `||`, `&`), everything after the cd runs in that folder or not at all, and the policy judges the
// rest as if the folder were the project root (folder-judgement.ts), which is stricter than the real
// root, never looser. Otherwise (`cd x; npm test`) the rest is judged both there and where the cd
// started, and the stricter verdict stands. Anywhere else a `cd`, `pushd` or `popd` asks: the paths
// after it would be read from a folder the policy did not judge from. Subshells that start with a cd,
// and `git -C FOLDER …` (git's own change of folder), are judged the same way (folderSpans).
import { hasExpansion, parseBash, type SyntaxNode } from "./bash-syntax.js";
import { wordFromNodes } from "./shell-words.js";

/** Builtins that move the shell to another folder for the commands after them. */
export const DIRECTORY_CHANGERS: ReadonlySet<string> = new Set(["cd", "pushd", "popd"]);

export interface LeadingCd {
  /** The folder as bash sees it after quote removal: static, not an option, no `..` part. */
  folder: string;
  /** The `cd …` command as written. */
  text: string;
  /** What follows the `cd`: the source after the operator (or newline) that ends it. */
  rest: string;
  /**
   * The line is one `&&` chain (pipes inside), so the rest runs in the folder or not at all. Otherwise
   * (`cd x; …`, `cd x && a || b`, a newline) some of it may run where the `cd` started, if it fails.
   */
  exact: boolean;
}

/** Folder names bash takes as they are: no expansion, no glob, no `~`, not an option, no `..` climbing. */
function plainFolder(value: string): boolean {
  if (value === "" || value.startsWith("-")) return false;
  return value.split("/").every((part) => part !== "..");
}

/** Nodes that only join the line's top-level commands; the grammar nests lists in them in odd ways. */
const GLUE = new Set(["program", "list", "pipeline", "redirected_statement", "heredoc_redirect"]);
/** Parts of a redirection, not commands: a file, a heredoc's delimiters and body, a comment. */
const NOT_COMMANDS = new Set(["file_redirect", "herestring_redirect", "heredoc_start", "heredoc_body", "heredoc_end", "file_descriptor", "comment"]);
const HEREDOC_OPERATORS = new Set(["<<", "<<-"]);
/** What may join two top-level commands after the `cd`: each runs only after the `cd` succeeded. */
const CHAINING = new Set(["&&", "|", "|&"]);

type Item = { kind: "command"; node: SyntaxNode } | { kind: "operator"; node: SyntaxNode };

/**
 * The line's top-level commands and the operators between them, in source order, whatever tree the
 * grammar built (it hangs `&& ls 2>&1 | head` and heredoc followers under redirect nodes). A subshell,
 * group, loop or `$(…)` is one command: what is inside it does not reach the top level.
 */
function topLevel(node: SyntaxNode, items: Item[]): void {
  for (const child of node.children) {
    if (!child.isNamed) {
      if (!(node.type === "heredoc_redirect" && HEREDOC_OPERATORS.has(child.type))) items.push({ kind: "operator", node: child });
    } else if (GLUE.has(child.type)) topLevel(child, items);
    else if (!NOT_COMMANDS.has(child.type)) items.push({ kind: "command", node: child });
  }
}

/** The leading `cd` of `source` and what follows it, or null when the line has another shape. */
export function splitLeadingCd(source: string): LeadingCd | null {
  // The name must be written `cd` (below): a line without those letters needs no second parse.
  if (!source.includes("cd")) return null;
  const root = parseBash(source).rootNode;
  if (root.hasError) return null;
  const items: Item[] = [];
  topLevel(root, items);
  items.sort((a, b) => a.node.startIndex - b.node.startIndex);
  // A trailing `;` ends the line. A `&` at the end, a `;` or newline inside, or an `||` anywhere, can run
  // what follows whether the cd worked or not: such a line is not exact.
  if (items.at(-1)?.node.type === ";") items.pop();
  // `(cd packages/core && npm test)`, the whole line in a subshell, runs as the line without it does.
  const only = items.length === 1 ? items[0]!.node : null;
  if (only?.type === "subshell" && only.parent?.type === "program") {
    const [open, close] = [only.firstChild, only.lastChild];
    if (open?.type === "(" && close?.type === ")") return splitLeadingCd(source.slice(open.endIndex, close.startIndex));
  }
  const [head, next] = items;
  if (!head || !next || head.kind !== "command" || head.node.type !== "command") return null;
  const cd = head.node;
  // Nothing between the `cd` and what ends it (a redirection of the cd's own, a comment).
  if (!/^[ \t]*(\\\n[ \t]*)*\n?[ \t\n]*$/.test(source.slice(cd.endIndex, next.node.startIndex))) return null;
  const [name, ...args] = cd.namedChildren;
  if (!name || name.type !== "command_name" || name.text !== "cd" || args.length !== 1) return null;
  const word = wordFromNodes(args, source);
  if (word.dynamic || word.glob || word.tilde || !plainFolder(word.value)) return null;
  const rest = source.slice(next.kind === "operator" ? next.node.endIndex : cd.endIndex);
  if (rest.trim() === "") return null;
  return { folder: word.value, text: cd.text, rest, exact: isAndChain(items) };
}

/** Whether the items are `cd … && a | b && c …`: commands joined by `&&` first, then `&&` or pipes. */
function isAndChain(items: readonly Item[]): boolean {
  if (items.length < 3 || items.length % 2 === 0 || items[1]!.node.type !== "&&") return false;
  return items.every((item, i) => item.kind === (i % 2 === 0 ? "command" : "operator") && (item.kind === "command" || CHAINING.has(item.node.type)));
}

/**
 * A top-level command of the line judged in a folder of its own: a subshell that starts with a cd, or
 * `git -C F …` (`inner` is then `cd F && git …`, and `cds` the number of cds that stand for its -C's).
 */
export interface FolderSpan {
  start: number;
  end: number;
  inner: string;
  cds: number;
}

/**
 * The spans of `source` that run in a folder of their own: top-level subshells that start with a cd
 * (`(cd web && npm run build) && (cd api && npm test)`), where the cd ends with the subshell, and
 * `git -C FOLDER …` commands, which git runs as if started there.
 */
export function folderSpans(source: string): FolderSpan[] {
  if (!source.includes("cd") && !source.includes("-C")) return [];
  const root = parseBash(source).rootNode;
  if (root.hasError) return [];
  const items: Item[] = [];
  topLevel(root, items);
  const found: FolderSpan[] = [];
  for (const { kind, node } of items) {
    if (kind !== "command") continue;
    const span = node.type === "subshell" ? cdSubshell(node, source) : gitInFolder(node, source);
    if (span) found.push(span);
  }
  return found.sort((a, b) => a.start - b.start);
}

function cdSubshell(node: SyntaxNode, source: string): FolderSpan | null {
  const [open, close] = [node.firstChild, node.lastChild];
  if (open?.type !== "(" || close?.type !== ")") return null;
  const inner = source.slice(open.endIndex, close.startIndex);
  return splitLeadingCd(inner) ? { start: node.startIndex, end: node.endIndex, inner, cds: 0 } : null;
}

/** git's global options that change nothing about where it runs or what it loads: kept, and passed over. */
const PLAIN_GIT_GLOBALS = new Set(["--no-pager", "-P", "--no-optional-locks", "--literal-pathspecs", "--no-replace-objects"]);

/**
 * `git -C F [-C G …] …` as `cd F && cd G && git …`. Only a command with nothing expanded in it: a `$(…)`
 * among its arguments runs where the shell is, not where git goes, and is judged there with the rest.
 */
function gitInFolder(node: SyntaxNode, source: string): FolderSpan | null {
  if (node.type !== "command" || hasExpansion(node)) return null;
  const [name, ...args] = node.namedChildren;
  if (name?.type !== "command_name" || name.text !== "git") return null;
  const cds: string[] = [];
  const globals: string[] = [];
  let after = name;
  for (;;) {
    const option = args[0];
    if (option?.type !== "word") break;
    if (PLAIN_GIT_GLOBALS.has(option.text)) {
      globals.push(option.text);
      after = option;
      args.shift();
      continue;
    }
    const folder = args[1];
    if (option.text !== "-C" || !folder) break;
    const word = wordFromNodes([folder], source);
    if (word.glob || word.tilde || !plainFolder(word.value)) return null;
    cds.push(`cd ${folder.text}`);
    after = folder;
    args.splice(0, 2);
  }
  if (cds.length === 0) return null;
  const git = ["git", ...globals].join(" ");
  return { start: node.startIndex, end: node.endIndex, inner: `${cds.join(" && ")} && ${git}${source.slice(after.endIndex, node.endIndex)}`, cds: cds.length };
}
