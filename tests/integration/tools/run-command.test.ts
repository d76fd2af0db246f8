// run_command: the policy's three verdicts with the user's three answers, and the process-group
// machinery (abort, timeout, leftovers, output capping) on real processes.
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { userWhitelistFile } from "../../../src/main/config/command-lists.js";
import { runInProcessGroup } from "../../../src/main/exec/process-group.js";
import { createFile } from "../../../src/main/tools/create-file.js";
import { COMMAND_OUTPUT_FOR_MODEL, runCommand } from "../../../src/main/tools/run-command.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";
import type { PortAnswers } from "../../helpers/tool-context.js";
import { openProject, type GitProject } from "./git-test-repo.js";

const server = useRedisServer();
let configHome = "";
let savedConfigHome: string | undefined;
let opened: GitProject | null = null;

beforeAll(() => {
  // "always" answers are written to the user's whitelist: keep it in a temp folder.
  savedConfigHome = process.env.XDG_CONFIG_HOME;
  configHome = makeTempDir("ipuaro-config-");
  process.env.XDG_CONFIG_HOME = configHome;
});
afterAll(() => {
  if (savedConfigHome === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = savedConfigHome;
  removeDir(configHome);
});
afterEach(async () => {
  await opened?.close();
  opened = null;
  fs.rmSync(path.join(configHome, "ipuaro"), { recursive: true, force: true });
});

async function project(answers: PortAnswers = {}): Promise<GitProject> {
  const root = makeTempDir("ipuaro-run-");
  writeTree(root, { "package.json": '{"name":"demo","scripts":{"test":"node --test"}}\n', "src/a.ts": "export const a = 1;\n" });
  opened = await openProject(root, server().url, answers);
  return opened;
}

/** Live (non-zombie) processes whose argv is exactly `command` split on spaces. */
function processesWith(command: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").replace(/\0$/, "").split("\0");
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2)[0];
      if (argv.join(" ") === command && state !== "Z") pids.push(Number(entry));
    } catch {
      // gone while listing
    }
  }
  return pids;
}

/** A sleep duration no other run (an earlier, crashed one included) uses, to find its processes by argv. */
function uniqueSeconds(whole: number): string {
  return `${whole}.${String(process.pid).padStart(7, "0")}${Math.floor(Math.random() * 1000)}`;
}

async function waitFor(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("run_command verdicts", () => {
  it("runs a whitelisted command at once, in the project root", async () => {
    const p = await project();
    const r = await runCommand.run("r1", { command: "git --version" }, p.ctx);
    expect(r.success, r.error).toBe(true);
    expect(r.data).toMatch(/^\$ git --version\nexit code 0 in \d+ms\ngit version \d/);
    expect(p.ctx.ports.commandProposals).toHaveLength(0);
    expect(r.display.summary).toMatch(/^exit code 0 · /);
  });

  it("passes the output on as it comes, while the command still runs", async () => {
    const p = await project();
    const chunks: string[] = [];
    const ctx = { ...p.ctx, ports: { ...p.ctx.ports, commandOutput: (text: string) => chunks.push(text) } };
    const run = runCommand.run("live", { command: "echo first; sleep 1; echo second" }, ctx);
    await new Promise((r) => setTimeout(r, 700));
    // Before the command ends, its first line is already out.
    expect(chunks.join("")).toBe("first\n");
    const r = await run;
    expect(r.success, r.error).toBe(true);
    expect(chunks.join("")).toBe("first\nsecond\n");
  });

  it("says how many lines of its details are the header, so /output counts the output alone", async () => {
    const p = await project();
    const r = await runCommand.run("r1b", { command: "seq 1 20000" }, p.ctx);
    expect(r.success, r.error).toBe(true);
    const lines = r.display.details!.split("\n");
    expect(lines.slice(0, r.display.detailsHeaderLines)).toEqual(["$ seq 1 20000", expect.stringMatching(/^exit code 0 in /)]);
    expect(lines.slice(r.display.detailsHeaderLines)).toHaveLength(20_000);
    // The model got its start and end only: the result says it was cut.
    expect(r.truncated).toBe(true);
    const short = await runCommand.run("r1c", { command: "echo one line" }, p.ctx);
    expect(short.truncated).toBe(false);
  });

  it("returns a failing command's exit code and output as a result", async () => {
    const p = await project();
    const r = await runCommand.run("r2", { command: "node missing-script.js" }, p.ctx);
    expect(r.success).toBe(true);
    expect(r.data).toContain("exit code 1 (failed)");
    expect(r.data).toContain("Cannot find module");
  });

  it("asks about an unknown program and runs it once", async () => {
    const p = await project({ command: "once" });
    const r = await runCommand.run("r3", { command: "echo xuniL | rev && expr 40 + 2" }, p.ctx);
    expect(r.success, r.error).toBe(true);
    expect(r.data).toContain("Linux\n42");
    // The chat shows the end of the output under the call.
    expect(r.display.preview).toEqual(["Linux", "42"]);
    const [proposal] = p.ctx.ports.commandProposals;
    expect(proposal).toEqual({ command: "echo xuniL | rev && expr 40 + 2", reason: "ask: `rev` is not on the whitelist; `expr` is not on the whitelist", programs: ["rev", "expr"] });
    expect(fs.existsSync(userWhitelistFile())).toBe(false);
    expect(p.ctx.session.alwaysAllowed.size).toBe(0);
  });

  it("a script the session just wrote does not run unasked: with auto-apply the edit needs no confirmation, the command would", async () => {
    const p = await project({ command: "no" });
    const created = await createFile.run("c1", { path: "scripts/check.js", content: 'require("fs").writeFileSync("ran.txt", "x");' }, p.ctx);
    expect(created.success, created.error).toBe(true);
    const r = await runCommand.run("r3c", { command: "node scripts/check.js" }, p.ctx);
    expect(r).toMatchObject({ success: false, code: "REJECTED" });
    expect(p.ctx.ports.commandProposals[0]!.reason).toContain("runs `scripts/check.js`, which this session wrote");
    expect(fs.existsSync(path.join(p.root, "ran.txt"))).toBe(false);
  });

  it("offers to whitelist only the programs that asked, not those that run anyway", async () => {
    const p = await project({ command: "once" });
    const r = await runCommand.run("r3b", { command: "echo start && echo x | rev | cat" }, p.ctx);
    expect(r.success, r.error).toBe(true);
    expect(p.ctx.ports.commandProposals[0]).toMatchObject({ programs: ["rev"] });
  });

  it("offers no whitelist entry that would not answer the question: `echo $(…)` asks for its argument", async () => {
    const p = await project({ command: "once" });
    const r = await runCommand.run("r3e", { command: "echo $(echo x | wc -l)" }, p.ctx);
    expect(r.success, r.error).toBe(true);
    expect(p.ctx.ports.commandProposals[0]).toMatchObject({ programs: [] });
    expect(p.ctx.ports.commandProposals[0]!.reason).toContain("is only known at run time");

    // An unlisted program asked for two things: whitelisting it answers one, so it is offered.
    const both = await runCommand.run("r3f", { command: "rev $(echo a.txt)" }, p.ctx);
    expect(both.success, both.error).toBe(true);
    expect(p.ctx.ports.commandProposals[1]).toMatchObject({ programs: ["rev"] });
  });

  it("runs `cd FOLDER && …` at once, in that folder, and never offers to whitelist cd", async () => {
    const p = await project({ command: "once" });
    const r = await runCommand.run("r3c", { command: "cd src && cat a.ts && ls" }, p.ctx);
    expect(r.success, r.error).toBe(true);
    expect(r.data).toContain("export const a = 1;\na.ts");
    expect(p.ctx.ports.commandProposals).toHaveLength(0);

    // Elsewhere in a line cd asks; "always" would whitelist only the other unknown program.
    const asked = await runCommand.run("r3d", { command: "echo x | rev && cd src && cat a.ts" }, p.ctx);
    expect(asked.success, asked.error).toBe(true);
    expect(p.ctx.ports.commandProposals[0]).toMatchObject({ programs: ["rev"] });
    expect(p.ctx.ports.commandProposals[0]!.reason).toContain("changes the folder later commands run in");
  });

  it("does not run a command the user declines", async () => {
    const p = await project({ command: "no" });
    const r = await runCommand.run("r4", { command: "touch declined.txt" }, p.ctx);
    expect(r.success).toBe(false);
    expect(r.code).toBe("REJECTED");
    expect(r.error).toContain("`touch` is not on the whitelist");
    expect(fs.existsSync(path.join(p.root, "declined.txt"))).toBe(false);
  });

  it("tells the model nobody could confirm (not that the user declined) when nobody is there to ask", async () => {
    const p = await project({ command: "unattended" });
    const r = await runCommand.run("r4b", { command: "touch unasked.txt" }, p.ctx);
    expect(r.code).toBe("REJECTED");
    expect(r.error).toContain("nobody can confirm in this run");
    expect(r.error).toContain("give the user the command");
    expect(r.error).not.toContain("declined");
    expect(fs.existsSync(path.join(p.root, "unasked.txt"))).toBe(false);
  });

  it("remembers 'always' in the user whitelist file and the session", async () => {
    const p = await project({ command: "always" });
    const first = await runCommand.run("r5", { command: "expr 1 + 1" }, p.ctx);
    expect(first.success, first.error).toBe(true);
    expect(first.data).toContain("expr added to the user's whitelist");
    expect(JSON.parse(fs.readFileSync(userWhitelistFile(), "utf8"))).toEqual({ user: ["expr"] });
    expect([...p.ctx.session.alwaysAllowed]).toEqual(["expr"]);
    const second = await runCommand.run("r6", { command: "expr 2 + 3" }, p.ctx);
    expect(second.data).toContain("5");
    expect(p.ctx.ports.commandProposals).toHaveLength(1);
  });

  it("keeps the entries already in the user whitelist file", async () => {
    fs.mkdirSync(path.dirname(userWhitelistFile()), { recursive: true });
    fs.writeFileSync(userWhitelistFile(), JSON.stringify({ user: ["cargo"] }));
    const p = await project({ command: "always" });
    await runCommand.run("r7", { command: "rev" }, p.ctx);
    expect(JSON.parse(fs.readFileSync(userWhitelistFile(), "utf8"))).toEqual({ user: ["cargo", "rev"] });
    expect(fs.readdirSync(path.dirname(userWhitelistFile()))).toEqual(["whitelist.json"]);
  });

  it("runs programs from the user whitelist file without asking", async () => {
    fs.mkdirSync(path.dirname(userWhitelistFile()), { recursive: true });
    fs.writeFileSync(userWhitelistFile(), JSON.stringify({ user: ["echo"] }));
    const p = await project({ command: "no" });
    const r = await runCommand.run("r8", { command: "echo trusted" }, p.ctx);
    expect(r.success, r.error).toBe(true);
    expect(p.ctx.ports.commandProposals).toHaveLength(0);
  });

  it("reports an invalid user whitelist file instead of guessing", async () => {
    fs.mkdirSync(path.dirname(userWhitelistFile()), { recursive: true });
    fs.writeFileSync(userWhitelistFile(), JSON.stringify({ user: "echo" }));
    const p = await project();
    const r = await runCommand.run("r9", { command: "git --version" }, p.ctx);
    expect(r.code).toBe("UNAVAILABLE");
    expect(r.error).toContain(userWhitelistFile());
  });

  it("denies blacklisted and disguised commands without asking or running them", async () => {
    const p = await project({ command: "once" });
    fs.mkdirSync(path.join(p.root, "build"));
    for (const command of ["rm -rf build", "git status; rm -fr build", "echo $(rm -r build)", "sudo ls", "NODE_OPTIONS=--require=./x.js node a.js", "ls\u200b -la"]) {
      const r = await runCommand.run("r10", { command }, p.ctx);
      expect(r.code, command).toBe("DENIED");
      expect(r.error, command).toMatch(/^denied: .*It was not run/);
    }
    expect(p.ctx.ports.commandProposals).toHaveLength(0);
    expect(fs.existsSync(path.join(p.root, "build"))).toBe(true);
  });

  it("asks before running project scripts after the session changed package.json", async () => {
    const p = await project({ command: "no" });
    p.ctx.session.taintedFiles.add("package.json");
    const r = await runCommand.run("r11", { command: "npm test" }, p.ctx);
    expect(r.code).toBe("REJECTED");
    expect(p.ctx.ports.commandProposals[0]!.reason).toContain("this session changed `package.json`");
  });

  it("rejects missing or mistyped arguments", async () => {
    const p = await project();
    expect((await runCommand.run("r12", {}, p.ctx)).code).toBe("INVALID_ARGS");
    expect((await runCommand.run("r13", { command: ["ls"] }, p.ctx)).code).toBe("INVALID_ARGS");
    expect((await runCommand.run("r14", { command: "" }, p.ctx)).code).toBe("INVALID_ARGS");
    expect((await runCommand.run("r15", { command: "ls", cwd: "/" }, p.ctx)).code).toBe("INVALID_ARGS");
  });
});

describe("run_command processes", () => {
  it("kills the whole process group on abort", async () => {
    const controller = new AbortController();
    const p = await project({ command: "once" });
    p.ctx.signal = controller.signal;
    const marker = uniqueSeconds(31);
    const running = runCommand.run("p1", { command: `sleep ${marker} & sleep ${marker}` }, p.ctx);
    await waitFor(() => processesWith(`sleep ${marker}`).length === 2);
    const started = Date.now();
    controller.abort();
    const r = await running;
    expect(r.code).toBe("CANCELLED");
    expect(r.error).toContain("all its processes were stopped");
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
  });

  it("kills the whole process group on timeout", async () => {
    const p = await project({ command: "once" });
    p.ctx.config = { ...p.ctx.config, commands: { timeout: 400 } };
    const marker = uniqueSeconds(27);
    const r = await runCommand.run("p2", { command: `echo begun; sleep ${marker} & sleep ${marker}` }, p.ctx);
    expect(r.code).toBe("TIMEOUT");
    expect(r.error).toContain("timed out after 400ms (commands.timeout)");
    expect(r.error).toContain("last output:\nbegun");
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
  });

  it("stops background processes the command leaves behind", async () => {
    const p = await project({ command: "once" });
    const marker = uniqueSeconds(29);
    const r = await runCommand.run("p3", { command: `sleep ${marker} >/dev/null 2>&1 & echo started` }, p.ctx);
    expect(r.success, r.error).toBe(true);
    expect(r.data).toContain("(background processes it left running were stopped)");
    expect(r.data).toContain("started");
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
  });

  it("gives the model the start and end of long output and the UI all of it", async () => {
    const p = await project({ command: "once" });
    const r = await runCommand.run("p4", { command: "seq 1 40000" }, p.ctx);
    expect(r.success).toBe(true);
    expect(r.data!.length).toBeLessThan(COMMAND_OUTPUT_FOR_MODEL + 300);
    expect(r.data).toMatch(/\n1\n2\n3\n/);
    expect(r.data).toMatch(/\n39999\n40000$/);
    expect(r.data).toMatch(/… \[\d+ characters omitted; the whole output is shown in the UI\] …/);
    expect(r.display.details!.split("\n")).toHaveLength(40002);
  });

  it("interleaves stdout and stderr, strips colours and has no stdin", async () => {
    const p = await project({ command: "once" });
    const r = await runCommand.run("p5", { command: "echo out; echo err >&2; printf '\\033[31mred\\033[0m\\n'; cat; printenv NO_COLOR" }, p.ctx);
    expect(r.success, r.error).toBe(true);
    expect(r.data!.split("\n").slice(2)).toEqual(["out", "err", "red", "1"]);
  });

  it("SIGKILLs what ignores SIGTERM once the grace period is over", async () => {
    const marker = uniqueSeconds(33);
    const controller = new AbortController();
    const running = runInProcessGroup({ command: `trap '' TERM; sleep ${marker} & sleep ${marker}`, cwd: "/tmp", signal: controller.signal, killGraceMs: 300 });
    await waitFor(() => processesWith(`sleep ${marker}`).length === 2);
    controller.abort();
    const r = await running;
    expect(r.end).toBe("aborted");
    expect(r.signal).toBe("SIGKILL");
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
  });

  it("keeps the start and end of a flood of output in bounded memory", async () => {
    const r = await runInProcessGroup({ command: "seq 1 200000", cwd: "/tmp", maxStoredChars: 10_000 });
    expect(r.exitCode).toBe(0);
    expect(r.output.startsWith("1\n2\n3\n")).toBe(true);
    expect(r.output.endsWith("199999\n200000\n")).toBe(true);
    expect(r.output.length).toBeLessThan(10_100);
    expect(r.output).toContain(`… [${r.droppedChars} characters of output dropped] …`);
    expect(r.droppedChars).toBeGreaterThan(1_000_000);
  });
});
