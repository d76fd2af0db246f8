// The git tools in the states a real edit → test → commit loop runs into: a merge with conflicts, a
// pre-commit hook that refuses, a detached HEAD, and one huge change among small ones. Real git repos.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gitCommit } from "../../../src/main/tools/git-commit.js";
import { gitDiff } from "../../../src/main/tools/git-diff.js";
import { gitStatus } from "../../../src/main/tools/git-status.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, writeTree } from "../../helpers/temp-dir.js";
import { git, initRepo, openProject, type GitProject } from "./git-test-repo.js";

const server = useRedisServer();
let opened: GitProject | null = null;
afterEach(async () => {
  await opened?.close();
  opened = null;
});

async function repo(tree: Record<string, string>): Promise<GitProject> {
  const root = makeTempDir("ipuaro-git-states-");
  writeTree(root, tree);
  initRepo(root);
  opened = await openProject(root, server().url);
  return opened;
}

/** main and feature both change a.txt; merging feature into main stops on the conflict. */
function conflictedMerge(root: string): void {
  git(root, "switch", "--quiet", "-c", "feature");
  fs.writeFileSync(path.join(root, "a.txt"), "feature\n");
  git(root, "commit", "--quiet", "-am", "feature");
  git(root, "switch", "--quiet", "main");
  fs.writeFileSync(path.join(root, "a.txt"), "main\n");
  fs.writeFileSync(path.join(root, "b.txt"), "merged cleanly\n");
  git(root, "add", "b.txt");
  git(root, "commit", "--quiet", "-am", "main");
  git(root, "switch", "--quiet", "feature");
  fs.writeFileSync(path.join(root, "b.txt"), "merged cleanly\n");
  git(root, "add", "b.txt");
  git(root, "commit", "--quiet", "-m", "same b");
  git(root, "switch", "--quiet", "main");
  try {
    git(root, "merge", "--no-edit", "feature");
  } catch {
    // The conflict is the point.
  }
}

describe("git tools during a merge", () => {
  it("git_status says a merge is in progress", async () => {
    const p = await repo({ "a.txt": "base\n" });
    conflictedMerge(p.root);
    const r = await gitStatus.run("m1", {}, p.ctx);
    expect(r.data).toContain("a merge is in progress");
    expect(r.data).toContain("conflicted (1): a.txt");
  });

  it("refuses to stage a conflicted file that still has its markers, and keeps the conflict", async () => {
    const p = await repo({ "a.txt": "base\n" });
    conflictedMerge(p.root);
    const r = await gitCommit.run("m2", { message: "merge", files: ["a.txt"] }, p.ctx);
    expect(r.code).toBe("INVALID_ARGS");
    expect(r.error).toContain("a.txt still has conflict markers");
    expect(p.ctx.ports.commandProposals).toHaveLength(0);
    expect(git(p.root, "status", "--porcelain")).toContain("UU a.txt");
  });

  it("concludes the merge when the resolved files are committed by name", async () => {
    const p = await repo({ "a.txt": "base\n" });
    conflictedMerge(p.root);
    p.write("a.txt", "resolved\n");
    const r = await gitCommit.run("m3", { message: "Merge feature", files: ["a.txt"] }, p.ctx);
    expect(r.success, r.error).toBe(true);
    expect(p.ctx.ports.commandProposals[0]!.reason).toContain("this concludes the merge in progress");
    // Two parents: a merge commit, not a commit that dropped the merge.
    expect(git(p.root, "log", "-1", "--format=%P").trim().split(" ")).toHaveLength(2);
    expect(git(p.root, "show", "HEAD:a.txt")).toBe("resolved\n");
    expect(git(p.root, "status", "--porcelain")).toBe("");
  });
});

describe("git_commit in other states", () => {
  it("says the named files stay staged when a pre-commit hook refuses the commit", async () => {
    const p = await repo({ "a.txt": "base\n" });
    fs.writeFileSync(path.join(p.root, ".git", "hooks", "pre-commit"), "#!/bin/sh\necho 'lint: 2 problems' >&2\nexit 1\n", { mode: 0o755 });
    p.write("a.txt", "changed\n");
    const r = await gitCommit.run("h1", { message: "blocked", files: ["a.txt"] }, p.ctx);
    expect(r.code).toBe("COMMAND_FAILED");
    expect(r.error).toContain("lint: 2 problems");
    expect(r.error).toContain("nothing was committed; a.txt is now staged");
    expect(git(p.root, "diff", "--cached", "--name-only").trim()).toBe("a.txt");
  });

  it("warns that a commit on a detached HEAD is on no branch", async () => {
    const p = await repo({ "a.txt": "base\n" });
    git(p.root, "switch", "--quiet", "--detach", "HEAD");
    p.write("a.txt", "changed\n");
    const r = await gitCommit.run("d1", { message: "on detached", files: ["a.txt"] }, p.ctx);
    expect(r.success, r.error).toBe(true);
    expect(p.ctx.ports.commandProposals[0]!.reason).toContain("to a detached HEAD (on no branch)");
    expect(r.data).toContain("committed");
    expect(r.data).toContain("note: HEAD is detached, so this commit is on no branch");
  });
});

describe("git_diff with one huge change", () => {
  it("still shows the diffs of the files after it", async () => {
    const lines = (prefix: string) => Array.from({ length: 20_000 }, (_, i) => `${prefix} ${i}`).join("\n") + "\n";
    const p = await repo({ "a-huge.txt": lines("old"), "z-small.txt": "before\n" });
    p.write("a-huge.txt", lines("new"));
    p.write("z-small.txt", "after\n");
    const r = await gitDiff.run("g1", {}, p.ctx);
    expect(r.success, r.error).toBe(true);
    expect(r.data!.length).toBeLessThan(24_000);
    expect(r.data).toContain("more lines of the diff of a-huge.txt; git_diff with path=a-huge.txt shows more");
    expect(r.data).toContain("diff --git a/z-small.txt b/z-small.txt");
    expect(r.data).toContain("-before\n+after");
  });
});
