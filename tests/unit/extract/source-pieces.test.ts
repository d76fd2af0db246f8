// A very large JS/TS file is parsed a piece at a time (source-pieces.ts). Cutting must never change what
// is extracted: the tests cut as often as possible (a piece per statement line) and compare with the
// whole-file parse, including where a cut lands inside a template literal, a comment or a wrapper.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { extractFile, extractFileSteps, languageForPath } from "../../../src/workers/extract/index.js";
import { nextStatementLine, type PieceSizes } from "../../../src/workers/extract/source-pieces.js";
import type { SourceLanguage } from "../../../src/workers/protocol.js";
import { code, fn } from "./extract-helpers.js";

/** Every statement line is a cut. */
const SMALLEST: PieceSizes = { minChars: 0, pieceChars: 1 };

const FIXTURES = fileURLToPath(new URL("../../fixtures/", import.meta.url));

function codeFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => !f.includes("node_modules"))
    .map((f) => path.join(dir, f))
    .filter((f) => {
      const language = languageForPath(f);
      return language !== null && language !== "json" && language !== "yaml";
    });
}

function pieceCount(source: string, language: SourceLanguage, sizes: PieceSizes): number {
  const steps = extractFileSteps(source, language, sizes);
  let pieces = 0;
  while (!steps.next().done) pieces++;
  return pieces;
}

describe("a file parsed in pieces", () => {
  it("gives exactly what the whole-file parse gives, for every fixture file", () => {
    const files = codeFiles(FIXTURES);
    expect(files.length).toBeGreaterThan(15);
    for (const file of files) {
      const source = readFileSync(file, "utf8");
      const language = languageForPath(file) as SourceLanguage;
      expect(extractFile(source, language, SMALLEST), file).toEqual(extractFile(source, language));
    }
  });

  it("is really cut: the steps yield one piece per statement line, their lengths adding up to the file", () => {
    const source = code`
      import { a } from "./a";
      export const b = a + 1;
      export function c() {
        return a;
      }
    `;
    const steps = extractFileSteps(source, "typescript", SMALLEST);
    const lengths: number[] = [];
    for (let step = steps.next(); !step.done; step = steps.next()) lengths.push(step.value);
    expect(lengths).toHaveLength(3);
    expect(lengths.reduce((x, y) => x + y, 0)).toBe(source.length);
    // Below minChars a file is one parse, and the steps yield nothing.
    expect(pieceCount(source, "typescript", { minChars: source.length + 1, pieceChars: 1 })).toBe(0);
  });

  it("re-joins a cut that fell inside a template literal or a comment: no phantom declarations", () => {
    const source = code`
      export const template = \`
      export const notCode = 1;
      function alsoNotCode() {}
      \`;
      /*
      export function commentedOut() {}
      */
      export function real(x: number): number {
        return x;
      }
    `;
    const pieces = extractFile(source, "typescript", SMALLEST);
    expect(pieces).toEqual(extractFile(source, "typescript"));
    expect(pieces.ast.parseError).toBe(false);
    expect(pieces.ast.functions.map((f) => f.name)).toEqual(["real"]);
    expect(pieces.ast.exports.map((e) => e.name)).toEqual(["template", "real"]);
  });

  it("does not cut a bundle whose code sits unindented inside one wrapper", () => {
    const source = code`
      var lib = {};
      ((module) => {
      function inner(a) {
        return helper(a);
      }
      function helper(b) {
        return b;
      }
      module.exports = inner;
      })(lib);
    `;
    const pieces = extractFile(source, "javascript", SMALLEST);
    expect(pieces).toEqual(extractFile(source, "javascript"));
    expect(pieces.ast.parseError).toBe(false);
    expect(pieces.ast.functions).toEqual([]);
  });

  it("folds overloads cut apart from their implementation, and attributes the implementation's calls", () => {
    const source = code`
      export function parse(input: string): number;
      export function parse(input: number): number;
      export function parse(input: string | number): number {
        return toNumber(input);
      }
      function toNumber(v: unknown): number {
        return Number(v);
      }
    `;
    const pieces = extractFile(source, "typescript", SMALLEST);
    expect(pieces).toEqual(extractFile(source, "typescript"));
    expect(fn(pieces, "parse")).toMatchObject({ lineStart: 1, lineEnd: 5, overloads: 2, params: ["input"], isExported: true });
    expect(pieces.facts.calls).toContainEqual({ caller: "parse", callee: "toNumber", line: 4 });
  });

  it("keeps decorators with their class, and lines right after non-ASCII text", () => {
    const source = code`
      // Заказы и платежи 💳
      @Injectable()
      @Scope("request")
      export class Orders {
        total(): number {
          return sum();
        }
      }
      export const label = "итого";
      export function sum(): number {
        return 0;
      }
    `;
    const pieces = extractFile(source, "typescript", SMALLEST);
    expect(pieces).toEqual(extractFile(source, "typescript"));
    expect(pieces.ast.classes[0]).toMatchObject({ name: "Orders", lineStart: 2, lineEnd: 8 });
    expect(fn(pieces, "sum")).toMatchObject({ lineStart: 10, lineEnd: 12 });
    expect(pieces.facts.calls).toContainEqual({ caller: "Orders.total", callee: "sum", line: 6 });
  });

  it("marks a real syntax error, and still reads the statements after it", () => {
    const source = code`
      export const broken = 1 +;
      export function fine(): number {
        return 1;
      }
      export const after = 2;
    `;
    const pieces = extractFile(source, "typescript", SMALLEST);
    expect(pieces.ast.parseError).toBe(true);
    expect(pieces.ast.exports.map((e) => e.name)).toEqual(["broken", "fine", "after"]);
  });

  it("reads an unclosed block to the end of the file, as the whole parse does", () => {
    const source = code`
      export function open( {
      export function inside(): number {
        return 1;
      }
    `;
    const pieces = extractFile(source, "typescript", SMALLEST);
    expect(pieces).toEqual(extractFile(source, "typescript"));
    expect(pieces.ast.parseError).toBe(true);
  });
});

describe("nextStatementLine", () => {
  const source = ["const a = 1;", "  const nested = 2;", "@Dec()", "export class C {}", "", "type T = string;", "typeof x;"].join("\n");
  const lineAt = (n: number) => source.split("\n").slice(0, n - 1).join("\n").length + (n > 1 ? 1 : 0);

  it("finds the next line that starts a top-level statement at column 0", () => {
    expect(nextStatementLine(source, 0)).toBe(0);
    // From the middle of line 1: line 2 is indented, line 3 is a decorator.
    expect(nextStatementLine(source, 3)).toBe(lineAt(3));
    expect(nextStatementLine(source, lineAt(5))).toBe(lineAt(6));
  });

  it("does not cut between a decorator and what it decorates, nor at a word that only starts like a keyword", () => {
    expect(nextStatementLine(source, lineAt(4))).toBe(lineAt(6));
    expect(nextStatementLine(source, lineAt(7))).toBe(source.length);
  });
});
