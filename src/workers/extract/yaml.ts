// YAML files: tree-sitter-yaml for the top-level keys of the first document; line count and nesting
// come from indentation, which is how YAML expresses structure.
import { complexityScore } from "./complexity.js";
import { emptyFacts } from "./facts.js";
import { MAX_KEYS } from "./json.js";
import type Parser from "tree-sitter";
import { parseSource } from "./parsers.js";
import { emptyAst, type ExtractResult } from "./result.js";
import { compact, stringLiteralValue } from "./source-text.js";

export function extractYaml(source: string): ExtractResult {
  const root = parseSource(source, "yaml").rootNode;
  const ast = emptyAst(root.hasError);
  ast.keys = topLevelKeys(source, root).slice(0, MAX_KEYS);
  const shape = scanYamlShape(source);
  return { ast, complexity: complexityScore(shape.loc, shape.nesting, 0), facts: emptyFacts() };
}

function topLevelKeys(source: string, stream: Parser.SyntaxNode): string[] {
  const document = stream.namedChildren.find((n) => n.type === "document");
  const content = document?.namedChildren.find((n) => n.type === "block_node" || n.type === "flow_node");
  // Anchors and tags sit beside the mapping inside the node.
  const mapping = content?.namedChildren.find((n) => n.type === "block_mapping" || n.type === "flow_mapping");
  if (!mapping) return [];
  const keys: string[] = [];
  for (const pair of mapping.namedChildren) {
    if (pair.type !== "block_mapping_pair" && pair.type !== "flow_pair") continue;
    const key = pair.childForFieldName("key");
    if (key) keys.push(stringLiteralValue(compact(source.slice(key.startIndex, key.endIndex))));
  }
  return keys;
}

/** Non-blank, non-comment lines, and the deepest indentation level (each deeper indent is one level). */
export function scanYamlShape(text: string): { loc: number; nesting: number } {
  let loc = 0;
  let nesting = 0;
  const indents: number[] = [];
  for (const line of text.split("\n")) {
    const content = line.trimStart();
    if (content === "" || content.startsWith("#") || content === "\r") continue;
    loc++;
    const indent = line.length - content.length;
    while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
    indents.push(indent);
    if (indents.length - 1 > nesting) nesting = indents.length - 1;
  }
  return { loc, nesting };
}
