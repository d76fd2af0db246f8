// git_commit on a real repository: always confirmed through the port, hooks run, never amends.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gitCommit } from "../../../src/main/tools/git-commit.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, writeTree } from "../../helpers/temp-dir.js";
import type { PortAnswers } from "../../helpers/tool-context.js";
import { git, openAcmeRepo, openProject, type GitProject } from "./git-test-repo.js";

const server = useRedisServer();
let opened: GitProject | null = null;
afterEach(async () => {
  await opened?.close();
  opened = null;
});

async function acme(answers: PortAnswers = {}): Promise<GitProject> {
  opened = await openAcmeRepo(server().url, answers);
  return opened;
}

const head = (root: string) => git(root, "rev-parse", "HEAD").trim();
const staged = (root: string) => git(root, "diff", "--cached", "--name-only").trim();

describe("git_commit", () => {
  it("stages the named files and commits exactly them after the user confirms", async () => {
    const p = await acme();
    const before = head(p.root);
    p.write("packages/core/src/money.ts", "export const money = 2;\n");
    p.write("docs/new.md", "# new\n");
    p.write("apps/api/src/main.ts", "// unrelated, staged earlier\n");
    git(p.root, "add", "apps/api/src/main.ts");
    const r = await gitCommit.run("c1", { message: "Change money\n\nAnd add docs.", files: ["packages/core/src/money.ts", "docs/new.md"] }, p.ctx);
    expect(r.success, r.error).toBe(true);
    const hash = head(p.root);
    expect(r.data).toContain(`committed ${hash.slice(0, 10)} on main: Change money`);
    expect(r.data).toContain("2 files, +");
    expect(r.data).toContain("  docs/new.md +1 -0");
    expect((r as unknown as { display: { summary: string } }).display.summary).toBe(`${hash.slice(0, 10)} Change money`);
    // A new commit on top of the old HEAD (not an amend), holding only the named files.
    expect(git(p.root, "rev-parse", "HEAD~1").trim()).toBe(before);
    expect(git(p.root, "show", "--name-only", "--format=", "HEAD").trim().split("\n").sort()).toEqual(["docs/new.md", "packages/core/src/money.ts"]);
    expect(git(p.root, "log", "-1", "--format=%B").trim()).toBe("Change money\n\nAnd add docs.");
    // What was staged before stays staged.
    expect(staged(p.root)).toBe("apps/api/src/main.ts");
    const [proposal] = p.ctx.ports.commandProposals;
    expect(p.ctx.ports.commandProposals).toHaveLength(1);
    expect(proposal!.command).toBe("git add -- packages/core/src/money.ts docs/new.md && git commit -m 'Change money\n\nAnd add docs.' -- packages/core/src/money.ts docs/new.md");
    expect(proposal!.reason).toContain("commit 2 files to main: packages/core/src/money.ts, docs/new.md");
    expect(proposal!.reason).toContain("git hooks will run");
  });

  it("commits what is staged when no files are given, including a deletion", async () => {
    const p = await acme();
    git(p.root, "rm", "-q", "packages/core/src/logger.ts");
    p.write("packages/core/src/money.ts", "not staged\n");
    const r = await gitCommit.run("c2", { message: "Remove logger" }, p.ctx);
    expect(r.success, r.error).toBe(true);
    expect(git(p.root, "show", "--name-status", "--format=", "HEAD").trim()).toBe("D\tpackages/core/src/logger.ts");
    expect(git(p.root, "status", "--porcelain").trim()).toBe("M packages/core/src/money.ts");
    expect(p.ctx.ports.commandProposals[0]!.command).toBe("git commit -m 'Remove logger'");
  });

  it("stages and commits a deleted file named in files", async () => {
    const p = await acme();
    fs.rmSync(path.join(p.root, "packages/core/src/logger.ts"));
    const r = await gitCommit.run("c3", { message: "Drop logger", files: ["packages/core/src/logger.ts"] }, p.ctx);
    expect(r.success, r.error).toBe(true);
    expect(git(p.root, "status", "--porcelain").trim()).toBe("");
  });

  it("treats glob characters in file names literally", async () => {
    const p = await acme();
    p.write("weird/a*.ts", "star\n");
    p.write("weird/abc.ts", "other\n");
    const r = await gitCommit.run("c4", { message: "Add the star file", files: ["weird/a*.ts"] }, p.ctx);
    expect(r.success, r.error).toBe(true);
    expect(git(p.root, "show", "--name-only", "--format=", "HEAD").trim()).toBe("weird/a*.ts");
    expect(git(p.root, "status", "--porcelain", "--untracked-files=all").trim()).toBe("?? weird/abc.ts");
  });

  it("asks every time, even after an 'always' answer", async () => {
    const p = await acme({ command: "always" });
    p.write("a.txt", "1\n");
    expect((await gitCommit.run("c5", { message: "one", files: ["a.txt"] }, p.ctx)).success).toBe(true);
    p.write("a.txt", "2\n");
    expect((await gitCommit.run("c6", { message: "two", files: ["a.txt"] }, p.ctx)).success).toBe(true);
    expect(p.ctx.ports.commandProposals).toHaveLength(2);
    expect(p.ctx.session.alwaysAllowed.size).toBe(0);
  });

  it("does nothing when the user declines", async () => {
    const p = await acme({ command: "no" });
    const before = head(p.root);
    p.write("a.txt", "1\n");
    const r = await gitCommit.run("c7", { message: "declined", files: ["a.txt"] }, p.ctx);
    expect(r.success).toBe(false);
    expect(r.code).toBe("REJECTED");
    expect(head(p.root)).toBe(before);
    expect(staged(p.root)).toBe("");
  });

  it("commits nothing in a run where nobody can confirm, and says so", async () => {
    const p = await acme({ command: "unattended" });
    const before = head(p.root);
    p.write("a.txt", "1\n");
    const r = await gitCommit.run("c7b", { message: "unasked", files: ["a.txt"] }, p.ctx);
    expect(r.code).toBe("REJECTED");
    expect(r.error).toBe("a commit needs the user's confirmation and nobody can confirm in this run; nothing was staged or committed");
    expect(head(p.root)).toBe(before);
    expect(staged(p.root)).toBe("");
  });

  it("runs the pre-commit hook and reports its failure", async () => {
    const p = await acme();
    const before = head(p.root);
    const hook = path.join(p.root, ".git", "hooks", "pre-commit");
    fs.writeFileSync(hook, "#!/bin/sh\necho 'lint failed: missing semicolon' >&2\nexit 1\n", { mode: 0o755 });
    p.write("a.txt", "1\n");
    const r = await gitCommit.run("c8", { message: "blocked", files: ["a.txt"] }, p.ctx);
    expect(r.success).toBe(false);
    expect(r.code).toBe("COMMAND_FAILED");
    expect(r.error).toContain("lint failed: missing semicolon");
    expect(head(p.root)).toBe(before);

    fs.writeFileSync(hook, `#!/bin/sh\ntouch '${path.join(p.root, "hook-ran")}'\n`, { mode: 0o755 });
    const ok = await gitCommit.run("c9", { message: "allowed", files: ["a.txt"] }, p.ctx);
    expect(ok.success, ok.error).toBe(true);
    expect(fs.existsSync(path.join(p.root, "hook-ran"))).toBe(true);
  });

  it("explains an empty message, nothing staged and unchanged files before asking", async () => {
    const p = await acme();
    const empty = await gitCommit.run("c10", { message: "   \n" }, p.ctx);
    expect(empty.code).toBe("INVALID_ARGS");
    expect(empty.error).toContain("commit message is empty");

    const clean = await gitCommit.run("c11", { message: "nothing" }, p.ctx);
    expect(clean.code).toBe("NOT_FOUND");
    expect(clean.error).toBe("nothing is staged; the working tree is clean: there is nothing to commit");

    p.write("a.txt", "1\n");
    const unstaged = await gitCommit.run("c12", { message: "nothing staged" }, p.ctx);
    expect(unstaged.error).toBe("nothing is staged; pass files to stage and commit them; changed files: a.txt");

    const unchanged = await gitCommit.run("c13", { message: "unchanged", files: ["package.json"] }, p.ctx);
    expect(unchanged.code).toBe("NOT_FOUND");
    expect(unchanged.error).toBe("nothing to commit for package.json: no changes there (changed files: a.txt)");
    expect(p.ctx.ports.commandProposals).toHaveLength(0);
  });

  it("rejects hostile input", async () => {
    const p = await acme();
    p.write("a.txt", "1\n");
    const outside = await gitCommit.run("c14", { message: "x", files: ["../../etc/passwd"] }, p.ctx);
    expect(outside.code).toBe("PATH_OUTSIDE_ROOT");
    const escape = await gitCommit.run("c15", { message: "fix\u001b[2Jhidden", files: ["a.txt"] }, p.ctx);
    expect(escape.code).toBe("INVALID_ARGS");
    expect(escape.error).toContain("\\x1b");
    const noMessage = await gitCommit.run("c16", { files: ["a.txt"] }, p.ctx);
    expect(noMessage.code).toBe("INVALID_ARGS");
    const wrongType = await gitCommit.run("c17", { message: "x", files: "a.txt" }, p.ctx);
    expect(wrongType.code).toBe("INVALID_ARGS");
    // An option-looking message is only a message.
    const optionLike = await gitCommit.run("c18", { message: "--amend --no-verify", files: ["a.txt"] }, p.ctx);
    expect(optionLike.success, optionLike.error).toBe(true);
    expect(git(p.root, "log", "-1", "--format=%s").trim()).toBe("--amend --no-verify");
    expect(git(p.root, "rev-list", "--count", "HEAD").trim()).toBe("2");
    expect(p.ctx.ports.commandProposals).toHaveLength(1);
  });

  it("fails with NOT_A_GIT_REPO outside a repository", async () => {
    const root = makeTempDir("ipuaro-nogit-");
    writeTree(root, { "a.ts": "export {};\n" });
    opened = await openProject(root, server().url);
    const r = await gitCommit.run("c19", { message: "x", files: ["a.ts"] }, opened.ctx);
    expect(r.code).toBe("NOT_A_GIT_REPO");
  });
});
