import { describe, expect, it } from "vitest";
import { escapeForDisplay, findHiddenCharacter, isForbiddenWrite, isTaintingWrite } from "../../src/main/security/index.js";

describe("isForbiddenWrite", () => {
  it.each([
    [".git/config", true],
    [".git", true],
    ["./.git/hooks/pre-commit", true],
    [".GIT/HEAD", true],
    [".git. /config", true],
    ["packages/sub/.git/config", true],
    [".ipuaro.json", true],
    [".ipuaro/state.json", true],
    [".gitignore", false],
    [".github/workflows/ci.yml", false],
    ["src/.ipuaro.json", false],
    ["src/git/config.ts", false],
  ])("%j → %s", (rel, expected) => {
    expect(isForbiddenWrite(rel)).toBe(expected);
  });
});

describe("isTaintingWrite", () => {
  it.each([
    ["package.json", true],
    ["packages/app/package.json", true],
    ["vitest.config.ts", true],
    ["vite.config.mts", true],
    ["jest.config.cjs", true],
    ["eslint.config.js", true],
    ["vitest.config.e2e.ts", true],
    [".eslintrc", true],
    [".eslintrc.json", true],
    [".prettierrc", true],
    [".npmrc", true],
    [".yarnrc.yml", true],
    [".husky/pre-commit", true],
    ["node_modules/.bin/vitest", true],
    ["Makefile", true],
    ["Package.JSON", true],
    ["lefthook.yml", true],
    [".lefthook-local.yaml", true],
    [".pre-commit-config.yaml", true],
    [".simple-git-hooks.json", true],
    ["docs/lefthook-notes.md", false],
    ["tsconfig.json", true],
    ["packages/core/tsconfig.build.json", true],
    ["src/index.ts", false],
    ["README.md", false],
    ["src/config.ts", false],
    ["package-lock.json", false],
  ])("%j → %s", (rel, expected) => {
    expect(isTaintingWrite(rel)).toBe(expected);
  });
});

describe("hidden characters", () => {
  it("escapes control and invisible characters for display, keeping tab and newline", () => {
    expect(escapeForDisplay("ls\x1b[2J\u202e\u200b\t\n\u{e0041}\ud800")).toBe("ls\\x1b[2J\\u202e\\u200b\t\n\\u{e0041}\\ud800");
    expect(escapeForDisplay("npm test привет 😀")).toBe("npm test привет 😀");
  });

  it("finds the first hidden character and its position", () => {
    expect(findHiddenCharacter("npm test")).toBeNull();
    expect(findHiddenCharacter("😀 a\u2066b")).toEqual({ index: 4, escaped: "\\u2066" });
  });
});
