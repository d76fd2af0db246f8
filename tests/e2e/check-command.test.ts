// `ipuaro check-command` as a user runs it: verdict, reason, exit code, --json, the user's whitelist.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runIpuaro } from "../helpers/cli.js";
import { makeTempDir, removeDir } from "../helpers/temp-dir.js";

let configHome = "";
let projectRoot = "";
beforeAll(() => {
  configHome = makeTempDir("ipuaro-check-config-");
  projectRoot = makeTempDir("ipuaro-check-root-");
});
afterAll(() => {
  removeDir(configHome);
  removeDir(projectRoot);
});

function check(args: string[], userWhitelist?: unknown) {
  const dir = path.join(configHome, "ipuaro");
  fs.rmSync(dir, { recursive: true, force: true });
  if (userWhitelist !== undefined) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "whitelist.json"), typeof userWhitelist === "string" ? userWhitelist : JSON.stringify(userWhitelist));
  }
  return runIpuaro(["check-command", "--root", projectRoot, ...args], { env: { XDG_CONFIG_HOME: configHome } });
}

describe("ipuaro check-command", () => {
  it("allows whitelisted commands with exit code 0", async () => {
    const r = await check(["--", "git status"]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe("allow: every command is on the whitelist or only reads (`git`)");
    expect(r.stdout).toContain("  allow git status");
  });

  it("asks about unknown programs and project writes with exit code 3", async () => {
    const r = await check(["--", "rev > out.txt"]);
    expect(r.code).toBe(3);
    expect(r.stdout.split("\n")[0]).toBe("ask: `> out.txt` writes `out.txt` in the project; `rev` is not on the whitelist");
  });

  it("denies blacklisted parts of a compound command with exit code 4, listing every simple command", async () => {
    const r = await check(["--", "npm test && rm -rf dist"]);
    expect(r.code).toBe(4);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toBe("deny: `rm -rf dist` matches blacklist entry `rm -rf`");
    expect(lines[1]).toBe("  allow npm test");
    expect(lines[2]).toMatch(/^ {2}deny {2}rm -rf dist \(/);
  });

  it("prints the verdict as JSON", async () => {
    const r = await check(["--json", "--", "npm test && rm -rf dist"]);
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toEqual({ verdict: "deny", reason: "denied: `rm -rf dist` matches blacklist entry `rm -rf`", commands: ["npm test", "rm -rf dist"] });
    const allow = await check(["--json", "--", "git", "log", "--oneline"]);
    expect(JSON.parse(allow.stdout)).toEqual({ verdict: "allow", reason: "allowed: every command is on the whitelist or only reads (`git`)", commands: ["git log --oneline"] });
  });

  it("joins several words after -- into one command line", async () => {
    const r = await check(["--json", "--", "git", "push", "--force"]);
    expect(JSON.parse(r.stdout).verdict).toBe("deny");
  });

  it("honours the user's whitelist file", async () => {
    expect((await check(["--", "cargo build"])).code).toBe(3);
    const r = await check(["--", "cargo build"], { user: ["cargo"] });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`user whitelist: cargo (${path.join(configHome, "ipuaro", "whitelist.json")})`);
  });

  it("denies unknown programs when the user turned asking off", async () => {
    const r = await check(["--", "cargo build"], { user: [], askForUnknown: false });
    expect(r.code).toBe(4);
  });

  it("exits 52 naming the file when the user's whitelist is invalid", async () => {
    const r = await check(["--", "git status"], { user: "cargo" });
    expect(r.code).toBe(52);
    expect(r.stderr).toContain(path.join(configHome, "ipuaro", "whitelist.json"));
    const bad = await check(["--", "git status"], "{ nope");
    expect(bad.code).toBe(52);
    expect(bad.stderr).toContain("is not valid JSON");
  });

  it("shows control characters escaped, never raw", async () => {
    const r = await check(["--", "ls \u001b[2J"]);
    expect(r.code).toBe(4);
    expect(r.stdout).toContain("\\x1b");
    expect(r.stdout).not.toContain("\u001b");
  });

  it("documents the exit codes and needs a command", async () => {
    const help = await check(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Exit code: 0 allow, 3 ask, 4 deny (2 usage error, 52 invalid list file).");
    const none = await check([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("missing required argument");
    const noRoot = await check(["--root", "/nonexistent/project", "--", "ls"]);
    expect(noRoot.code).toBe(2);
    expect(noRoot.stderr).toContain("no such directory: /nonexistent/project");
    const jsonUsage = await check(["--json"]);
    expect(jsonUsage.code).toBe(2);
    expect(JSON.parse(jsonUsage.stdout)).toMatchObject({ error: { type: "usage" } });
  });
});
