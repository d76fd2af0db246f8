// Shared helpers for the extractor tests: dedented sources and lookups by name that fail loudly.
import { expect } from "vitest";
import type { ClassInfo, FunctionInfo, MethodInfo } from "../../../src/workers/ast-types.js";
import { extractFile, type ExtractResult } from "../../../src/workers/extract/index.js";
import type { SourceLanguage } from "../../../src/workers/protocol.js";

/** Template tag: drops the first newline and the common indentation, so line 1 is the first code line. */
export function code(strings: TemplateStringsArray, ...values: unknown[]): string {
  const raw = strings.reduce((out, part, i) => out + part + (i < values.length ? String(values[i]) : ""), "").replace(/^\n/, "");
  const indents = raw
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => /^ */.exec(l)![0].length);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  return raw
    .split("\n")
    .map((l) => l.slice(cut))
    .join("\n");
}

export function extract(source: string, language: SourceLanguage = "typescript"): ExtractResult {
  return extractFile(source, language);
}

export function fn(result: Pick<ExtractResult, "ast">, name: string): FunctionInfo {
  const found = result.ast.functions.find((f) => f.name === name);
  expect(found, `function ${name}`).toBeDefined();
  return found!;
}

export function cls(result: Pick<ExtractResult, "ast">, name: string): ClassInfo {
  const found = result.ast.classes.find((c) => c.name === name);
  expect(found, `class ${name}`).toBeDefined();
  return found!;
}

export function method(info: ClassInfo, name: string, accessor?: "get" | "set"): MethodInfo {
  const found = info.methods.find((m) => m.name === name && m.accessor === accessor);
  expect(found, `method ${info.name}.${name}${accessor ? ` (${accessor})` : ""}`).toBeDefined();
  return found!;
}
