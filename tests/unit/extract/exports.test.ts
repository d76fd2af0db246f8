import { describe, expect, it } from "vitest";
import { code, extract, fn } from "./extract-helpers.js";

describe("exports of declarations", () => {
  it("names each exported declaration with its kind and line", () => {
    const { ast } = extract(code`
      export function run() {}
      export class Runner {}
      export interface Options {}
      export type Mode = "a" | "b";
      export const limit = 3, other = 4;
      export let counter = 0;
      export enum Color { Red }
      export namespace Tools {}
      export const handler = async () => {};
    `);
    expect(ast.exports).toEqual([
      { name: "run", type: "function", line: 1 },
      { name: "Runner", type: "class", line: 2 },
      { name: "Options", type: "interface", line: 3 },
      { name: "Mode", type: "type", line: 4 },
      { name: "limit", type: "const", line: 5 },
      { name: "other", type: "const", line: 5 },
      { name: "counter", type: "const", line: 6 },
      { name: "Color", type: "enum", line: 7 },
      { name: "Tools", type: "namespace", line: 8 },
      { name: "handler", type: "function", line: 9 },
    ]);
  });

  it("exports each name bound by a destructuring declaration", () => {
    const { ast } = extract(`export const { a, b: [c, ...rest] } = source;`);
    expect(ast.exports.map((e) => e.name)).toEqual(["a", "c", "rest"]);
  });

  it("collapses overloads and merged declarations to one export", () => {
    const { ast } = extract(code`
      export function parse(a: string): number;
      export function parse(a: number): number;
      export function parse(a: unknown) { return 0; }
      export interface Box { a: 1 }
      export interface Box { b: 2 }
    `);
    expect(ast.exports.map((e) => [e.name, e.line])).toEqual([
      ["parse", 1],
      ["Box", 4],
    ]);
  });
});

describe("default exports", () => {
  it("keeps the declared name of a default function or class", () => {
    const { ast } = extract(`export default async function main() {}`);
    expect(ast.exports).toEqual([{ name: "main", type: "function", line: 1, isDefault: true }]);
    expect(fn(extract(`export default function main() {}`), "main").isExported).toBe(true);
  });

  it("names anonymous default functions, arrows and classes `default`", () => {
    expect(extract(`export default function () {}`).ast.exports).toEqual([{ name: "default", type: "function", line: 1, isDefault: true }]);
    expect(extract(`export default () => 1;`).ast.exports).toEqual([{ name: "default", type: "function", line: 1, isDefault: true }]);
    const anonymousClass = extract(`export default class extends Base {}`);
    expect(anonymousClass.ast.exports).toEqual([{ name: "default", type: "class", line: 1, isDefault: true }]);
    expect(anonymousClass.ast.classes[0]).toMatchObject({ name: "default", extends: "Base", isExported: true });
  });

  it("records an expression default as `default`, and marks an exported local as exported", () => {
    const { ast } = extract(code`
      function app() {}
      export default app;
    `);
    expect(ast.exports).toEqual([{ name: "default", type: "default", line: 2, isDefault: true }]);
    expect(ast.functions[0]!.isExported).toBe(true);
    expect(extract(`export default { a: 1 };`).ast.exports).toEqual([{ name: "default", type: "default", line: 1, isDefault: true }]);
  });

  it("recovers a .d.ts `export default function (): T;` signature", () => {
    const result = extract(`export default function (start: number, end: number): () => number;`);
    expect(result.ast.exports).toEqual([{ name: "default", type: "function", line: 1, isDefault: true }]);
    expect(fn(result, "default")).toMatchObject({ params: ["start", "end"], isExported: true });
  });
});

describe("export lists and `export =`", () => {
  it("takes the kind of the local declaration and marks it exported", () => {
    const { ast } = extract(code`
      function helper() {}
      class Store {}
      const VERSION = 1;
      import { thing } from "./thing";
      export { helper, Store as Repository, VERSION, thing, helper as default };
    `);
    expect(ast.exports).toEqual([
      { name: "helper", type: "function", line: 5 },
      { name: "Repository", type: "class", line: 5 },
      { name: "VERSION", type: "const", line: 5 },
      { name: "thing", type: "const", line: 5 },
      { name: "default", type: "function", line: 5, isDefault: true },
    ]);
    expect(ast.functions[0]!.isExported).toBe(true);
    expect(ast.classes[0]!.isExported).toBe(true);
  });

  it("records `export =` as `=`", () => {
    const { ast } = extract(code`
      declare namespace Lib { const x: number; }
      export = Lib;
    `);
    expect(ast.exports).toEqual([{ name: "=", type: "default", line: 2 }]);
    expect(ast.types[0]).toMatchObject({ name: "Lib", kind: "namespace", isExported: true });
  });

  it("ignores the UMD `export as namespace` global", () => {
    expect(extract(`export as namespace MyLib;`).ast.exports).toEqual([]);
  });
});

describe("re-exports", () => {
  it("records named, star and star-as re-exports with their source", () => {
    const { ast } = extract(code`
      export { a, b as c } from "./lib";
      export * from "./all";
      export * as tools from "./tools";
    `);
    expect(ast.exports).toEqual([
      { name: "a", type: "reexport", line: 1, from: "./lib" },
      { name: "c", type: "reexport", line: 1, from: "./lib" },
      { name: "*", type: "reexport", line: 2, from: "./all" },
      { name: "tools", type: "reexport", line: 3, from: "./tools" },
    ]);
  });

  it("keeps `export *` from different modules apart", () => {
    const { ast } = extract(`export * from "./a";\nexport * from "./b";`);
    expect(ast.exports.map((e) => e.from)).toEqual(["./a", "./b"]);
  });
});

describe("CommonJS exports", () => {
  it("reads module.exports objects and exports.x assignments", () => {
    const { ast } = extract(
      code`
        function createLogger() {}
        class Rotator {}
        module.exports = { createLogger, Rotator, level: "info", format() {}, [dynamic]: 1 };
        exports.helper = () => {};
        module.exports.VERSION = "1.0";
      `,
      "javascript",
    );
    expect(ast.exports).toEqual([
      { name: "createLogger", type: "function", line: 3 },
      { name: "Rotator", type: "class", line: 3 },
      { name: "level", type: "const", line: 3 },
      { name: "format", type: "function", line: 3 },
      { name: "helper", type: "function", line: 4 },
      { name: "VERSION", type: "const", line: 5 },
    ]);
    expect(ast.functions[0]!.isExported).toBe(true);
  });

  it("records `module.exports = value` as `=`", () => {
    const { ast } = extract(`function main() {}\nmodule.exports = main;`, "javascript");
    expect(ast.exports).toEqual([{ name: "=", type: "default", line: 2 }]);
    expect(ast.functions[0]!.isExported).toBe(true);
  });
});
