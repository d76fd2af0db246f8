import { describe, expect, it } from "vitest";
import { MAX_KEYS } from "../../../src/workers/extract/index.js";
import { code, extract } from "./extract-helpers.js";

describe("JSON", () => {
  it("lists the top-level keys of a valid document", () => {
    const { ast, complexity, facts } = extract(`{\n  "name": "x",\n  "scripts": { "build": "tsc" },\n  "files": ["a"]\n}\n`, "json");
    expect(ast).toEqual({ imports: [], exports: [], functions: [], classes: [], types: [], keys: ["name", "scripts", "files"], parseError: false });
    expect(complexity).toMatchObject({ loc: 5, nesting: 2, imports: 0 });
    expect(facts).toEqual({ imports: [], exports: [], symbols: [], calls: [] });
  });

  it("accepts JSONC comments and trailing commas without a parse error", () => {
    const { ast, complexity } = extract(
      code`
        // compiler options
        {
          /* block */ "compilerOptions": { "strict": true, },
          "include": ["src"],
        }
      `,
      "json",
    );
    expect(ast.keys).toEqual(["compilerOptions", "include"]);
    expect(ast.parseError).toBe(false);
    expect(complexity.loc).toBe(4);
  });

  it("flags broken JSON but keeps the keys it could read", () => {
    const { ast } = extract(`{ "a": 1, "b": [1, 2 "c": }`, "json");
    expect(ast.parseError).toBe(true);
    expect(ast.keys).toContain("a");
  });

  it("strips a byte-order mark, and has no keys for arrays and scalars", () => {
    expect(extract(`\uFEFF{"a": 1}`, "json").ast).toMatchObject({ keys: ["a"], parseError: false });
    expect(extract(`[{"a": 1}]`, "json").ast.keys).toEqual([]);
    expect(extract(`42`, "json").ast.keys).toEqual([]);
    expect(extract(``, "json").ast.keys).toEqual([]);
  });

  it("caps the key list of huge objects", () => {
    const big = JSON.stringify(Object.fromEntries(Array.from({ length: MAX_KEYS + 50 }, (_, i) => [`k${i}`, i])));
    expect(extract(big, "json").ast.keys).toHaveLength(MAX_KEYS);
  });
});

describe("YAML", () => {
  it("lists the top-level keys of the first document", () => {
    const { ast, complexity } = extract(
      code`
        # CI
        name: ci
        "quoted key": 1
        'single': 2
        jobs:
          test:
            steps:
              - run: npm test
        ---
        second: doc
      `,
      "yaml",
    );
    expect(ast.keys).toEqual(["name", "quoted key", "single", "jobs"]);
    expect(ast.parseError).toBe(false);
    // The `---` marker is a line of the file too; the comment is not.
    expect(complexity).toMatchObject({ loc: 9, nesting: 3, imports: 0 });
  });

  it("reads a flow mapping and a mapping with an anchor", () => {
    expect(extract(`{a: 1, b: 2}`, "yaml").ast.keys).toEqual(["a", "b"]);
    expect(extract(`base: &base\n  x: 1\nderived:\n  <<: *base\n`, "yaml").ast.keys).toEqual(["base", "derived"]);
  });

  it("flags broken YAML", () => {
    expect(extract(`key: [unclosed\nother: "x`, "yaml").ast.parseError).toBe(true);
  });

  it("has no keys for a sequence or an empty file", () => {
    expect(extract(`- a\n- b\n`, "yaml").ast.keys).toEqual([]);
    expect(extract(``, "yaml").ast).toMatchObject({ keys: [], parseError: false });
  });
});
