// `ipuaro rewind` killed with SIGKILL half-way through restoring files: the tree holds whole files only,
// what was already put back is recorded as ipuaro's own write (so a later rewind does not take it for a
// change by hand), and running the rewind again finishes the job.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sha256 } from "../../../src/main/checkpoints/blob-store.js";
import { runIpuaro } from "../../helpers/cli.js";
import { FakeOllama, xmlToolCall as call } from "../../helpers/fake-ollama.js";
import { buildAcmeShop, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { MONEY, STRINGS, closeAgentProject, useHomeAndFakeModel } from "./checkpoint-harness.js";
import { startAgent, type AgentUnderTest } from "../session/agent-harness.js";

const server = useRedisServer();
let fake: FakeOllama;
let project: IndexedProject;
let agent: AgentUnderTest;
let home: string;
const REPO = path.resolve(import.meta.dirname, "..", "..", "..");

const abs = (rel: string) => path.join(project.root, rel);
const read = (rel: string) => fs.readFileSync(abs(rel), "utf8");
const cliEnv = () => ({ IPUARO_HOME: home, IPUARO_REDIS_URL: server().url, XDG_CONFIG_HOME: path.join(home, "xdg") });

useHomeAndFakeModel((f, h) => {
  fake = f;
  home = h;
});
beforeEach(async () => {
  project = await openIndexedProject(buildAcmeShop(), server().url);
  await project.reindex();
  agent = await startAgent(project, fake, project.config);
});
afterEach(() => closeAgentProject(agent, project, fake));

function startRewind(args: string[]): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", path.join(REPO, "src", "main", "cli", "entry.ts"), "rewind", ...args, project.root], {
    cwd: REPO,
    env: { ...process.env, NO_COLOR: "1", ...cliEnv() },
    stdio: "ignore",
  });
}

async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe("a rewind killed half-way", () => {
  it("leaves whole files, records what it wrote, and a later rewind neither calls those files conflicts nor misses the rest", async () => {
    const money = read(MONEY);
    const strings = read(STRINGS);
    fake.reply().text("Hello.");
    await agent.turn("Hi");
    fake.reply().text(`${call("get_lines", { path: MONEY, start: 1, end: 12 })}\n${call("get_lines", { path: STRINGS, start: 1, end: 7 })}`);
    fake.reply().text(
      `${call("edit_lines", { path: MONEY, start: 8, end: 8, content: "export class Money implements MoneyLike { // renamed" })}\n` +
        call("edit_lines", { path: STRINGS, start: 2, end: 2, content: "export function slugifyText(input: string): string {" }),
    );
    fake.reply().text("Both edited.");
    await agent.turn("Rename both things");
    fake.reply().text("You are welcome.");
    await agent.turn("Thanks");
    const edited = { money: read(MONEY), strings: read(STRINGS) };
    agent.runtime.checkpoints.close();

    // The backup of strings.ts becomes a FIFO nobody writes: the rewind blocks there, after money.ts.
    const blob = agent.runtime.checkpoints.tracker.blobs.pathOf(sha256(Buffer.from(strings)));
    const saved = fs.readFileSync(blob);
    fs.rmSync(blob);
    fs.mkdirSync(path.dirname(blob), { recursive: true });
    const { execFileSync } = await import("node:child_process");
    execFileSync("mkfifo", [blob]);

    const child = startRewind(["2", "--mode", "code"]);
    try {
      await until(() => read(MONEY) === money, "money.ts to be restored");
      await sleep(300);
    } finally {
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
    }
    expect(read(MONEY)).toBe(money);
    expect(read(STRINGS)).toBe(edited.strings);
    fs.rmSync(blob);
    fs.writeFileSync(blob, saved);

    // Message 3 started from the edited files: going there puts money.ts back without a conflict, since
    // the content on disk is what the killed rewind wrote.
    const toThree = await runIpuaro(["rewind", "3", "--mode", "code", "--json", project.root], { env: cliEnv() });
    expect(toThree.code, toThree.stderr).toBe(0);
    expect(JSON.parse(toThree.stdout)).toMatchObject({ restored: [MONEY], conflicts: [] });
    expect(read(MONEY)).toBe(edited.money);

    // And the interrupted rewind, run again, completes.
    const again = await runIpuaro(["rewind", "2", "--mode", "code", "--json", project.root], { env: cliEnv() });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ restored: [MONEY, STRINGS], conflicts: [], skipped: [] });
    expect(read(MONEY)).toBe(money);
    expect(read(STRINGS)).toBe(strings);
    expect(fs.readdirSync(path.dirname(abs(MONEY))).filter((n) => n.includes("ipuaro-tmp"))).toEqual([]);
  }, 120_000);
});
