import { describe, expect, it } from "vitest";
import { displayDependency, exportedNames, formatFileOutline, packageName } from "../../../src/main/context/project-outline.js";
import type { FileAST, FileMeta, MethodInfo } from "../../../src/workers/ast-types.js";

const meta = (over: Partial<FileMeta> = {}): FileMeta => ({
  complexity: { loc: 40, nesting: 2, imports: 3, score: 17 },
  dependencies: [],
  dependents: [],
  isHub: false,
  isEntryPoint: false,
  ...over,
});

const method = (name: string, over: Partial<MethodInfo> = {}): MethodInfo => ({
  name,
  lineStart: 10,
  lineEnd: 12,
  params: [],
  visibility: "public",
  isStatic: false,
  isAsync: false,
  ...over,
});

const ast = (over: Partial<FileAST> = {}): FileAST => ({ imports: [], exports: [], functions: [], classes: [], types: [], parseError: false, ...over });

describe("formatFileOutline", () => {
  it("renders signatures, heritage, members and line ranges, never bodies", () => {
    const text = formatFileOutline(
      "src/orders/order.service.ts",
      ast({
        imports: [
          { name: "z", from: "zod", line: 1, type: "external", isDefault: false },
          { name: "Injectable", from: "@nestjs/common/decorators", line: 2, type: "external", isDefault: false },
          { name: "readFile", from: "fs", line: 3, type: "builtin", isDefault: false },
          { name: "Money", from: "../money", line: 4, type: "internal", isDefault: false },
        ],
        exports: [
          { name: "OrderService", type: "class", line: 6 },
          { name: "loadOrders", type: "function", line: 30 },
          { name: "Order", type: "interface", line: 2 },
          { name: "VERSION", type: "const", line: 40 },
        ],
        classes: [
          {
            name: "OrderService",
            lineStart: 6,
            lineEnd: 28,
            extends: "BaseService<Order>",
            implements: ["Disposable"],
            isExported: true,
            decorators: ["Injectable"],
            properties: [
              { name: "cache", line: 7, type: "Map<string, Order>", visibility: "private", isStatic: false, isReadonly: true },
              { name: "#secret", line: 8, visibility: "private", isStatic: false, isReadonly: false },
            ],
            methods: [
              method("create", { params: ["order", "opts"], returnType: "Promise<Order>", isAsync: true, lineStart: 10, lineEnd: 15 }),
              method("size", { accessor: "get", returnType: "number", lineStart: 17, lineEnd: 17 }),
              method("of", { isStatic: true, visibility: "protected", params: ["id"], returnType: "OrderService", lineStart: 19, lineEnd: 21 }),
            ],
          },
        ],
        functions: [
          { name: "loadOrders", lineStart: 30, lineEnd: 35, params: ["file"], returnType: "Promise<Order[]>", isAsync: true, isExported: true },
          { name: "helper", lineStart: 37, lineEnd: 38, params: ["a", "b"], isAsync: false, isExported: false, isArrow: true },
          { name: "ids", lineStart: 39, lineEnd: 39, params: [], isAsync: false, isExported: false, isGenerator: true, overloads: 2 },
        ],
        types: [{ name: "Order", kind: "interface", lineStart: 2, lineEnd: 4, isExported: true }],
      }),
      meta({ dependencies: ["src/money.ts", "src/orders/order.repo.ts"], dependents: Array.from({ length: 7 }, (_, i) => `d${i}.ts`), isHub: true, isEntryPoint: true }),
    );
    expect(text.split("\n")).toEqual([
      "src/orders/order.service.ts  [entry point, hub, 7 dependents, cx 17]",
      "  imports: src/money.ts, ./order.repo.ts",
      "  packages: @nestjs/common, node:fs, zod",
      "  export interface Order  L2-4",
      "  @Injectable export class OrderService extends BaseService<Order> implements Disposable  L6-28",
      "    props: private readonly cache: Map<string, Order>, #secret",
      "    async create(order, opts): Promise<Order>  L10-15",
      "    get size(): number  L17",
      "    protected static of(id): OrderService  L19-21",
      "  export async function loadOrders(file): Promise<Order[]>  L30-35",
      "  const helper = (a, b)  L37-38",
      "  function* ids() (+2 overloads)  L39",
      "  export const VERSION",
    ]);
  });

  it("shows default exports, re-exports grouped per kind, and JSON/YAML top-level keys", () => {
    const barrel = formatFileOutline(
      "packages/core/src/index.ts",
      ast({
        exports: [
          { name: "*", type: "reexport", line: 1, from: "./money" },
          { name: "*", type: "reexport", line: 2, from: "./tax" },
          { name: "toSlug", type: "reexport", line: 3, from: "./utils/strings" },
          { name: "Logger", type: "class", line: 5, isDefault: true },
        ],
        classes: [{ name: "Logger", lineStart: 5, lineEnd: 9, methods: [], properties: [], implements: [], isExported: true }],
      }),
      meta(),
    );
    expect(barrel).toContain('  export * from "./money", "./tax"');
    expect(barrel).toContain('  re-exports toSlug from "./utils/strings"');
    expect(barrel).toContain("  export default class Logger  L5-9");
    expect(formatFileOutline("config.yaml", ast({ keys: ["server", "database"] }), meta())).toBe("config.yaml  [cx 17]\n  keys: server, database");
  });

  it("caps long member lists and long type texts", () => {
    const many = ast({
      classes: [
        {
          name: "Big",
          lineStart: 1,
          lineEnd: 500,
          isExported: false,
          implements: [],
          properties: [],
          methods: Array.from({ length: 50 }, (_, i) => method(`m${i}`, { params: [`{ ${"x, ".repeat(40)}y }`] })),
        },
      ],
    });
    const lines = formatFileOutline("big.ts", many, null, { maxMembers: 5 }).split("\n");
    expect(lines).toHaveLength(1 + 1 + 5 + 1);
    expect(lines.at(-1)).toBe("    … +45 more methods");
    expect(lines[2]!.length).toBeLessThan(100);
    expect(lines[2]).toContain("…)");
  });

  it("keeps a file within maxLines: whole declarations, then part of a class, then a count", () => {
    const cls = (name: string, start: number) => ({
      name,
      lineStart: start,
      lineEnd: start + 50,
      isExported: true,
      implements: [],
      properties: [],
      methods: Array.from({ length: 10 }, (_, i) => method(`${name.toLowerCase()}${i}`, { lineStart: start + i + 1, lineEnd: start + i + 1 })),
    });
    const three = ast({ classes: [cls("A", 1), cls("B", 100), cls("C", 200)] });
    const roomy = formatFileOutline("abc.ts", three, null, { maxLines: 12 }).split("\n");
    expect(roomy).toHaveLength(13);
    expect(roomy.slice(1, 3)).toEqual(["  export class A  L1-51", "    a0()  L2"]);
    expect(roomy.at(-1)).toBe("  … +2 more declarations");
    const tight = formatFileOutline("abc.ts", three, null, { maxLines: 8 }).split("\n");
    expect(tight).toHaveLength(9);
    expect(tight.slice(-3)).toEqual(["    a4()  L6", "    … +5 more members", "  … +2 more declarations"]);
  });

  it("marks a partial parse and works without AST or meta", () => {
    expect(formatFileOutline("x.ts", ast({ parseError: true }), null)).toBe("x.ts  (partial parse)");
    expect(formatFileOutline("x.ts", null, meta({ dependents: ["a.ts"] }))).toBe("x.ts  [1 dependent, cx 17]");
  });

  it("marks generated code instead of giving its complexity", () => {
    expect(formatFileOutline("gen/client.ts", null, meta({ complexity: { loc: 9000, nesting: 6, imports: 3, score: 936, generated: true } }))).toBe("gen/client.ts  [generated]");
  });
});

describe("helpers", () => {
  it.each([
    ["react", "react"],
    ["lodash/fp", "lodash"],
    ["@nestjs/common", "@nestjs/common"],
    ["@nestjs/common/decorators/x", "@nestjs/common"],
  ])("packageName(%s) = %s", (spec, name) => expect(packageName(spec)).toBe(name));

  it("shows dependencies below the file's folder relatively, others in full", () => {
    expect(displayDependency("a/b/c.ts", "a/b/d/e.ts")).toBe("./d/e.ts");
    expect(displayDependency("a/b/c.ts", "a/x.ts")).toBe("a/x.ts");
    expect(displayDependency("c.ts", "package.json")).toBe("./package.json");
    expect(displayDependency("c.ts", "src/x.ts")).toBe("src/x.ts");
  });

  it("exportedNames lists declared exports without stars and re-exports", () => {
    expect(
      exportedNames(
        ast({
          exports: [
            { name: "*", type: "reexport", line: 1, from: "./a" },
            { name: "b", type: "reexport", line: 2, from: "./b" },
            { name: "C", type: "class", line: 3 },
            { name: "d", type: "function", line: 4 },
            { name: "default", type: "default", line: 5, isDefault: true },
          ],
        }),
      ),
    ).toEqual(["C", "d"]);
  });
});
