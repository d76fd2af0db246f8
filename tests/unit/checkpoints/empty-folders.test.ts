// The folder clean-up after a rewind's deletions: only folders on the deleted file's path up to its
// first new one, only when empty, never through a symlink, never the project root.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { newFoldersOf, removeEmptyFolders } from "../../../src/main/checkpoints/empty-folders.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";

describe("newFoldersOf", () => {
  it.each([
    ["a/b/c/x.ts", "a/b", ["a/b/c", "a/b"]],
    ["a/b/x.ts", "a/b", ["a/b"]],
    ["a/x.ts", undefined, []],
    // Not an ancestor, the root, or a way out of the project: nothing.
    ["a/b/x.ts", "a/bb", []],
    ["a/b/x.ts", ".", []],
    ["a/b/x.ts", "", []],
    ["a/../../x.ts", "a/..", []],
    ["x.ts", "x.ts", []],
  ] as const)("%s up to %s → %j", (rel, newDir, want) => {
    expect(newFoldersOf(rel, newDir)).toEqual(want);
  });
});

describe("removeEmptyFolders", () => {
  let root: string;
  let outside: string;
  beforeEach(() => {
    root = fs.realpathSync(makeTempDir("ipuaro-folders-"));
    outside = makeTempDir("ipuaro-outside-");
  });
  afterEach(() => {
    removeDir(root);
    removeDir(outside);
  });

  it("removes the empty ones deepest first and keeps a folder with anything in it", async () => {
    fs.mkdirSync(path.join(root, "a/b/c"), { recursive: true });
    fs.mkdirSync(path.join(root, "k/l"), { recursive: true });
    fs.writeFileSync(path.join(root, "k/.DS_Store"), "");
    expect(await removeEmptyFolders(root, ["a", "a/b/c", "a/b", "k/l", "k"])).toEqual(["a", "a/b", "a/b/c", "k/l"]);
    expect(fs.readdirSync(root).sort()).toEqual(["k"]);
  });

  it("never removes through a symlink, nor the project root", async () => {
    fs.symlinkSync(outside, path.join(root, "link"));
    fs.mkdirSync(path.join(outside, "inner"));
    expect(await removeEmptyFolders(root, ["link/inner", "link", "", "."])).toEqual([]);
    expect(fs.existsSync(path.join(outside, "inner"))).toBe(true);
    expect(fs.lstatSync(path.join(root, "link")).isSymbolicLink()).toBe(true);
    expect(fs.existsSync(root)).toBe(true);
  });
});
