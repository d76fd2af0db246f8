// Per-file extraction for the index workers: source text in, FileAST + complexity + graph facts out.
// Synchronous and total: any input yields a result (parseError marks what could not be read cleanly).
import type { SourceLanguage } from "../protocol.js";
import { extractJson } from "./json.js";
import { failedResult, type ExtractResult } from "./result.js";
import { extractCodeSteps, runToEnd } from "./typescript.js";
import type { PieceSizes } from "./source-pieces.js";
import { extractYaml } from "./yaml.js";

export type { ExtractResult } from "./result.js";
export { MAX_CALLS_PER_FILE } from "./calls.js";
export { MAX_KEYS } from "./json.js";

const LANGUAGE_BY_EXTENSION: Record<string, SourceLanguage> = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "tsx",
  // tree-sitter-javascript parses JSX, so .jsx needs no grammar of its own.
  ".js": "javascript",
  ".jsx": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".json": "json",
  ".yaml": "yaml",
  ".yml": "yaml",
};

export function languageForPath(path: string): SourceLanguage | null {
  const slash = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  const dot = path.lastIndexOf(".");
  if (dot <= slash + 1) return null; // no extension, or a dotfile such as `.eslintrc`
  return LANGUAGE_BY_EXTENSION[path.slice(dot).toLowerCase()] ?? null;
}

/** Grammars of code (identifiers, functions, complexity); JSON and YAML hold only data. */
export const CODE_LANGUAGES: ReadonlySet<SourceLanguage> = new Set(["typescript", "tsx", "javascript"]);

export function isCodePath(path: string): boolean {
  const language = languageForPath(path);
  return language !== null && CODE_LANGUAGES.has(language);
}

export function extractFile(source: string, language: SourceLanguage, sizes?: PieceSizes): ExtractResult {
  return runToEnd(extractFileSteps(source, language, sizes));
}

/**
 * extractFile a step at a time: it pauses after each piece of a very large JS/TS file, when that piece's
 * tree can be freed, yielding its length (see extractCodeSteps); other files come out in one step.
 */
export function* extractFileSteps(source: string, language: SourceLanguage, sizes?: PieceSizes): Generator<number, ExtractResult, void> {
  try {
    switch (language) {
      case "json":
        return extractJson(source);
      case "yaml":
        return extractYaml(source);
      default:
        return yield* extractCodeSteps(source, language, sizes);
    }
  } catch {
    return failedResult();
  }
}
