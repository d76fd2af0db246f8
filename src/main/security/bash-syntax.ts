// The one tree-sitter-bash parser of the process: the policy's parse of a command line (shell-parser.ts)
// and the look at its leading `cd` (leading-cd.ts) read the same syntax tree.
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
