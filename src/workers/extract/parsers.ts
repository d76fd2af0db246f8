// One tree-sitter Parser per grammar per thread, created on first use and reused: creating a parser and
// loading a grammar costs far more than a small file's parse, and Piscina keeps each worker's module alive.
import Parser from "tree-sitter";
import JavaScript from "tree-sitter-javascript";
import TypeScript from "tree-sitter-typescript";
import Json from "tree-sitter-json";
import Yaml from "@tree-sitter-grammars/tree-sitter-yaml";
import type { SourceLanguage } from "../protocol.js";

// tree-sitter 0.22.4's typings reject the grammar objects' shape (notes-dependencies gotcha 10).
const GRAMMARS: Record<SourceLanguage, () => Parser.Language> = {
  typescript: () => TypeScript.typescript as Parser.Language,
  tsx: () => TypeScript.tsx as Parser.Language,
  javascript: () => JavaScript as Parser.Language,
  json: () => Json as Parser.Language,
  yaml: () => Yaml as Parser.Language,
};

const parsers = new Map<SourceLanguage, Parser>();

export function parserFor(language: SourceLanguage): Parser {
  let parser = parsers.get(language);
  if (!parser) {
    parser = new Parser();
    parser.setLanguage(GRAMMARS[language]());
    parsers.set(language, parser);
  }
  return parser;
}

/**
 * Parses a string, or only the given ranges of it. Node indices of the resulting tree are UTF-16 offsets
 * into `source` either way.
 */
export function parseSource(source: string, language: SourceLanguage, includedRanges?: Parser.Range[]): Parser.Tree {
  return includedRanges ? parserFor(language).parse(source, undefined, { includedRanges }) : parserFor(language).parse(source);
}
