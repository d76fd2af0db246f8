// The one tree-sitter-bash parser of the process: the policy's parse of a command line (shell-parser.ts)
// and the look at its leading `cd` (leading-cd.ts) read the same syntax tree, and what its node kinds mean.
import Parser from "tree-sitter";
import Bash from "tree-sitter-bash";

export type SyntaxNode = Parser.SyntaxNode;

let bashParser: Parser | null = null;

export function parseBash(source: string): Parser.Tree {
  if (!bashParser) {
    bashParser = new Parser();
    bashParser.setLanguage(Bash as Parser.Language);
  }
  return bashParser.parse(source);
}

/** The nodes a heredoc redirect is made of; anything else under it is body text the grammar misplaced. */
export const HEREDOC_PARTS = new Set(["heredoc_start", "heredoc_end", "heredoc_body", "file_descriptor"]);

/** Nodes that only hold statements. */
export const CONTAINERS = new Set([
  "program", "list", "compound_statement", "do_group", "if_statement", "elif_clause", "else_clause",
  "while_statement", "for_statement", "case_statement", "case_item", "negated_command",
]);

/** Nodes that are (or hold) something bash runs. */
const STATEMENT_TYPES = new Set([
  "command", "redirected_statement", "pipeline", "list", "subshell", "compound_statement", "if_statement",
  "while_statement", "for_statement", "c_style_for_statement", "case_statement", "function_definition",
  "negated_command", "declaration_command", "unset_command", "test_command", "variable_assignment",
  "variable_assignments", "do_group", "elif_clause", "else_clause", "case_item", "ERROR", "comment",
]);

const EXPANSION_TYPES = new Set(["simple_expansion", "expansion", "command_substitution", "process_substitution", "arithmetic_expansion"]);

export function hasExpansion(node: SyntaxNode): boolean {
  return EXPANSION_TYPES.has(node.type) || node.namedChildren.some(hasExpansion);
}

/** `…` or $( not escaped by a backslash. */
export function hasUnescapedSubstitution(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "`" || (text[i] === "$" && text[i + 1] === "(")) return true;
  }
  return false;
}

export function isStatement(node: SyntaxNode): boolean {
  return STATEMENT_TYPES.has(node.type);
}

/** Whether the gap between two nodes leaves them in one shell word (nothing, or line continuations). */
function joined(source: string, left: SyntaxNode, right: SyntaxNode): boolean {
  return /^(\\\n)*$/.test(source.slice(left.endIndex, right.startIndex));
}

/** Adjacent nodes grouped into the shell words they make. */
export function groupWords(nodes: readonly SyntaxNode[], source: string): SyntaxNode[][] {
  const groups: SyntaxNode[][] = [];
  for (const node of nodes) {
    const last = groups[groups.length - 1];
    if (last && joined(source, last[last.length - 1]!, node)) last.push(node);
    else groups.push([node]);
  }
  return groups;
}

/** The innermost node where the parse went wrong, or null for a clean tree. */
export function firstError(node: SyntaxNode): SyntaxNode | null {
  if (node.type === "ERROR" || node.isMissing) return node;
  for (const child of node.children) {
    if (!child.hasError && !child.isMissing) continue;
    const found = firstError(child);
    if (found) return found;
  }
  return node.hasError ? node : null;
}
