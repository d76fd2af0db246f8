// git_status and git_diff on a real repository (acme-shop committed), and outside one.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gitDiff } from "../../../src/main/tools/git-diff.js";
import { gitStatus } from "../../../src/main/tools/git-status.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, writeTree } from "../../helpers/temp-dir.js";
import { git, initRepo, openAcmeRepo, openProject, type GitProject } from "./git-test-repo.js";

const server = useRedisServer();
let opened: GitProject | null = null;
afterEach(async () => {
  await opened?.close();
  opened = null;
});

async function acme(): Promise<GitProject> {
  opened = await openAcmeRepo(server().url);
  return opened;
}

describe("git_status", () => {
  it("reports a clean tree on main with no upstream", async () => {
    const p = await acme();
    const r = await gitStatus.run("s1", {}, p.ctx);
    expect(r.success).toBe(true);
    expect(r.data).toBe("branch main, no upstream\nworking tree clean: nothing to commit");
    expect(r.display.summary).toBe("clean");
  });

  it("groups staged, modified, deleted and untracked files, non-ASCII names unquoted", async () => {
    const p = await acme();
    p.write("packages/core/src/money.ts", `${p.read("packages/core/src/money.ts")}\nexport const extra = 1;\n`);
    fs.rmSync(path.join(p.root, "packages/core/src/logger.ts"));
    p.write("notes/файл.md", "привет\n");
    p.write("apps/api/src/new-route.ts", "export {};\n");
    git(p.root, "add", "apps/api/src/new-route.ts");
    git(p.root, "mv", "packages/core/src/utils/strings.ts", "packages/core/src/utils/text.ts");
    const r = await gitStatus.run("s2", {}, p.ctx);
    expect(r.success).toBe(true);
    const text = r.data!;
    expect(text).toContain("staged (2): A apps/api/src/new-route.ts, R packages/core/src/utils/strings.ts → packages/core/src/utils/text.ts");
    expect(text).toContain("modified, not staged (1): packages/core/src/money.ts");
    expect(text).toContain("deleted, not staged (1): packages/core/src/logger.ts");
    expect(text).toContain("untracked (1): notes/файл.md");
    expect(r.display.summary).toBe("5 changed files on main");
  });

  it("counts commits ahead of and behind the upstream", async () => {
    const p = await acme();
    git(p.root, "branch", "base");
    p.write("a.txt", "a\n");
    git(p.root, "add", "a.txt");
    git(p.root, "commit", "-q", "-m", "ahead one");
    git(p.root, "branch", "--set-upstream-to=base");
    const r = await gitStatus.run("s3", {}, p.ctx);
    expect(r.data).toContain("branch main, tracking base: 1 ahead, 0 behind");
  });

  it("lists paths relative to a project root that is a folder of the repository, and only its own", async () => {
    const repo = makeTempDir("ipuaro-git-sub-");
    writeTree(repo, { "app/src/a.ts": "export const a = 1;\n", "other/b.ts": "export const b = 1;\n" });
    initRepo(repo);
    writeTree(repo, { "app/src/a.ts": "export const a = 2;\n", "other/b.ts": "export const b = 2;\n", "app/new.ts": "x\n" });
    opened = await openProject(path.join(repo, "app"), server().url);
    const r = await gitStatus.run("s4", {}, opened.ctx);
    expect(r.data).toContain("project = folder app/ of the repository");
    expect(r.data).toContain("modified, not staged (1): src/a.ts");
    expect(r.data).toContain("untracked (1): new.ts");
    expect(r.data).not.toContain("b.ts");
    fs.rmSync(repo, { recursive: true, force: true });
  });

  it("says when there are no commits yet", async () => {
    const root = makeTempDir("ipuaro-git-new-");
    writeTree(root, { "a.ts": "export {};\n" });
    initRepo(root, { commit: false });
    opened = await openProject(root, server().url);
    const r = await gitStatus.run("s5", {}, opened.ctx);
    expect(r.data).toContain("branch main (no commits yet)");
    expect(r.data).toContain("untracked (1): a.ts");
  });

  it("never runs the repository's core.fsmonitor program", async () => {
    const p = await acme();
    const marker = path.join(p.root, "..", `fsmonitor-ran-${path.basename(p.root)}`);
    const hook = path.join(p.root, "monitor.sh");
    fs.writeFileSync(hook, `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
    git(p.root, "config", "core.fsmonitor", hook);
    const r = await gitStatus.run("s6", {}, p.ctx);
    expect(r.success).toBe(true);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it("fails with NOT_A_GIT_REPO outside a repository", async () => {
    const root = makeTempDir("ipuaro-nogit-");
    writeTree(root, { "a.ts": "export {};\n" });
    opened = await openProject(root, server().url);
    const r = await gitStatus.run("s7", {}, opened.ctx);
    expect(r.success).toBe(false);
    expect(r.code).toBe("NOT_A_GIT_REPO");
    expect(r.error).toMatch(/not inside a git repository.*git init/);
  });

  it("rejects arguments it does not take", async () => {
    const p = await acme();
    const r = await gitStatus.run("s8", { path: "src" }, p.ctx);
    expect(r.code).toBe("INVALID_ARGS");
  });
});

describe("git_diff", () => {
  it("shows staged and unstaged changes against HEAD with a per-file summary first", async () => {
    const p = await acme();
    p.write("packages/core/src/money.ts", `${p.read("packages/core/src/money.ts")}export const staged = 1;\n`);
    git(p.root, "add", "packages/core/src/money.ts");
    p.write("packages/core/src/money.ts", `${p.read("packages/core/src/money.ts")}export const unstaged = 2;\n`);
    fs.rmSync(path.join(p.root, "packages/core/src/logger.ts"));
    p.write("scratch.ts", "untracked\n");
    const r = await gitDiff.run("d1", {}, p.ctx);
    expect(r.success).toBe(true);
    const text = r.data!;
    const loggerLines = git(p.root, "show", "HEAD:packages/core/src/logger.ts").split("\n").length - 1;
    expect(text.split("\n")[0]).toBe(`2 files changed in the project against HEAD, +2 -${loggerLines}:`);
    expect(text).toContain("  packages/core/src/money.ts +2 -0");
    expect(text).toContain(`  packages/core/src/logger.ts +0 -${loggerLines}`);
    expect(text).toContain("untracked, not in the diff (1): scratch.ts");
    expect(text).toContain("+export const staged = 1;");
    expect(text).toContain("+export const unstaged = 2;");
    expect(text).toContain("deleted file mode");
    expect(r.display.summary).toBe(`2 files, +2 -${loggerLines}`);
  });

  it("lists the largest changes one by one and the rest by folder, so hunks still fit after a summary of many files", async () => {
    const p = await acme();
    for (let i = 0; i < 60; i++) p.write(`packages/gen/src/f${i}.ts`, `export const f${i} = ${i};\n`);
    git(p.root, "add", "-A");
    git(p.root, "commit", "-q", "-m", "many files");
    for (let i = 0; i < 60; i++) p.write(`packages/gen/src/f${i}.ts`, `export const f${i} = ${i + 1};\n`);
    p.write("packages/core/src/money.ts", `${p.read("packages/core/src/money.ts")}${"export const more = 1;\n".repeat(5)}`);
    const text = (await gitDiff.run("d2", {}, p.ctx)).data!;
    const lines = text.split("\n");
    expect(lines[0]).toBe("61 files changed in the project against HEAD, +65 -60:");
    // The largest change first among the 40 listed; the other 21 counted by folder.
    expect(lines[1]).toBe("  packages/core/src/money.ts +5 -0");
    expect(lines.filter((l) => /^ {2}packages\/gen\/src\/f\d+\.ts \+1 -1$/.test(l))).toHaveLength(39);
    expect(text).toContain("  … 21 more files, by folder (narrow with path=<folder>):\n  packages/gen/ 21 files +21 -21");
    expect(text).toContain("+export const more = 1;");
  });

  it("narrows to one path, including a deleted file", async () => {
    const p = await acme();
    p.write("packages/core/src/money.ts", "changed\n");
    fs.rmSync(path.join(p.root, "packages/core/src/logger.ts"));
    const one = await gitDiff.run("d2", { path: "packages/core/src/logger.ts" }, p.ctx);
    expect(one.success).toBe(true);
    expect(one.data).toContain("1 file changed in packages/core/src/logger.ts");
    expect(one.data).not.toContain("money.ts");
  });

  it("says so when there is nothing to diff", async () => {
    const p = await acme();
    const r = await gitDiff.run("d3", { path: "packages" }, p.ctx);
    expect(r.success).toBe(true);
    expect(r.data).toBe("no uncommitted changes to tracked files in packages (compared with HEAD)");
  });

  it("diffs against an empty tree before the first commit", async () => {
    const root = makeTempDir("ipuaro-git-new-");
    writeTree(root, { "a.ts": "export const a = 1;\n" });
    initRepo(root, { commit: false });
    git(root, "add", "a.ts");
    opened = await openProject(root, server().url);
    const r = await gitDiff.run("d4", {}, opened.ctx);
    expect(r.data).toContain("1 file changed in the project against an empty tree (no commits yet), +1 -0");
    expect(r.data).toContain("+export const a = 1;");
  });

  it("does not run an external diff program configured in the repository", async () => {
    const p = await acme();
    const marker = path.join(p.root, "..", `extdiff-ran-${path.basename(p.root)}`);
    const tool = path.join(p.root, "extdiff.sh");
    fs.writeFileSync(tool, `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
    git(p.root, "config", "diff.external", tool);
    p.write("packages/core/src/money.ts", "changed\n");
    const r = await gitDiff.run("d5", {}, p.ctx);
    expect(r.data).toContain("+changed");
    expect(fs.existsSync(marker)).toBe(false);
  });

  it("refuses paths outside the project", async () => {
    const p = await acme();
    for (const bad of ["../outside", "/etc/passwd", "a\0b"]) {
      const r = await gitDiff.run("d6", { path: bad }, p.ctx);
      expect(r.success, bad).toBe(false);
      expect(["PATH_OUTSIDE_ROOT", "PATH_INVALID"]).toContain(r.code);
    }
  });

  it("fails with NOT_A_GIT_REPO outside a repository", async () => {
    const root = makeTempDir("ipuaro-nogit-");
    writeTree(root, { "a.ts": "export {};\n" });
    opened = await openProject(root, server().url);
    const r = await gitDiff.run("d7", {}, opened.ctx);
    expect(r.code).toBe("NOT_A_GIT_REPO");
  });
});
