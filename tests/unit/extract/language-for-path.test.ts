import { describe, expect, it } from "vitest";
import { languageForPath } from "../../../src/workers/extract/index.js";

describe("languageForPath", () => {
  it.each([
    ["src/a.ts", "typescript"],
    ["src/a.mts", "typescript"],
    ["src/a.cts", "typescript"],
    ["types/index.d.ts", "typescript"],
    ["src/App.tsx", "tsx"],
    ["src/a.js", "javascript"],
    ["src/App.jsx", "javascript"],
    ["src/a.mjs", "javascript"],
    ["src/a.cjs", "javascript"],
    ["package.json", "json"],
    [".eslintrc.json", "json"],
    ["ci.yaml", "yaml"],
    [".github/workflows/ci.yml", "yaml"],
    ["SRC/UPPER.TS", "typescript"],
  ])("%s → %s", (path, language) => {
    expect(languageForPath(path)).toBe(language);
  });

  it.each(["README.md", "Makefile", ".prettierrc", "src/styles.css", "dir.ts/file", "archive.tar.gz"])("%s → null", (path) => {
    expect(languageForPath(path)).toBeNull();
  });
});
