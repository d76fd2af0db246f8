import { describe, expect, it } from "vitest";
import { code, extract, fn } from "./extract-helpers.js";

describe("function declarations", () => {
  it("reads name, lines, params, return type and flags", () => {
    const result = extract(code`
      import { x } from "./x";

      export async function fetchUser(id: string, { retries = 3 }: Options = {}, ...rest: unknown[]): Promise<User> {
        return load(id);
      }
    `);
    expect(fn(result, "fetchUser")).toEqual({
      name: "fetchUser",
      lineStart: 3,
      lineEnd: 5,
      params: ["id", "{ retries = 3 }", "...rest"],
      returnType: "Promise<User>",
      isAsync: true,
      isExported: true,
    });
  });

  it("marks generators, async generators and non-exported functions", () => {
    const result = extract(code`
      function* ids() { yield 1; }
      async function* pages() {}
    `);
    expect(fn(result, "ids")).toMatchObject({ isGenerator: true, isAsync: false, isExported: false });
    expect(fn(result, "pages")).toMatchObject({ isGenerator: true, isAsync: true });
  });

  it("leaves out a `this` parameter and keeps default and optional names", () => {
    const result = extract(`function on(this: Window, event?: string, handler = noop): asserts event is string {}`);
    expect(fn(result, "on")).toMatchObject({ params: ["event", "handler"], returnType: "asserts event is string" });
  });

  it("folds overload signatures into one record spanning the group", () => {
    const result = extract(code`
      function pick(a: string): string;
      function pick(a: number): number;
      function pick(a: string | number): string | number {
        return a;
      }
      function other() {}
    `);
    expect(result.ast.functions.map((f) => f.name)).toEqual(["pick", "other"]);
    expect(fn(result, "pick")).toMatchObject({ lineStart: 1, lineEnd: 5, overloads: 2, params: ["a"], returnType: "string | number" });
    expect(fn(result, "other").overloads).toBeUndefined();
  });

  it("counts ambient overloads without an implementation", () => {
    const result = extract(code`
      declare function read(path: string): string;
      declare function read(fd: number): string;
      declare function single(): void;
    `);
    expect(fn(result, "read")).toMatchObject({ overloads: 2, lineStart: 1, lineEnd: 2 });
    expect(fn(result, "single").overloads).toBeUndefined();
  });
});

describe("functions bound to variables", () => {
  it("reads arrows and function expressions on const/let/var", () => {
    const result = extract(
      code`
        export const add = (a, b) => a + b;
        let twice = async x => x * 2;
        var legacy = function named(a) {};
        const gen = function* () {};
        const notAFunction = compute(() => 1);
      `,
      "javascript",
    );
    expect(result.ast.functions.map((f) => [f.name, f.lineStart, f.isArrow, f.isExported, f.params])).toEqual([
      ["add", 1, true, true, ["a", "b"]],
      ["twice", 2, true, false, ["x"]],
      ["legacy", 3, true, false, ["a"]],
      ["gen", 4, true, false, []],
    ]);
    expect(fn(result, "twice").isAsync).toBe(true);
    expect(fn(result, "gen").isGenerator).toBe(true);
  });

  it("gives later declarators of one statement their own line", () => {
    const result = extract(code`
      const first = () => 1,
        second = () => 2;
    `);
    expect(result.ast.functions.map((f) => [f.name, f.lineStart])).toEqual([
      ["first", 1],
      ["second", 2],
    ]);
  });

  it("keeps typed arrow signatures", () => {
    const result = extract(`export const parse = <T,>(input: string, schema: Schema<T>): T => schema.parse(input);`);
    expect(fn(result, "parse")).toMatchObject({ params: ["input", "schema"], returnType: "T", isArrow: true });
  });
});

describe("functions in namespaces", () => {
  it("includes namespace and ambient module members without exporting them from the file", () => {
    const result = extract(code`
      namespace Geometry {
        export function area() {}
        function hidden() {}
      }
      declare module "shapes" {
        export function circle(r: number): Shape;
      }
    `);
    expect(result.ast.functions.map((f) => [f.name, f.isExported])).toEqual([
      ["area", true],
      ["hidden", false],
      ["circle", true],
    ]);
    expect(result.ast.exports).toEqual([]);
  });

  it("does not fold a namespace member into a top-level function of the same name", () => {
    const result = extract(code`
      function area() {}
      namespace Geometry { export function area() {} }
    `);
    expect(result.ast.functions.filter((f) => f.name === "area")).toHaveLength(2);
  });
});

describe("JSX components", () => {
  it("reads function and arrow components in TSX", () => {
    const result = extract(
      code`
        import React from "react";
        export function Card({ title }: { title: string }) {
          return <section className="card"><h2>{title}</h2></section>;
        }
        export const Badge = ({ label }: Props): JSX.Element => <span>{label}</span>;
        export default function Page() {
          return <><Card title="x" /><Badge label="y" /></>;
        }
      `,
      "tsx",
    );
    expect(result.ast.parseError).toBe(false);
    expect(result.ast.functions.map((f) => [f.name, f.lineStart, f.lineEnd, f.params])).toEqual([
      ["Card", 2, 4, ["{ title }"]],
      ["Badge", 5, 5, ["{ label }"]],
      ["Page", 6, 8, []],
    ]);
    expect(result.ast.exports.find((e) => e.isDefault)).toEqual({ name: "Page", type: "function", line: 6, isDefault: true });
  });

  it("reads JSX in .js/.jsx with the JavaScript grammar", () => {
    const result = extract(
      code`
        export function Counter({ start = 0 }) {
          return <button onClick={() => inc()}>{start}</button>;
        }
        export const Label = ({ text }) => <span>{text}</span>;
      `,
      "javascript",
    );
    expect(result.ast.parseError).toBe(false);
    expect(result.ast.functions.map((f) => f.name)).toEqual(["Counter", "Label"]);
  });
});
