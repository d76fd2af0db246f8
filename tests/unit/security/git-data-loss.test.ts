// git commands that lose uncommitted or committed work are denied like `git reset --hard` (or asked
// about when the loss depends on the ref); the everyday forms next to them stay allowed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Verdict } from "../../../src/main/security/index.js";
import { makePolicyFixture, type PolicyFixture } from "./policy-fixture.js";

let fixture: PolicyFixture;
beforeAll(() => {
  fixture = makePolicyFixture();
});
afterAll(() => fixture.cleanup());

type Row = [command: string, verdict: Verdict, reasonIncludes?: string];

const LOSING: Row[] = [
  ["git checkout -- .", "deny", "overwrites uncommitted changes to `.`"],
  ["git checkout .", "deny", "overwrites uncommitted changes to `.`"],
  ["git checkout -f", "deny", "throws away uncommitted changes"],
  ["git checkout --force main", "deny", "throws away uncommitted changes"],
  ["git checkout -qf main", "deny", "throws away uncommitted changes"],
  ["git checkout src/a.ts", "deny", "`src/a.ts`"],
  ["git checkout HEAD~1 src/a.ts", "deny", "`src/a.ts`"],
  ["git checkout main -- src/a.ts", "deny", "`src/a.ts`"],
  ["git checkout --theirs missing.ts", "deny", "`missing.ts`"],
  ["git checkout 'src/*.ts'", "deny", "overwrites uncommitted changes"],
  ["git -C . checkout .", "deny", "overwrites uncommitted changes"],
  ["bash -c 'git checkout -- .'", "deny", "overwrites uncommitted changes"],
  ["git switch --discard-changes main", "deny", "throws away uncommitted changes"],
  ["git switch -f main", "deny", "throws away uncommitted changes"],
  ["git restore .", "deny", "in the working tree"],
  ["git restore src/a.ts", "deny", "`src/a.ts` in the working tree"],
  ["git restore --source=HEAD~2 src/a.ts", "deny", "in the working tree"],
  ["git restore --staged --worktree src/a.ts", "deny", "in the working tree"],
  ["git restore -SW src/a.ts", "deny", "in the working tree"],
  ["git branch -D topic", "deny", "deletes a branch even when its commits are merged nowhere else"],
  ["git branch -d -f topic", "deny", "deletes a branch"],
  ["git branch --delete --force topic", "deny", "deletes a branch"],
  ["git stash clear", "deny", "deletes every stash"],
  ["git stash drop", "deny", "deletes a stash"],
  ["git stash drop stash@{1}", "deny", "deletes a stash"],
  ["git update-ref -d HEAD", "deny", "deletes a ref"],
  ["git clean -fd", "deny", "blacklist entry `git clean -fd`"],
  ["git clean -f", "deny", "deletes untracked files"],
  ["git clean --force -x", "deny", "deletes untracked files"],
  ["git rm -f src/a.ts", "deny", "uncommitted changes"],
  ["git reset --hard", "deny", "blacklist entry `git reset --hard`"],
  ["git push --force", "deny", "blacklist entry `git push --force`"],
  ["git push -f", "deny", "blacklist entry `git push --force`"],
  ["git push --force-with-lease", "deny", "blacklist entry `git push --force`"],
  ["git checkout -B topic", "ask", "resets an existing branch"],
  ["git switch -C topic", "ask", "resets an existing branch"],
  ["git branch -M old new", "ask", "overwrites an existing branch"],
  ["git branch -f topic HEAD~3", "ask", "moves an existing branch"],
  ["git update-ref refs/heads/topic HEAD~3", "ask", "moves a ref directly"],
  ["git push origin --delete topic", "ask", "deletes branches or tags on the remote"],
  ["git push origin :topic", "ask", "deletes branches or tags on the remote"],
  ["git push --prune origin", "ask", "--prune"],
  ["git reflog expire --expire=now --all", "ask", "drops reflog entries"],
  ["git tag -d v1.0.0", "ask", "deletes a tag"],
  ["git tag --delete v1.0.0", "ask", "deletes a tag"],
  ["git tag -fa v1.0.0 -m release", "ask", "moves an existing tag"],
  ["git tag --force v1.0.0 HEAD~1", "ask", "moves an existing tag"],
  // Worktree folders: git takes the last part of a path as the worktree's name, wherever it lies.
  ["git worktree remove --force NAME", "ask", "deletes a worktree's folder"],
  ["git worktree remove NAME", "ask", "deletes a worktree's folder"],
  ["git worktree move NAME ../elsewhere", "ask", "moves a worktree's folder"],
  ["git worktree prune", "ask", "deletes the records of worktrees"],
  // Moving the branch back further than the last commit, or to another commit.
  ["git reset HEAD~3", "ask", "moves the branch to `HEAD~3`"],
  ["git reset --soft HEAD~10", "ask", "moves the branch to `HEAD~10`"],
  ["git reset --mixed main~2", "ask", "moves the branch"],
  ["git reset origin/main", "ask", "moves the branch"],
  ["git reset HEAD~2 --", "ask", "moves the branch"],
  // A forced fetch into a local branch moves it like `git branch -f`.
  ["git fetch . +HEAD~1:feature-x", "ask", "moves a local branch or tag"],
  ["git fetch --force origin main:main", "ask", "moves a local branch or tag"],
  ["git pull . +HEAD~1:feature-x", "ask", "moves a local branch or tag"],
  // Any expiry other than gc's default drops what the reflog could still bring back.
  ["git gc --prune=now", "ask", "deletes unreachable commits"],
  ["git gc --prune=1.second.ago", "ask", "deletes unreachable commits"],
  ["git gc --prune 1.second.ago", "ask", "deletes unreachable commits"],
  ["git gc --pru=1.day.ago", "ask", "deletes unreachable commits"],
  // Submodules' local changes.
  ["git submodule deinit -f sub", "ask", "removes submodules' working trees"],
  ["git submodule deinit --all", "ask", "removes submodules' working trees"],
  ["git submodule update --force", "ask", "throwing away their local changes"],
  ["git submodule update -f --init", "ask", "throwing away their local changes"],
];

const NEIGHBOURS: Row[] = [
  ["git checkout -b x", "allow"],
  ["git checkout -b x origin/x", "allow"],
  ["git checkout main", "allow"],
  ["git checkout -", "allow"],
  ["git checkout HEAD~1", "allow"],
  ["git switch main", "allow"],
  ["git switch -c topic", "allow"],
  ["git restore --staged a.ts", "allow"],
  ["git restore -S src/a.ts", "allow"],
  ["git branch topic", "allow"],
  ["git branch -d topic", "allow"],
  ["git branch -m old new", "allow"],
  ["git branch --list", "allow"],
  ["git stash", "allow"],
  ["git stash list", "allow"],
  ["git stash pop", "allow"],
  ["git clean -n", "allow"],
  ["git clean -fn", "allow"],
  ["git rm --cached src/a.ts", "allow"],
  ["git rm src/a.ts", "allow"],
  // Not work lost, but commits sent out of the machine: asked.
  ["git push", "ask", "`git push` sends commits out of this machine"],
  ["git push origin main", "ask", "`git push` sends commits out of this machine"],
  ["git push -u origin topic", "ask", "`git push` sends commits out of this machine"],
  ["git reset --soft HEAD~1", "allow"],
  ["git reflog", "allow"],
  ["git tag v1.1.0", "allow"],
  ["git tag -a v1.1.0 -m release", "allow"],
  ["git tag -l", "allow"],
  ["git tag -n5", "allow"],
  ["git worktree add wt", "allow"],
  ["git worktree list", "allow"],
  // Undoing the last commit (`git reset --soft HEAD~1` above) keeps its changes; unstaging moves nothing.
  ["git reset HEAD^", "allow"],
  ["git reset", "allow"],
  ["git reset HEAD", "allow"],
  ["git reset -- src/a.ts", "allow"],
  ["git reset HEAD src/a.ts", "allow"],
  ["git reset src/a.ts", "allow"],
  ["git fetch origin", "allow"],
  ["git fetch origin main:main", "allow"],
  ["git fetch origin +refs/heads/main:refs/remotes/origin/main", "allow"],
  ["git gc", "allow"],
  ["git gc --prune", "allow"],
  ["git gc --no-prune", "allow"],
  ["git submodule deinit sub", "allow"],
  ["git submodule update --init --recursive", "allow"],
];

describe("git commands that lose work", () => {
  it.each([...LOSING, ...NEIGHBOURS])("%j → %s", (command, verdict, reasonIncludes) => {
    const result = fixture.judge(command);
    expect(result.verdict, result.reason).toBe(verdict);
    if (reasonIncludes) expect(result.reason).toContain(reasonIncludes);
  });

  it("reads a checkout operand as a path only when it names one in the project", () => {
    expect(fixture.judge("git checkout scripts").verdict).toBe("deny");
    expect(fixture.judge("git checkout feature/login").verdict).toBe("allow");
  });
});
