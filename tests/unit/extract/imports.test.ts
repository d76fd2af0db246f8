import { describe, expect, it } from "vitest";
import { classifyImport } from "../../../src/workers/extract/imports.js";
import { code, extract } from "./extract-helpers.js";

describe("static imports", () => {
  it("yields one record per binding with the local name", () => {
    const { ast } = extract(code`
      import def, { a as b, c } from "./x";
      import * as ns from "node:fs";
      import "./polyfill";
    `);
    expect(ast.imports).toEqual([
      { name: "def", from: "./x", line: 1, type: "internal", isDefault: true },
      { name: "b", from: "./x", line: 1, type: "internal", isDefault: false },
      { name: "c", from: "./x", line: 1, type: "internal", isDefault: false },
      { name: "ns", from: "node:fs", line: 2, type: "builtin", isDefault: false },
      { name: "*", from: "./polyfill", line: 3, type: "internal", isDefault: false },
    ]);
  });

  it("marks `import type` and inline `type` specifiers as type-only", () => {
    const { ast } = extract(code`
      import type { Config } from "./config";
      import { type Logger, createLogger } from "./log";
    `);
    expect(ast.imports.map((i) => [i.name, i.isTypeOnly ?? false])).toEqual([
      ["Config", true],
      ["Logger", true],
      ["createLogger", false],
    ]);
  });

  it("treats `{ default as X }` as the default binding", () => {
    const { ast } = extract(`import { default as React } from "react";`);
    expect(ast.imports[0]).toMatchObject({ name: "React", isDefault: true, type: "external" });
  });

  it("reads TS `import x = require()` but not namespace aliases", () => {
    const { ast } = extract(code`
      import fs = require("fs");
      import Alias = Some.Namespace;
    `);
    expect(ast.imports).toEqual([{ name: "fs", from: "fs", line: 1, type: "builtin", isDefault: false }]);
  });

  it("gives the statement's line to every binding of a multi-line import", () => {
    const { ast } = extract(code`
      const before = 1;
      import {
        one,
        two,
      } from "./numbers";
    `);
    expect(ast.imports.map((i) => i.line)).toEqual([2, 2]);
  });
});

describe("re-export edges", () => {
  it("records the source-side names of `export … from`", () => {
    const { ast } = extract(code`
      export { a, b as c, default as D } from "./lib";
      export * from "./all";
      export * as tools from "./tools";
      export type { T } from "./types";
    `);
    expect(ast.imports.map((i) => [i.name, i.from, i.isReExport, i.isDefault, i.isTypeOnly ?? false])).toEqual([
      ["a", "./lib", true, false, false],
      ["b", "./lib", true, false, false],
      ["default", "./lib", true, true, false],
      ["*", "./all", true, false, false],
      ["*", "./tools", true, false, false],
      ["T", "./types", true, false, true],
    ]);
  });
});

describe("CommonJS and dynamic imports", () => {
  it("binds require() declarators per name and marks them dynamic", () => {
    const { ast } = extract(
      code`
        const fs = require("fs");
        const { join, resolve: r } = require("node:path");
        const lodash = require("lodash");
      `,
      "javascript",
    );
    expect(ast.imports.map((i) => [i.name, i.from, i.type, i.isDynamic])).toEqual([
      ["fs", "fs", "builtin", true],
      ["join", "node:path", "builtin", true],
      ["r", "node:path", "builtin", true],
      ["lodash", "lodash", "external", true],
    ]);
  });

  it("finds import() and nested require() anywhere as `*` imports, in source order", () => {
    const { ast } = extract(
      code`
        async function load(kind) {
          if (kind) {
            const mod = await import("./plugin");
            return require("./legacy").run(mod);
          }
        }
        import("./eager");
      `,
      "javascript",
    );
    expect(ast.imports.map((i) => [i.name, i.from, i.line, i.isDynamic])).toEqual([
      ["*", "./plugin", 3, true],
      ["*", "./legacy", 4, true],
      ["*", "./eager", 7, true],
    ]);
  });

  it("ignores computed specifiers", () => {
    const { ast } = extract(
      code`
        const a = require("./widgets/" + name);
        const b = import(\`./locales/\${lang}.js\`);
        const c = require(variable);
      `,
      "javascript",
    );
    expect(ast.imports).toEqual([]);
  });

  it("treats import() in type positions as type-only, not dynamic", () => {
    const { ast } = extract(code`
      type Blob = import("buffer").Blob;
      let options: typeof import("./options");
      function f(): import("./result").Result {
        return import("./runtime");
      }
    `);
    expect(ast.imports.map((i) => [i.from, i.isTypeOnly ?? false, i.isDynamic ?? false])).toEqual([
      ["buffer", true, false],
      ["./options", true, false],
      ["./result", true, false],
      ["./runtime", false, true],
    ]);
  });
});

describe("classifyImport", () => {
  it.each([
    ["node:fs", "builtin"],
    ["fs", "builtin"],
    ["fs/promises", "builtin"],
    ["node:test", "builtin"],
    ["./a", "internal"],
    ["../b/c", "internal"],
    ["/abs/path", "internal"],
    ["react", "external"],
    ["@scope/pkg/sub", "external"],
    ["~/alias", "external"],
  ] as const)("%s → %s", (from, kind) => {
    expect(classifyImport(from)).toBe(kind);
  });
});
