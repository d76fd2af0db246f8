import { maskImportTypes } from "../../../src/workers/extract/import-type-mask.js";
import { describe, expect, it } from "vitest";
import { MAX_CALLS_PER_FILE } from "../../../src/workers/extract/index.js";
import type { SourceLanguage } from "../../../src/workers/protocol.js";
import { cls, code, extract, fn } from "./extract-helpers.js";

describe("syntax errors", () => {
  it("sets parseError and keeps the declarations before the error", () => {
    const result = extract(code`
      import { a } from "./a";
      export function before(x: number) { return x; }
      export class Kept { m() {} }
      function broken( {
        const = ;
    `);
    expect(result.ast.parseError).toBe(true);
    expect(result.ast.imports.map((i) => i.from)).toEqual(["./a"]);
    expect(fn(result, "before").lineStart).toBe(2);
    expect(cls(result, "Kept").methods.map((m) => m.name)).toEqual(["m"]);
  });

  it("does not count valid TypeScript the grammar lacks rules for as a syntax error", () => {
    const valid = extract(code`
      export type * from "./types";
      export type * as shapes from "./shapes";
      export interface ClassSpec {
        abstract?: boolean;
        readonly: string;
        name: string;
      }
      export default function (a: number): string;
      export interface Producer<out T> { get(): T }
      export class Box<in out T, U> { put(t: T, u: U) {} }
      export type Sink<in T> = (t: T) => void;
    `);
    expect(valid.ast.parseError).toBe(false);
    expect(valid.ast.exports.filter((e) => e.type === "reexport").map((e) => [e.name, e.from])).toEqual([["*", "./types"], ["shapes", "./shapes"]]);
    expect(valid.ast.types.map((t) => t.name)).toEqual(["ClassSpec", "Producer", "Sink"]);
    expect(cls(valid, "Box").methods.map((m) => m.name)).toEqual(["put"]);
    expect(fn(valid, "default").lineStart).toBe(8);
  });

  it("does not count what declaration files hold as syntax errors: variance with defaults, global augmentations, tsc's `export {}`", () => {
    const valid = extract(code`
      export interface Check<in T = never> { run(x: T): void }
      export interface Schema<out O = unknown, in out I extends Base<O> = Base<O>> { parse(x: unknown): O }
      export interface Multi<
        out Output = unknown,
        out Internals extends Base<Output> = Base<Output>
      > { get(): Output }
      declare module "buffer" {
        global {
          interface BufferConstructor { fromBase64(s: string): Buffer }
        }
        export function atob(data: string): string;
      }
      export declare function reset(mode: string): import("./types").Task<string>;
      export type Boxed = import("./box").Box<number, string>;
      export declare function check(tokens: readonly string[]): import("./types").Finding[];
      export default function (): Pick<SimpleGit, "clone" | "mirror">;
      export {};
    `);
    expect(valid.ast.parseError).toBe(false);
    expect(valid.ast.types.map((t) => t.name)).toEqual(expect.arrayContaining(["Check", "Schema", "Multi", "BufferConstructor"]));
    expect(fn(valid, "default").lineStart).toBe(16);
    expect(fn(valid, "reset").lineStart).toBe(13);
  });

  it("reads import types with type arguments in parameters whole: the parameters after them, the return type and later members are kept", () => {
    const result = extract(code`
      export declare function plan(task: import("./types").Task<string>, retries: number): import("./types").Step[];
      export declare class Runner {
        run(task: import("./types").Task<() => void>, opts?: import("./opts").Options<number, string>): void;
        stop(): void;
      }
      export async function load() {
        const mod = await import("./lazy");
        return import("./later").then<string>((m) => m.name);
      }
    `);
    expect(result.ast.parseError).toBe(false);
    expect(fn(result, "plan")).toMatchObject({ params: ["task", "retries"], returnType: 'import("./types").Step[]', lineStart: 1 });
    expect(cls(result, "Runner").methods.map((m) => [m.name, m.params, m.lineStart])).toEqual([
      ["run", ["task", "opts"], 3],
      ["stop", [], 4],
    ]);
    // Import types are type-only imports; dynamic imports are code, `.then<string>(…)` included.
    expect(result.ast.imports.map((i) => [i.from, i.isTypeOnly === true, i.isDynamic === true, i.line])).toEqual([
      ["./types", true, false, 1],
      ["./types", true, false, 1],
      ["./types", true, false, 3],
      ["./opts", true, false, 3],
      ["./lazy", false, true, 7],
      ["./later", false, true, 8],
    ]);
    expect(maskImportTypes('return import("./later").then<string>((m) => m);').source).toBe('return import("./later").then<string>((m) => m);');
    // The parser's copy keeps every offset: the import is blanked to as many underscores.
    expect(maskImportTypes('let a: import("./t").A<B>[] = [];')).toEqual({ source: `let a: ${"_".repeat('import("./t")'.length)}.A<B>[] = [];`, importTypes: [{ from: "./t", at: 7 }] });
  });

  it("reads generic call signatures written without semicolons and `keyof readonly T[]` (parsed again, same lines)", () => {
    const result = extract(code`
      export interface ImportGlobFunction {
        <Eager extends boolean, T = unknown>(
          glob: string | string[],
        ): (Eager extends true ? true : false) extends true
          ? Record<string, T>
          : Record<string, () => Promise<T>>
        /** Overload 2. */
        <M>(glob: string): Record<string, () => Promise<M>>
        (glob: string, eager: true): Record<string, unknown>
        name: string
      }
      export interface SymbolConstructor {
        readonly unscopables: { [K in keyof readonly any[]]?: boolean };
      }
      export type Keys = keyof readonly string[];
      export function after(): number {
        return 1;
      }
    `);
    expect(result.ast.parseError).toBe(false);
    expect(result.ast.types.map((t) => [t.name, t.lineStart])).toEqual([
      ["ImportGlobFunction", 1],
      ["SymbolConstructor", 12],
      ["Keys", 15],
    ]);
    expect(fn(result, "after").lineStart).toBe(16);
    // A `<` that starts a line inside an expression is not a member: the error stands.
    expect(extract("interface A {\n  a: string\n  <M>(x: M): M\n}\nconst b = a\n  <c>;\n").ast.parseError).toBe(true);
  });

  it("still reports a real error next to a grammar gap, or one that only looks like it", () => {
    const result = extract(code`
      export type * from "./types";
      function broken( {
    `);
    expect(result.ast.parseError).toBe(true);
    expect(extract("interface Foo<T U> {}").ast.parseError).toBe(true);
    expect(extract("interface Foo<in T U = never> {}").ast.parseError).toBe(true);
    expect(extract('declare module "x" {\n  globals {\n    interface A {}\n  }\n}').ast.parseError).toBe(true);
    expect(extract('type A = import("./x").Box<;\n').ast.parseError).toBe(true);
  });

  it.each<[SourceLanguage, string]>([
    ["typescript", "\u0000\u0001\uFFFD binary \u0000 ((("],
    ["tsx", "<div><<<</"],
    ["javascript", "}}}{{{ ] ) ' \" `"],
    ["json", "\u0000{"],
    ["yaml", ": : : -\n\t- ["],
    ["typescript", ""],
  ])("never throws on garbage (%s)", (language, source) => {
    const result = extract(source, language);
    expect(result.ast).toBeDefined();
    expect(typeof result.ast.parseError).toBe("boolean");
  });
});

describe("non-ASCII text", () => {
  it("keeps names and line numbers right after multi-byte and astral characters", () => {
    const result = extract(code`
      const приветствие = "привет 😀 мир — ещё строка";
      // комментарий 😀😀
      export function вычислить(параметр: string): Строка {
        return форматировать(параметр, "😀");
      }
      export class Корзина { добавить(товар: Товар) {} }
      const after = () => "日本語";
    `);
    expect(fn(result, "вычислить")).toMatchObject({ lineStart: 3, lineEnd: 5, params: ["параметр"], returnType: "Строка" });
    expect(cls(result, "Корзина").methods[0]).toMatchObject({ name: "добавить", lineStart: 6, params: ["товар"] });
    expect(fn(result, "after").lineStart).toBe(7);
    expect(result.facts.calls).toEqual([{ caller: "вычислить", callee: "форматировать", line: 4 }]);
    expect(result.complexity.loc).toBe(6);
  });
});

describe("line endings and byte-order marks", () => {
  it("reads CRLF files with a BOM like any other", () => {
    const result = extract("\uFEFFimport a from './a';\r\nexport function f(x) {\r\n  return a(x);\r\n}\r\n");
    expect(result.ast.parseError).toBe(false);
    expect(fn(result, "f")).toMatchObject({ lineStart: 2, lineEnd: 4, params: ["x"] });
    expect(result.facts.calls).toEqual([{ caller: "f", callee: "a", line: 3 }]);
    expect(result.complexity.loc).toBe(4);
  });
});

describe("large files", () => {
  it("extracts a 50,000-line file completely", () => {
    const lines: string[] = ['import { helper } from "./helper";'];
    for (let i = 0; lines.length < 50_000; i++) {
      lines.push(`export function f${i}(a: number): number {`, `  return helper(a + ${i});`, "}", "");
    }
    const source = lines.slice(0, 50_000).join("\n");
    const result = extract(source);
    // Line 1 is the import; function i spans lines 2 + 4i … 4 + 4i, so the last one ends on line 50,000.
    const expected = 12_500;
    expect(result.ast.parseError).toBe(false);
    expect(result.ast.functions).toHaveLength(expected);
    expect(result.ast.functions.at(-1)).toMatchObject({ name: `f${expected - 1}`, lineStart: 49_998, lineEnd: 50_000 });
    expect(result.facts.calls).toHaveLength(MAX_CALLS_PER_FILE);
    expect(result.ast.exports).toHaveLength(expected);
    expect(result.complexity.loc).toBe(1 + expected * 3);
  });
});
