// Hostile paths against a real temp tree with real symlinks.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveInsideRoot, type PathErrorCode, type ResolveOptions } from "../../src/main/security/index.js";

let base: string;
let root: string;
let outside: string;

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "ipuaro-paths-")));
  root = path.join(base, "project");
  outside = path.join(base, "outside");
  fs.mkdirSync(path.join(root, "src"), { recursive: true });
  fs.mkdirSync(path.join(root, ".git"), { recursive: true });
  fs.mkdirSync(path.join(root, "%2e%2e"));
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(root, "src", "a.ts"), "export {};\n");
  fs.writeFileSync(path.join(root, ".git", "config"), "");
  fs.writeFileSync(path.join(outside, "secret.txt"), "secret");
  fs.symlinkSync(outside, path.join(root, "link-out")); // directory symlink leaving the root
  fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "secret-link")); // file symlink leaving the root
  fs.symlinkSync(path.join(outside, "new.txt"), path.join(root, "dangling-out")); // dangling, target outside
  fs.symlinkSync("src/missing.ts", path.join(root, "dangling-in")); // dangling, target inside
  fs.symlinkSync("src", path.join(root, "link-in")); // stays inside
  fs.symlinkSync(".git", path.join(root, "git-alias")); // leads into .git
  fs.symlinkSync("loop-b", path.join(root, "loop-a"));
  fs.symlinkSync("loop-a", path.join(root, "loop-b"));
  fs.mkdirSync(path.join(root, "nested"));
  fs.symlinkSync("../../outside", path.join(root, "nested", "up")); // relative symlink in a subdirectory
  fs.symlinkSync(root, path.join(base, "root-link")); // the root itself reached through a symlink
});

afterAll(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

type Hostile = [input: string | (() => string), code: PathErrorCode, opts?: ResolveOptions];

const HOSTILE: Hostile[] = [
  ["../x", "PATH_OUTSIDE_ROOT"],
  ["src/../../x", "PATH_OUTSIDE_ROOT"],
  ["./../project/../outside/secret.txt", "PATH_OUTSIDE_ROOT"],
  ["/etc/passwd", "PATH_OUTSIDE_ROOT"],
  ["/", "PATH_OUTSIDE_ROOT"],
  [() => path.join(outside, "secret.txt"), "PATH_OUTSIDE_ROOT"],
  [() => `${root}-sibling/x`, "PATH_OUTSIDE_ROOT"],
  ["link-out/secret.txt", "PATH_OUTSIDE_ROOT"],
  ["link-out/new-file.txt", "PATH_OUTSIDE_ROOT"],
  ["link-out", "PATH_OUTSIDE_ROOT"],
  ["secret-link", "PATH_OUTSIDE_ROOT"],
  ["dangling-out", "PATH_OUTSIDE_ROOT"],
  ["nested/up/secret.txt", "PATH_OUTSIDE_ROOT"],
  ["src/a.ts\0.png", "PATH_INVALID"],
  ["", "PATH_INVALID"],
  ["   ", "PATH_INVALID"],
  ["~/.ssh/id_rsa", "PATH_INVALID"],
  ["~", "PATH_INVALID"],
  ["file:///etc/passwd", "PATH_INVALID"],
  ["https://example.com/x.ts", "PATH_INVALID"],
  ["C:\\Windows\\system32", "PATH_INVALID"],
  ["C:/Windows", "PATH_INVALID"],
  ["src\\a.ts", "PATH_INVALID"],
  ["src/\u202eats.exe", "PATH_INVALID"],
  ["src/a\x1b[2J.ts", "PATH_INVALID"],
  [`${"a/".repeat(2100)}x`, "PATH_INVALID"],
  [`${"n".repeat(300)}.ts`, "PATH_INVALID"],
  ["loop-a", "PATH_INVALID"],
  ["missing/file.ts", "PATH_NOT_FOUND", { mustExist: true }],
  ["src/a.ts/inner", "PATH_NOT_FOUND", { mustExist: true }],
  ["dangling-in", "PATH_NOT_FOUND", { mustExist: true }],
  [".git/config", "PATH_FORBIDDEN", { forWrite: true }],
  [".GIT/config", "PATH_FORBIDDEN", { forWrite: true }],
  [".git./hooks/pre-commit", "PATH_FORBIDDEN", { forWrite: true }],
  ["sub/.git/hooks/pre-commit", "PATH_FORBIDDEN", { forWrite: true }],
  ["git-alias/config", "PATH_FORBIDDEN", { forWrite: true }],
  [".ipuaro.json", "PATH_FORBIDDEN", { forWrite: true }],
  [".ipuaro/sessions/1.json", "PATH_FORBIDDEN", { forWrite: true }],
];

describe("resolveInsideRoot rejects hostile paths", () => {
  it("covers at least 20 hostile paths", () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(20);
  });

  it.each(HOSTILE)("%j → %s", (input, code, opts) => {
    const text = typeof input === "function" ? input() : input;
    const result = resolveInsideRoot(root, text, opts);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.code).toBe(code);
      expect(result.message.length).toBeGreaterThan(10);
    }
  });
});

describe("resolveInsideRoot accepts paths inside the root", () => {
  it.each([
    ["src/a.ts", "src/a.ts"],
    ["./src/../src/a.ts", "src/a.ts"],
    ["src//a.ts", "src/a.ts"],
    ["src/", "src"],
    [".", "."],
    ["new/dir/file.ts", "new/dir/file.ts"],
    ["dangling-in", "dangling-in"],
    ["link-in/a.ts", "link-in/a.ts"],
    // Nothing is URL-decoded: these are literal names inside the root.
    ["%2e%2e/x", "%2e%2e/x"],
    ["..%2f..%2fetc%2fpasswd", "..%2f..%2fetc%2fpasswd"],
    ["...", "..."],
    ["src/..a.ts", "src/..a.ts"],
  ])("%j → %j", (input, rel) => {
    const result = resolveInsideRoot(root, input);
    expect(result).toMatchObject({ ok: true, rel, abs: path.join(root, rel) });
  });

  it("accepts an absolute path inside the root and resolves symlinks in `real`", () => {
    expect(resolveInsideRoot(root, path.join(root, "src/a.ts"), { mustExist: true })).toEqual({
      ok: true,
      abs: path.join(root, "src/a.ts"),
      rel: "src/a.ts",
      real: path.join(root, "src/a.ts"),
    });
    expect(resolveInsideRoot(root, "link-in/a.ts")).toMatchObject({ ok: true, real: path.join(root, "src/a.ts") });
  });

  it("works when the root itself is reached through a symlink", () => {
    const linkedRoot = path.join(base, "root-link");
    expect(resolveInsideRoot(linkedRoot, "src/a.ts", { mustExist: true })).toMatchObject({ ok: true, rel: "src/a.ts" });
    expect(resolveInsideRoot(linkedRoot, path.join(root, "src/a.ts"))).toMatchObject({ ok: true, rel: "src/a.ts" });
    expect(resolveInsideRoot(linkedRoot, "../outside/secret.txt")).toMatchObject({ ok: false, code: "PATH_OUTSIDE_ROOT" });
  });

  it("reads .git but does not write it", () => {
    expect(resolveInsideRoot(root, ".git/config", { mustExist: true })).toMatchObject({ ok: true });
    expect(resolveInsideRoot(root, ".github/workflows/ci.yml", { forWrite: true })).toMatchObject({ ok: true });
  });

  it("says why in the message", () => {
    expect(resolveInsideRoot(root, "../x")).toMatchObject({ message: expect.stringContaining("`..`") });
    expect(resolveInsideRoot(root, "link-out/x")).toMatchObject({ message: expect.stringContaining("symlink") });
    expect(resolveInsideRoot(root, "a\0b")).toMatchObject({ message: expect.stringContaining("NUL") });
    expect(resolveInsideRoot(path.join(base, "no-such-root"), "x")).toMatchObject({ ok: false, code: "PATH_NOT_FOUND" });
  });

  it("does not write into the git directory a .git file points to (worktree, submodule, --separate-git-dir)", () => {
    const repo = path.join(base, "separate");
    fs.mkdirSync(path.join(repo, "gd", "hooks"), { recursive: true });
    fs.mkdirSync(path.join(repo, "src"), { recursive: true });
    fs.writeFileSync(path.join(repo, ".git"), "gitdir: gd\n");
    expect(resolveInsideRoot(repo, "gd/hooks/post-checkout", { forWrite: true })).toMatchObject({ ok: false, code: "PATH_FORBIDDEN" });
    expect(resolveInsideRoot(repo, "gd/config", { forWrite: true })).toMatchObject({ ok: false, code: "PATH_FORBIDDEN" });
    expect(resolveInsideRoot(repo, "src/a.ts", { forWrite: true })).toMatchObject({ ok: true });
    expect(resolveInsideRoot(repo, "gd/config")).toMatchObject({ ok: true });
  });
});
