import { describe, expect, it } from "vitest";
import { MAX_CALLS_PER_FILE } from "../../../src/workers/extract/index.js";
import { code, extract } from "./extract-helpers.js";

describe("graph facts", () => {
  it("projects imports and exports and lists the file's symbols", () => {
    const { facts } = extract(code`
      import type { T } from "./t";
      export { x } from "./x";
      export interface Shape {}
      type Alias = Shape;
      enum Kind { A }
      namespace Hidden {}
      export const LIMIT = 3;
      const local = 1;
      export function area() {}
      export class Circle {
        radius() {}
        get size() { return 1; }
      }
    `);
    expect(facts.imports).toEqual([
      { from: "./t", name: "T", isTypeOnly: true },
      { from: "./x", name: "x", isReExport: true },
    ]);
    expect(facts.exports).toEqual([
      { name: "x", type: "reexport", line: 2, from: "./x" },
      { name: "Shape", type: "interface", line: 3 },
      { name: "LIMIT", type: "const", line: 7 },
      { name: "area", type: "function", line: 9 },
      { name: "Circle", type: "class", line: 10 },
    ]);
    expect(facts.symbols).toEqual([
      { name: "area", kind: "function", line: 9 },
      { name: "Circle", kind: "class", line: 10 },
      { name: "Circle.radius", kind: "method", line: 11 },
      { name: "Circle.size", kind: "method", line: 12 },
      { name: "Shape", kind: "interface", line: 3 },
      { name: "Alias", kind: "type", line: 4 },
      { name: "Kind", kind: "enum", line: 5 },
      { name: "Hidden", kind: "namespace", line: 6 },
      { name: "LIMIT", kind: "const", line: 7 },
    ]);
  });

  it("names what a namespace declares after it (util.assertEqual), nested ones too, but not what declare global or declare module add", () => {
    const { facts, ast } = extract(code`
      export namespace util {
        export function assertEqual(a: unknown, b: unknown) { check(a === b); }
        function check(ok: boolean) {}
        export class Box { open() { check(true); } }
        export interface Shape {}
        export namespace deep { export const pick = () => assertEqual(1, 1); }
      }
      namespace A.B { export function f() {} }
      declare global { function globalHelper(): void; }
      declare module "express" { function augment(): void; }
      util.assertEqual(1, 2);
    `);
    expect(facts.symbols).toEqual([
      { name: "util.assertEqual", kind: "function", line: 2 },
      { name: "util.check", kind: "function", line: 3 },
      { name: "util.deep.pick", kind: "function", line: 6 },
      { name: "A.B.f", kind: "function", line: 8 },
      { name: "globalHelper", kind: "function", line: 9 },
      { name: "augment", kind: "function", line: 10 },
      { name: "util.Box", kind: "class", line: 4 },
      { name: "util.Box.open", kind: "method", line: 4 },
      { name: "util", kind: "namespace", line: 1 },
      { name: "util.Shape", kind: "interface", line: 5 },
      { name: "util.deep", kind: "namespace", line: 6 },
      { name: "A.B", kind: "namespace", line: 8 },
    ]);
    // Callers inside are qualified the same way; the AST keeps the names as written.
    expect(facts.calls).toEqual([
      { caller: "util.assertEqual", callee: "check", line: 2 },
      { caller: "util.Box.open", callee: "check", line: 4 },
      { caller: "util.deep.pick", callee: "assertEqual", line: 6 },
      { caller: "<module>", callee: "util.assertEqual", line: 11 },
    ]);
    expect(ast.functions.map((f) => f.name)).toEqual(["assertEqual", "check", "pick", "f", "globalHelper", "augment"]);
  });

  it("keeps the name a re-export exports its import under, when it renames it", () => {
    const { facts } = extract(code`
      export { default as Button, helper as assist, same } from "./button";
      export type { Props as ButtonProps } from "./props";
      export * as icons from "./icons";
    `);
    expect(facts.imports).toEqual([
      { from: "./button", name: "default", isReExport: true, as: "Button" },
      { from: "./button", name: "helper", isReExport: true, as: "assist" },
      { from: "./button", name: "same", isReExport: true },
      { from: "./props", name: "Props", isTypeOnly: true, isReExport: true, as: "ButtonProps" },
      // A namespace re-export is one name, not a star that forwards the module's names.
      { from: "./icons", name: "*", isReExport: true, as: "icons" },
    ]);
  });

  it("keeps the name an import takes under another (named as, namespace, the default export)", () => {
    const { facts } = extract(code`
      import Button, { helper as assist, same, default as Card, "quoted name" as quoted } from "./button";
      import * as icons from "./icons";
      import type { Props as P } from "./props";
    `);
    expect(facts.imports).toEqual([
      { from: "./button", name: "Button", imported: "default" },
      { from: "./button", name: "assist", imported: "helper" },
      { from: "./button", name: "same" },
      { from: "./button", name: "Card", imported: "default" },
      { from: "./button", name: "quoted", imported: "quoted name" },
      { from: "./icons", name: "icons", imported: "*" },
      { from: "./props", name: "P", isTypeOnly: true, imported: "Props" },
    ]);
  });

  it("takes imported bindings exported again for re-exports, not for declarations of this file", () => {
    const { facts } = extract(code`
      import { Button, helper as assist } from "./button";
      import Card from "./card";
      import * as icons from "./icons";
      import type { Props } from "./props";
      const legacy = require("./legacy");
      export { Button, assist as aid, icons, Props, legacy };
      export default Card;
      export const own = 1;
    `);
    expect(facts.imports.filter((i) => i.isReExport)).toEqual([
      { from: "./button", name: "Button", isReExport: true },
      { from: "./button", name: "helper", isReExport: true, as: "aid" },
      { from: "./icons", name: "*", isReExport: true, as: "icons" },
      { from: "./props", name: "Props", isReExport: true, isTypeOnly: true },
      { from: "./card", name: "default", isReExport: true },
    ]);
    // A require() binding is not known by name: it stays an export of this file, as a declaration does.
    expect(facts.symbols.map((s) => s.name).sort()).toEqual(["legacy", "own"]);
    expect(facts.defaultName).toBeUndefined();
  });

  it("takes a require() binding for the module object, and a destructured one for the module's name", () => {
    const { facts } = extract(code`
      const util = require("./util");
      const { toSetString, quote: q } = require("./strings");
      const [first] = require("./list");
      class Cache {}
      module.exports = Cache;
    `);
    expect(facts.imports).toEqual([
      { from: "./util", name: "util", isDynamic: true, imported: "=" },
      { from: "./strings", name: "toSetString", isDynamic: true },
      { from: "./strings", name: "q", isDynamic: true, imported: "quote" },
      { from: "./list", name: "first", isDynamic: true },
    ]);
    expect(facts.moduleName).toBe("Cache");
    expect(extract("export = Api;\nclass Api {}").facts.moduleName).toBe("Api");
    expect(extract("module.exports = { a: 1 };").facts.moduleName).toBeUndefined();
  });

  it("names the declaration a default export points to, when it names one declared here", () => {
    const defaultName = (source: string) => extract(source).facts.defaultName;
    expect(defaultName("export default function Button() {}")).toBe("Button");
    expect(defaultName("export default class Modal {}")).toBe("Modal");
    expect(defaultName("function Card() {}\nexport default Card;")).toBe("Card");
    expect(defaultName("function Deck() {}\nexport { Deck as default };")).toBe("Deck");
    // Anonymous: its symbol is `default` itself. Imported and then exported: not declared here.
    expect(defaultName("export default () => 1;")).toBeUndefined();
    expect(defaultName('import Card from "./card";\nexport default Card;')).toBeUndefined();
    expect(defaultName("export const a = 1;")).toBeUndefined();
  });
});

describe("call sites", () => {
  it("attributes calls to the enclosing function, Class.method, class or <module>", () => {
    const { facts } = extract(code`
      setup();
      function main() {
        const inner = () => helper();
        inner();
      }
      export const handler = async () => { await main(); };
      class Api {
        client = createClient();
        fetch() { return this.client.get("/x"); }
        static create() { return new Api(); }
      }
    `);
    expect(facts.calls).toEqual([
      { caller: "<module>", callee: "setup", line: 1 },
      { caller: "main", callee: "helper", line: 3 },
      { caller: "main", callee: "inner", line: 4 },
      { caller: "handler", callee: "main", line: 6 },
      { caller: "Api", callee: "createClient", line: 8 },
      { caller: "Api.fetch", callee: "this.client.get", line: 9 },
    ]);
  });

  it("trims callees to identifier and member chains", () => {
    const { facts } = extract(code`
      function f() {
        a.b(c).d(e);
        obj?.maybe?.();
        parse<Config>(text);
        html\`<p>\${x}</p>\`;
        items[0]();
        (0, impl)();
        super.dispose?.();
        call(
          nested(),
        );
        arr
          .map(fn)
          .filter(Boolean);
        (config as Options).load();
        (function () {})();
        var state = function (s) { return s; }(init);
      }
    `);
    expect(facts.calls.map((c) => [c.callee, c.line])).toEqual([
      ["d", 2],
      ["a.b", 2],
      ["obj.maybe", 3],
      ["parse", 4],
      ["html", 5],
      ["super.dispose", 8],
      ["call", 9],
      ["nested", 10],
      ["filter", 12],
      ["arr.map", 12],
      ["load", 15],
    ]);
  });

  it("does not list import() and require() as calls", () => {
    const { facts } = extract(`const a = require("a");\nimport("b").then(run);`, "javascript");
    expect(facts.calls.map((c) => c.callee)).toEqual(["then"]);
  });

  it("caps the calls kept per file", () => {
    const source = Array.from({ length: MAX_CALLS_PER_FILE + 100 }, (_, i) => `f${i}();`).join("\n");
    const { facts } = extract(source, "javascript");
    expect(facts.calls).toHaveLength(MAX_CALLS_PER_FILE);
    expect(facts.calls.at(-1)).toEqual({ caller: "<module>", callee: `f${MAX_CALLS_PER_FILE - 1}`, line: MAX_CALLS_PER_FILE });
  });
});
