// project.scope: a folder inside a git repository means the repository ("repository", the default), or
// itself ("directory").
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { repositoryRoot, resolveProjectRoot } from "../../../src/main/cli/project-root.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";

let dir: string;
afterEach(() => removeDir(dir));
const env = () => ({ HOME: dir, XDG_CONFIG_HOME: path.join(dir, "xdg") });

describe("the project root", () => {
  it("is the repository for a folder inside one, by default", () => {
    dir = fs.realpathSync(makeTempDir());
    writeTree(dir, { "repo/.git/HEAD": "ref: refs/heads/main\n", "repo/packages/core/src/a.ts": "export {};\n" });
    const repo = path.join(dir, "repo");
    expect(repositoryRoot(path.join(repo, "packages/core"))).toBe(repo);
    expect(resolveProjectRoot(path.join(repo, "packages/core"), env())).toBe(repo);
    expect(resolveProjectRoot(repo, env())).toBe(repo);
  });

  it("is the folder itself with scope directory (in its own .ipuaro.json or the repository's), or outside any repository", () => {
    dir = fs.realpathSync(makeTempDir());
    writeTree(dir, {
      "repo/.git/HEAD": "ref: refs/heads/main\n",
      "repo/packages/core/.ipuaro.json": JSON.stringify({ project: { scope: "directory" } }),
      "repo/packages/ui/src/b.ts": "export {};\n",
      "plain/src/c.ts": "export {};\n",
    });
    const repo = path.join(dir, "repo");
    expect(resolveProjectRoot(path.join(repo, "packages/core"), env())).toBe(path.join(repo, "packages/core"));
    expect(resolveProjectRoot(path.join(repo, "packages/ui"), env())).toBe(repo);
    fs.writeFileSync(path.join(repo, ".ipuaro.json"), JSON.stringify({ project: { scope: "directory" } }));
    expect(resolveProjectRoot(path.join(repo, "packages/ui"), env())).toBe(path.join(repo, "packages/ui"));
    expect(resolveProjectRoot(path.join(dir, "plain/src"), env())).toBe(path.join(dir, "plain/src"));
  });

  it("is the worktree or submodule a .git file marks", () => {
    dir = fs.realpathSync(makeTempDir());
    writeTree(dir, { "main/.git/HEAD": "x\n", "main/sub/.git": "gitdir: ../.git/modules/sub\n", "main/sub/lib/d.ts": "export {};\n" });
    expect(resolveProjectRoot(path.join(dir, "main/sub/lib"), env())).toBe(path.join(dir, "main/sub"));
  });
});
