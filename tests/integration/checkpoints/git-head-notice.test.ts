// What a rewind suggests when git's HEAD moved since the checkpoint, in a real repository. On another
// branch, `git reset --soft <recorded>` would move that branch onto the first one's commit (its own
// commits gone from it): the advice must be to switch back instead.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { gitHeadNotice, readGitHead } from "../../../src/main/checkpoints/git-head.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";

let root: string;
const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args], { cwd: root, encoding: "utf8" }).trim();

beforeEach(() => {
  root = makeTempDir("ipuaro-git-notice-");
  git("init", "-q");
  fs.writeFileSync(path.join(root, "a.ts"), "one\n");
  git("add", "-A");
  git("commit", "-qm", "base");
});
afterEach(() => removeDir(root));

describe("git HEAD notice of a rewind", () => {
  it("same branch, new commits: log and a soft reset to the recorded commit", async () => {
    const recorded = (await readGitHead(root))!;
    fs.writeFileSync(path.join(root, "a.ts"), "two\n");
    git("commit", "-qam", "more");
    const notice = gitHeadNotice(recorded, await readGitHead(root));
    const rec = recorded.head.slice(0, 12);
    expect(notice!.commands).toEqual([`git log --oneline ${rec}..HEAD`, `git reset --soft ${rec}`]);
  });

  it("another branch checked out: switch back, never a reset that would move the other branch", async () => {
    const recorded = (await readGitHead(root))!;
    expect(recorded.branch).toBe("main");
    git("checkout", "-qb", "feature");
    fs.writeFileSync(path.join(root, "a.ts"), "feature work\n");
    git("commit", "-qam", "feature work");
    const current = (await readGitHead(root))!;
    const notice = gitHeadNotice(recorded, current)!;
    expect(notice.current).toBe(current.head);
    expect(notice.commands).toEqual(["git switch main"]);
    expect(notice.commands.join("\n")).not.toContain("reset");
  });

  it("a branch name with shell characters is quoted; a detached checkpoint is switched back to detached", async () => {
    git("checkout", "-qb", "fix$HOME'x");
    const recorded = (await readGitHead(root))!;
    git("checkout", "-q", "main");
    fs.writeFileSync(path.join(root, "a.ts"), "main moved\n");
    git("commit", "-qam", "main moved");
    expect(gitHeadNotice(recorded, await readGitHead(root))!.commands).toEqual([`git switch 'fix$HOME'\\''x'`]);

    git("checkout", "-q", "--detach", "HEAD~1");
    const detached = (await readGitHead(root))!;
    expect(detached.branch).toBeUndefined();
    git("checkout", "-q", "main");
    expect(gitHeadNotice(detached, await readGitHead(root))!.commands).toEqual([`git switch --detach ${detached.head.slice(0, 12)}`]);
  });
});
