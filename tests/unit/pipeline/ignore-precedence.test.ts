// IgnoreRules against git itself: for each layout, the files `git ls-files --others --exclude-standard`
// keeps are exactly the ones the walk keeps and the single-path check (the watcher's) does not ignore.
import { execFileSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { IgnoreRules } from "../../../src/pipeline/ignore-rules.js";
import { scanProject } from "../../../src/pipeline/scanner.js";
import { type FileTree, makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

/** Files git lists as untracked, either kept (`ignored` false) or ignored, with no user or system config. */
function gitList(root: string, ignored: boolean): string[] {
  const args = ["-c", "core.excludesFile=/dev/null", "ls-files", "-z", "--others", "--exclude-standard", ...(ignored ? ["--ignored"] : [])];
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
  return execFileSync("git", args, { cwd: root, env, encoding: "utf8" }).split("\0").filter((p) => p.endsWith(".ts")).sort();
}

async function compareWithGit(tree: FileTree): Promise<{ kept: string[] }> {
  const root = makeTempDir();
  dirs.push(root);
  execFileSync("git", ["init", "-q"], { cwd: root });
  writeTree(root, tree);
  const kept = gitList(root, false);
  const ignored = gitList(root, true);
  const files = Object.keys(tree).filter((p) => p.endsWith(".ts"));
  expect([...kept, ...ignored].sort()).toEqual(files.sort()); // git judged every file of the layout
  const walked = await scanProject(root, { rules: new IgnoreRules(root, []), binaryExtensions: new Set() });
  expect(walked.entries.map((e) => e.path).sort()).toEqual(kept);
  const single = new IgnoreRules(root, []);
  expect(files.filter((p) => !single.isIgnored(p, false)).sort()).toEqual(kept);
  return { kept };
}

describe("IgnoreRules follows git's .gitignore precedence", () => {
  it("a deeper .gitignore re-includes what a shallower one ignores (the reported layout)", async () => {
    const { kept } = await compareWithGit({
      ".gitignore": "*.log\n",
      "sub/.gitignore": "*.skip.ts\n!deep/\n",
      "sub/deep/.gitignore": "!x.skip.ts\n",
      "sub/a.skip.ts": "",
      "sub/b.ts": "",
      "sub/deep/x.skip.ts": "",
      "sub/deep/y.skip.ts": "",
    });
    expect(kept).toContain("sub/deep/x.skip.ts");
    expect(kept).not.toContain("sub/deep/y.skip.ts");
  });

  it("within one file the last matching rule wins", async () => {
    await compareWithGit({
      ".gitignore": "*.tmp.ts\n!keep.tmp.ts\nlate.ts\n!late.ts\nlate.ts\n",
      "a.tmp.ts": "",
      "keep.tmp.ts": "",
      "late.ts": "",
      "x/keep.tmp.ts": "",
      "x/b.tmp.ts": "",
    });
  });

  it("a deeper file ignores what a shallower one negated", async () => {
    await compareWithGit({
      ".gitignore": "*.tmp.ts\n!a.tmp.ts\n",
      "sub/.gitignore": "a.tmp.ts\n",
      "a.tmp.ts": "",
      "sub/a.tmp.ts": "",
      "sub/other.ts": "",
    });
  });

  it("nothing under an excluded folder comes back, from the same file or a .gitignore inside it", async () => {
    const { kept } = await compareWithGit({
      ".gitignore": "build/\n!build/keep.ts\ncache\n!cache/keep.ts\n",
      "build/.gitignore": "!*\n",
      "build/keep.ts": "",
      "build/other.ts": "",
      "cache/keep.ts": "",
      "src/cache/keep.ts": "",
      "src/x.ts": "",
    });
    expect(kept).toEqual(["src/x.ts"]);
  });

  it("a folder a shallower file ignores is kept when a deeper one re-includes it, and its files judged one by one", async () => {
    const { kept } = await compareWithGit({
      ".gitignore": "dist/\n*.gen.ts\n",
      "pkg/.gitignore": "!dist/\n",
      "pkg/dist/x.ts": "",
      "pkg/dist/y.gen.ts": "",
      "dist/x.ts": "",
      "other/dist/x.ts": "",
    });
    expect(kept).toEqual(["pkg/dist/x.ts"]);
  });

  it("`**/` patterns and patterns with a slash inside, at the root and nested", async () => {
    await compareWithGit({
      ".gitignore": "**/gen/*.ts\na/**/z.ts\n**/cache/\n",
      "lib/.gitignore": "deep/*.ts\n!deep/keep.ts\n**/tmp\n",
      "gen/a.ts": "",
      "x/gen/a.ts": "",
      "x/gen/sub/a.ts": "",
      "a/z.ts": "",
      "a/b/c/z.ts": "",
      "b/a/z.ts": "",
      "q/cache/a.ts": "",
      "lib/deep/a.ts": "",
      "lib/deep/keep.ts": "",
      "lib/x/deep/a.ts": "",
      "lib/x/tmp/a.ts": "",
      "lib/tmp.ts": "",
    });
  });

  it("anchored `/x` names the .gitignore's own folder only", async () => {
    await compareWithGit({
      ".gitignore": "/top.ts\n/only/\n",
      "sub/.gitignore": "/local.ts\n!/top.ts\n",
      "top.ts": "",
      "sub/top.ts": "",
      "local.ts": "",
      "sub/local.ts": "",
      "sub/x/local.ts": "",
      "only/a.ts": "",
      "sub/only/a.ts": "",
    });
  });

  it("ignorePatterns still ignore what a .gitignore negates", () => {
    const root = makeTempDir();
    dirs.push(root);
    writeTree(root, { ".gitignore": "!vendor/\n", "sub/.gitignore": "!*.min.ts\n", "vendor/a.ts": "", "sub/a.min.ts": "" });
    const rules = new IgnoreRules(root, ["vendor", "*.min.ts"]);
    expect(rules.isIgnored("vendor/a.ts", false)).toBe(true);
    expect(rules.isIgnored("sub/a.min.ts", false)).toBe(true);
  });
});
