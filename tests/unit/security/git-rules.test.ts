// git subcommands ipuaro does not know (aliases, `git-<name>` extensions) are asked about; plumbing that
// builds trees a checkout then writes is asked about; `git config --list` shows global entries; `:/` and
// `:(top)` pathspecs reach the repository's top, outside a project that is a folder inside it.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { judgeCommand, type Verdict } from "../../../src/main/security/index.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";
import { makePolicyFixture, type PolicyFixture } from "./policy-fixture.js";

let fixture: PolicyFixture;
beforeAll(() => {
  fixture = makePolicyFixture();
});
afterAll(() => fixture.cleanup());

type Row = [command: string, verdict: Verdict, reasonIncludes?: string];

const NOT_GIT_COMMANDS: Row[] = [
  // With `git config alias.co checkout`, `git co -- .` discards changes as `git checkout -- .` (denied) would.
  ["git co -- .", "ask", "`git co` is not a git command ipuaro knows"],
  ["git nuke", "ask", "an alias or an extension"],
  ["git x", "ask", "`git-x` on PATH"],
  ["git lfs install", "ask", "`git lfs` is not a git command ipuaro knows"],
  ["git gui", "ask", "`git gui` is not a git command ipuaro knows"],
  ["git flow init", "ask", "`git flow` is not a git command ipuaro knows"],
  ["git -C . st", "ask", "`git st` is not a git command ipuaro knows"],
  ["git Status", "ask", "is not a git command ipuaro knows"],
];

const TREE_BUILDING_PLUMBING: Row[] = [
  // The chain that planted `vendor-cache -> /tmp/secret`: blobs are harmless, trees and commits of them are not.
  ["git hash-object -w --stdin", "allow"],
  ["git mktree", "ask", "`git mktree` builds a tree from text on stdin"],
  ["git commit-tree 4b825dc -p HEAD -m x", "ask", "`git commit-tree`"],
  ["git read-tree HEAD", "ask", "`git read-tree` replaces the index"],
  ["git read-tree -u -m HEAD", "deny", "overwrites uncommitted work"],
  ["git update-index --add --cacheinfo 120000,abc,vendor-cache", "ask", "`git update-index`"],
  ["git update-ref refs/heads/main abc", "ask", "moves a ref directly"],
  ["git replace HEAD abc", "ask", "`git replace`"],
  ["git merge-index cat -a", "ask", "`git merge-index` can run other programs"],
  ["git write-tree", "allow"],
  ["git replace -l", "allow"],
  ["git cat-file -p HEAD", "allow"],
];

const CONFIG_READS: Row[] = [
  ["git config --list", "ask", "global and system configuration"],
  ["git config -l --show-origin", "ask", "global and system configuration"],
  ["git config --get-regexp 'url\\..*'", "ask", "global and system configuration"],
  ["git config --get-urlmatch http https://example.com", "ask", "global and system configuration"],
  ["git config list", "ask", "global and system configuration"],
  ["git config get --regexp user", "ask", "global and system configuration"],
  ["git config --local --list", "allow"],
  ["git config --get user.name", "allow"],
  ["git config --get-all remote.origin.fetch", "allow"],
  ["git config user.email", "allow"],
];

const KNOWN_READS: Row[] = [
  ["git status", "allow"],
  ["git log --oneline -5", "allow"],
  ["git diff --stat", "allow"],
  ["git show HEAD:package.json", "allow"],
  ["git blame src/a.ts", "allow"],
  ["git rev-parse --show-toplevel", "allow"],
  ["git ls-files", "allow"],
  ["git --version", "allow"],
];

describe("git commands judged by name", () => {
  it.each([...NOT_GIT_COMMANDS, ...TREE_BUILDING_PLUMBING, ...CONFIG_READS, ...KNOWN_READS])("%j → %s", (command, verdict, reasonIncludes) => {
    const result = fixture.judge(command);
    expect(result.verdict, result.reason).toBe(verdict);
    if (reasonIncludes) expect(result.reason).toContain(reasonIncludes);
  });
});

// The fixture's root has no .git: it stands for a project folder inside a larger repository.
const FROM_TOP: Row[] = [
  ["git rm -r -q ':/packages'", "ask", "pathspec from the repository's top"],
  ["git rm -r ':(top)packages'", "ask", "pathspec from the repository's top"],
  ["git add ':(top,glob)**/*.ts'", "ask", "pathspec from the repository's top"],
  ["git checkout -- ':!/src'", "deny", "overwrites uncommitted changes"],
  ["git rm -r ../packages", "ask", "climbs out of the project root"],
  ["git rm -r packages", "allow"],
  ["git log -- ':(glob)src/**'", "allow"],
];

describe("pathspecs from the repository's top", () => {
  it.each(FROM_TOP)("%j → %s", (command, verdict, reasonIncludes) => {
    const result = fixture.judge(command);
    expect(result.verdict, result.reason).toBe(verdict);
    if (reasonIncludes) expect(result.reason).toContain(reasonIncludes);
  });

  it("lets them be when the project root is the repository's top", () => {
    const top = makeTempDir("ipuaro-policy-top-");
    try {
      fs.mkdirSync(path.join(top, ".git"));
      const judge = (command: string) => judgeCommand(command, { ...fixture.policy, projectRoot: top });
      expect(judge("git rm -r -q ':/packages'").verdict).toBe("allow");
      expect(judge("git add ':(top)src'").verdict).toBe("allow");
    } finally {
      removeDir(top);
    }
  });
});
