import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IgnoreRules } from "../../../src/pipeline/ignore-rules.js";
import { scanProject } from "../../../src/pipeline/scanner.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";

let root: string;
beforeEach(() => {
  root = makeTempDir();
  writeTree(root, {
    ".gitignore": "dist/\n*.log\n/secret.ts\n",
    "src/a.ts": "export const a = 1;",
    "src/b.tsx": "export const B = () => null;",
    "src/c.mjs": "export default 1;",
    "src/readme.md": "# not indexed",
    "src/style.css": "a{}",
    "src/data.json": "{}",
    "src/conf.yml": "a: 1",
    "src/app.log": "log",
    "secret.ts": "x",
    "nested/secret.ts": "kept: only the root one is anchored",
    "dist/out.js": "ignored",
    "node_modules/x/index.js": "ignored by ignorePatterns",
    "pkg/.gitignore": "cache/\n!keep.log\n",
    "pkg/cache/c.ts": "ignored by the nested .gitignore",
    "pkg/keep.log": "negated: but .log files are not indexable anyway",
    "pkg/src/x.ts": "export {}",
    "assets/logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]),
    "vendor/lib.min.js": "ignored by *.min.js",
  });
});
afterEach(() => removeDir(root));

function scan(patterns = ["node_modules", "*.min.js"]) {
  return scanProject(root, { rules: new IgnoreRules(root, patterns), binaryExtensions: new Set([".png"]) });
}

describe("scanProject", () => {
  it("honours root and nested .gitignore files and ignorePatterns", async () => {
    const result = await scan();
    const paths = result.entries.map((e) => e.path).sort();
    expect(paths).toEqual(["assets/logo.png", "nested/secret.ts", "pkg/src/x.ts", "src/a.ts", "src/b.tsx", "src/c.mjs", "src/conf.yml", "src/data.json"]);
    expect(result.unsupported).toBeGreaterThanOrEqual(3); // .md, .css, .gitignore files
    expect(result.ignored).toBeGreaterThanOrEqual(5);
  });

  it("lists a folder's files before its subfolders' files, depth first by name", async () => {
    const other = makeTempDir();
    try {
      const tree: Record<string, string> = { "src/z.ts": "", "src/m.ts": "", "src/a/b.ts": "", "src/a/c/d.ts": "", "lib/x.ts": "" };
      for (let i = 0; i < 40; i++) tree[`wide/d${String(i).padStart(2, "0")}/f.ts`] = "";
      writeTree(other, tree);
      const rules = new IgnoreRules(other, []);
      const result = await scanProject(other, { rules, binaryExtensions: new Set() });
      const wide = Array.from({ length: 40 }, (_, i) => `wide/d${String(i).padStart(2, "0")}/f.ts`);
      expect(result.entries.map((e) => e.path)).toEqual(["lib/x.ts", "src/m.ts", "src/z.ts", "src/a/b.ts", "src/a/c/d.ts", ...wide]);
      // One folder only, as the watcher asks when a folder appears.
      expect((await scanProject(other, { rules, binaryExtensions: new Set() }, "src/a")).entries.map((e) => e.path)).toEqual(["src/a/b.ts", "src/a/c/d.ts"]);
    } finally {
      removeDir(other);
    }
  });

  it("records symlinks without following them, so a loop is harmless", async () => {
    fs.symlinkSync(".", path.join(root, "src", "loop"));
    fs.symlinkSync("../src/a.ts", path.join(root, "pkg", "link.ts"));
    const result = await scan();
    const links = result.entries.filter((e) => e.kind === "symlink").map((e) => e.path).sort();
    expect(links).toEqual(["pkg/link.ts", "src/loop"]);
    expect(result.entries.some((e) => e.path.startsWith("src/loop/"))).toBe(false);
  });

  it("reading folders off the thread (the watcher's walks) finds the same, and an unreadable folder is reported", async () => {
    fs.symlinkSync("../src/a.ts", path.join(root, "pkg", "link.ts"));
    const opts = { rules: new IgnoreRules(root, ["node_modules", "*.min.js"]), binaryExtensions: new Set([".png"]) };
    const onThread = await scanProject(root, opts);
    const offThread = await scanProject(root, { ...opts, rules: new IgnoreRules(root, ["node_modules", "*.min.js"]), listOffThread: true });
    expect(offThread).toEqual(onThread);
    expect(offThread.entries.length).toBeGreaterThan(5);
    // A folder gone before it is read (the watcher walks folders that come and go).
    const gone = await scanProject(root, { ...opts, listOffThread: true }, "no/such/folder");
    expect(gone.entries).toEqual([]);
    expect(gone.unreadable).toEqual(["no/such/folder"]);
  });

  it("a folder listed again with a .gitignore it did not have (or without the one it had) is judged by what it has now", () => {
    const rules = new IgnoreRules(root, ["node_modules"]);
    rules.noteListing("g1", false);
    expect(rules.isIgnored("g1/secret.ts", false)).toBe(false);
    writeTree(root, { "g1/.gitignore": "secret.ts\n", "g1/secret.ts": "token" });
    rules.noteListing("g1", true);
    expect(rules.isIgnored("g1/secret.ts", false)).toBe(true);
    expect(rules.isIgnored("g1/other.ts", false)).toBe(false);
    fs.rmSync(path.join(root, "g1/.gitignore"));
    rules.noteListing("g1", false);
    expect(rules.isIgnored("g1/secret.ts", false)).toBe(false);
  });

  it("ignorePatterns can take back a default with a negation", () => {
    const rules = new IgnoreRules(root, ["node_modules", "build", "!build"]);
    expect(rules.isIgnored("node_modules/x/index.js", false)).toBe(true);
    expect(rules.isIgnored("build", true)).toBe(false);
    expect(rules.isIgnored("build/out.js", false)).toBe(false);
  });

  it("gives the watcher the same answer for a single path", () => {
    const rules = new IgnoreRules(root, ["node_modules"]);
    expect(rules.isIgnored("pkg/cache/c.ts", false)).toBe(true);
    expect(rules.isIgnored("dist/out.js", false)).toBe(true);
    expect(rules.isIgnored("node_modules/x/index.js", false)).toBe(true);
    expect(rules.isIgnored("src/a.ts", false)).toBe(false);
    expect(rules.isIgnored(".git/HEAD", false)).toBe(true);
  });

  it("keeps exactly the files the full-path check keeps, with name-only and anchored rules at every level", async () => {
    // Name-only rule sets are matched by an entry's name alone while walking (ignore-rules.ts); a rule
    // set with a slash anywhere goes by the whole path. Both must agree with the watcher's check.
    const other = makeTempDir();
    try {
      const tree: Record<string, string> = {
        ".gitignore": "tmp/\n*.gen.ts\n!keep.gen.ts\nspaced.ts   \n# a comment\n",
        "a/.gitignore": "/local.ts\nb/deep/*.ts\n",
        "a/b/.gitignore": "skip*\n",
        "c/.gitignore": "!*.gen.ts\nlogs/\n",
      };
      for (const dir of ["", "a/", "a/b/", "a/b/deep/", "c/", "c/logs/", "tmp/", "a/tmp/", "gen/x/", "gen/"])
        for (const name of ["x.ts", "local.ts", "one.gen.ts", "keep.gen.ts", "spaced.ts", "skip-me.ts", "deep.ts"]) tree[`${dir}${name}`] = "export {};";
      writeTree(other, tree);
      const patterns = ["node_modules", "gen/**/*.ts"];
      const walked = await scanProject(other, { rules: new IgnoreRules(other, patterns), binaryExtensions: new Set() });
      const oracle = new IgnoreRules(other, patterns);
      const expected = Object.keys(tree).filter((p) => p.endsWith(".ts") && !oracle.isIgnored(p, false));
      expect(walked.entries.map((e) => e.path).sort()).toEqual(expected.sort());
      // Spot checks that the oracle itself reads the rules as git does.
      expect(expected).toContain("keep.gen.ts");
      expect(expected).not.toContain("spaced.ts");
      expect(expected).not.toContain("a/local.ts");
      expect(expected).toContain("a/b/local.ts");
      expect(expected).not.toContain("a/b/deep/x.ts");
      expect(expected).not.toContain("a/b/skip-me.ts");
      expect(expected).toContain("a/skip-me.ts");
      expect(expected).not.toContain("gen/x/x.ts");
      expect(expected.some((p) => p.includes("tmp/") || p.startsWith("c/logs/"))).toBe(false);
    } finally {
      removeDir(other);
    }
  });
});
