// One realistic file per language (tests/fixtures/languages/<lang>/): each parses cleanly and yields the
// outline a reader of the file would write down.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { extractFile, languageForPath, type ExtractResult } from "../../../src/workers/extract/index.js";
import { cls } from "./extract-helpers.js";

const FIXTURES = fileURLToPath(new URL("../../fixtures/languages/", import.meta.url));

function load(relativePath: string): ExtractResult {
  const language = languageForPath(relativePath);
  expect(language).not.toBeNull();
  const result = extractFile(readFileSync(FIXTURES + relativePath, "utf8"), language!);
  expect(result.ast.parseError).toBe(false);
  return result;
}

const names = (items: { name: string }[]): string[] => items.map((i) => i.name);

describe("language fixtures", () => {
  it("typescript/order-service.ts", () => {
    const { ast, facts } = load("typescript/order-service.ts");
    expect(ast.imports.map((i) => `${i.name} ${i.from} ${i.type}`)).toEqual([
      "EventEmitter node:events builtin",
      "Logger ../logging/logger.js internal",
      "Injectable @nestjs/common external",
      "Inject @nestjs/common external",
      "money ./money.js internal",
    ]);
    expect(ast.exports.map((e) => `${e.name}:${e.type}`)).toEqual([
      "Order:interface",
      "OrderId:type",
      "OrderStatus:enum",
      "OrderService:class",
      "totalOf:function",
      "isPaid:function",
      "default:default",
    ]);
    const service = cls({ ast }, "OrderService");
    expect(service).toMatchObject({ lineStart: 22, lineEnd: 63, extends: "EventEmitter", implements: ["Disposable"], decorators: ["Injectable"] });
    expect(service.methods.map((m) => `${m.accessor ?? ""}${m.name}`)).toEqual([
      "constructor",
      "getsize",
      "place",
      "cancel",
      "#markCancelled",
      "[Symbol.dispose]",
    ]);
    expect(service.properties.map((p) => `${p.visibility} ${p.name}`)).toEqual([
      "public MAX_ITEMS",
      "private #orders",
      "protected retries",
      "private logger",
    ]);
    expect(names(ast.functions)).toEqual(["totalOf", "isPaid"]);
    expect(ast.types.map((t) => `${t.kind} ${t.name}`)).toEqual(["interface Order", "type OrderId", "enum OrderStatus"]);
    expect(facts.calls).toContainEqual({ caller: "OrderService.place", callee: "this.logger.info", line: 41 });
  });

  it("typescript/shapes.d.ts", () => {
    const { ast } = load("typescript/shapes.d.ts");
    expect(names(ast.functions)).toEqual(["circle", "square", "distance"]);
    expect(ast.types.map((t) => `${t.kind} ${t.name}`)).toEqual([
      "namespace shapes",
      "interface Shape",
      "namespace global",
      "interface Window",
      "namespace Geometry",
      "type Point",
    ]);
    expect(cls({ ast }, "Figure")).toMatchObject({ isAbstract: true, isExported: true });
    expect(ast.imports).toEqual([{ name: "*", from: "shapes", line: 11, type: "external", isDefault: false, isTypeOnly: true }]);
    expect(ast.exports.map((e) => e.name)).toEqual(["Figure", "Geometry", "Point", "="]);
  });

  it("tsx/user-card.tsx", () => {
    const { ast } = load("tsx/user-card.tsx");
    expect(names(ast.functions)).toEqual(["UserCard", "UserList", "UserPage"]);
    expect(ast.exports.find((e) => e.isDefault)?.name).toBe("UserPage");
    expect(ast.imports.filter((i) => i.isDynamic).map((i) => i.from)).toEqual(["./profile"]);
  });

  it("javascript/logger.cjs", () => {
    const { ast } = load("javascript/logger.cjs");
    expect(ast.imports.map((i) => `${i.name} ${i.from}`)).toEqual(["fs fs", "join node:path", "dirname node:path", "chalk chalk"]);
    expect(ast.exports.map((e) => `${e.name}:${e.type}`)).toEqual([
      "createLogger:function",
      "Rotator:class",
      "colorize:function",
      "LEVELS:const",
      "defaultFile:const",
    ]);
    expect(cls({ ast }, "Rotator").methods.map((m) => `${m.isStatic ? "static " : ""}${m.name}`)).toEqual([
      "constructor",
      "static defaults",
      "shouldRotate",
    ]);
  });

  it("javascript/store.mjs", () => {
    const { ast } = load("javascript/store.mjs");
    expect(ast.functions.map((f) => [f.name, f.isAsync, f.isGenerator ?? false])).toEqual([
      ["readLines", true, true],
      ["loadPlugins", true, false],
    ]);
    expect(ast.exports.map((e) => `${e.name}:${e.type}${e.from ? ` from ${e.from}` : ""}`)).toEqual([
      "readLines:function",
      "Store:class",
      "loadPlugins:function",
      "KeyValueStore:class",
      "*:reexport from ./store-helpers.mjs",
    ]);
    // The template-literal import() names no single module.
    expect(ast.imports.some((i) => i.isDynamic)).toBe(false);
  });

  it("javascript/counter.jsx", () => {
    expect(names(load("javascript/counter.jsx").ast.functions)).toEqual(["Counter", "Label"]);
  });

  it("json fixtures", () => {
    expect(load("json/app-package.json").ast.keys).toEqual(["name", "version", "type", "scripts", "dependencies", "devDependencies"]);
    expect(load("json/tsconfig.base.json").ast.keys).toEqual(["compilerOptions", "include"]);
  });

  it("yaml fixtures", () => {
    expect(load("yaml/ci.yml").ast.keys).toEqual(["name", "on", "env", "jobs"]);
    expect(load("yaml/docker-compose.yaml").ast.keys).toEqual(["services", "x-shared"]);
  });
});
