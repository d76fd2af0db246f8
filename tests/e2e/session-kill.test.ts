// kill -9 in the middle of a turn keeps the reply in flight as far as it was saved (about a second
// before), as the turn's outcome; the next run finds the history
// intact and well-formed and goes on from it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/main/config/loader.js";
import { openSession } from "../../src/main/session/open-session.js";
import { projectNameFor } from "../../src/main/store/keys.js";
import { FakeOllama, type ChatMessage } from "../helpers/fake-ollama.js";
import { buildAcmeShop } from "../helpers/indexed-project.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { removeDir } from "../helpers/temp-dir.js";
import { runCli, spawnCli } from "../integration/session/session-cli.js";

const server = useRedisServer();
let root: string;
let fake: FakeOllama;

beforeAll(async () => {
  root = buildAcmeShop();
  fake = await new FakeOllama().start();
});
afterAll(async () => {
  await fake.close();
  removeDir(root);
});
afterEach(() => {
  fake.reset();
});

const env = () => ({ IPUARO_REDIS_URL: server().url, OLLAMA_HOST: fake.url, XDG_CONFIG_HOME: path.join(root, ".xdg"), IPUARO_HOME: path.join(root, ".home") });

async function waitFor(what: string, cond: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Starts `ipuaro run`, waits until the fake has received `requests` chat requests, then SIGKILLs it. */
async function killDuringRequest(prompt: string, requests: number, extra: string[] = []): Promise<void> {
  const running = spawnCli(["run", "-p", prompt, root, ...extra], env());
  await waitFor(`chat request #${requests}`, () => fake.chatRequests.length >= requests || running.child.exitCode !== null);
  expect(running.child.exitCode).toBeNull();
  await sleep(50); // the request is being answered (slowly, or not at all)
  running.child.kill("SIGKILL");
  const r = await running.done;
  expect(r.signal).toBe("SIGKILL");
}

async function show(id: string) {
  const r = await runCli(["sessions", "show", id, root, "--json"], env());
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

async function lastSessionId(): Promise<string> {
  const r = await runCli(["sessions", "list", root, "--json"], env());
  return JSON.parse(r.stdout).sessions[0].id;
}

/** Every message of tool results follows an assistant message with as many calls. */
function expectWellFormed(messages: ChatMessage[]): void {
  messages.forEach((m, i) => {
    const results = [...m.content.matchAll(/<tool_result name="[^"]*" call_id="call_\d+"/g)].length;
    if (results === 0) return;
    const prev = messages[i - 1]!;
    expect(prev.role).toBe("assistant");
    expect([...prev.content.matchAll(/<tool_call[\s>]/g)].length + (prev.tool_calls?.length ?? 0)).toBe(results);
  });
}

describe("kill -9 during a turn", () => {
  it("keeps the question, the call and its result when killed while the next request hangs; --continue goes on", async () => {
    fake.reply().text('<tool_call name="get_lines"><path>packages/core/src/money.ts</path><start>8</start><end>9</end></tool_call>');
    fake.reply().hang();
    await killDuringRequest("Where is Money defined?", 2);

    const id = await lastSessionId();
    const shown = await show(id);
    expect(shown.history.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(shown.history[0].content).toBe("Where is Money defined?");
    expect(shown.history[1].toolCalls).toEqual([{ id: "call_1", name: "get_lines", parameters: { path: "packages/core/src/money.ts", start: "8", end: "9" } }]);
    expect(shown.history[2].toolResults).toEqual([{ callId: "call_1", name: "get_lines", success: true, summary: expect.stringMatching(/lines/) }]);
    expect(shown.history[2].content).toContain("8│ export class Money implements MoneyLike {");
    expect(shown.repairedCalls).toBe(0);

    fake.reset();
    fake.reply().text("Money is defined at packages/core/src/money.ts:8.");
    const r = await runCli(["run", "--continue", "-p", "Go on.", root, "--json"], env());
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).session).toBe(id);
    const sent = fake.chatRequests[0]!.messages.filter((m) => m.role !== "system");
    // The turn the kill cut short got no answer: the model reads that, not two user messages in a row.
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(sent[2]!.content).toContain('<tool_result name="get_lines" call_id="call_1" ok="true">');
    expect(sent[3]!.content).toBe("[This answer was cut off: ipuaro stopped before it was complete.]");
    expect(sent[4]!.content).toBe("Go on.");
    expectWellFormed(sent);
    expect(fake.violations).toEqual([]);
    fake.assertAllConsumed();
  });

  it("keeps the reply streamed so far as the turn's outcome when killed mid-stream; the model reads it as cut off", async () => {
    const slow = "I will now explain everything about money in great detail. ".repeat(20);
    fake.reply().text(slow).chunkDelay(30);
    const running = spawnCli(["run", "-p", "Explain money.ts", root], env());
    // Killed after a second and a half of streaming: the draft is saved about once a second.
    await waitFor("the reply streaming", () => running.stdout().length > 160 || running.child.exitCode !== null);
    await sleep(1200);
    const streamed = running.stdout().trim();
    running.child.kill("SIGKILL");
    expect((await running.done).signal).toBe("SIGKILL");
    const id = await lastSessionId();
    const shown = await show(id);
    expect(shown.history).toHaveLength(1);
    const outcome: string = shown.history[0].outcome;
    expect(outcome).toMatch(/^I will now explain everything about money/);
    expect(outcome).toMatch(/\n\[interrupted: ipuaro stopped while the reply streamed\]$/);
    // Saved at most a second before the kill: most of what was printed.
    const kept = outcome.replace(/\n\[interrupted[^\]]*\]$/, "");
    expect(streamed.startsWith(kept)).toBe(true);
    expect(kept.length).toBeGreaterThan(80);
    const text = await runCli(["sessions", "show", id, root], env());
    expect(text.stdout).toContain("── (no answer: I will now explain everything");

    fake.reset();
    fake.reply().text("Short version: it stores cents.");
    const r = await runCli(["run", "--session", id, "-p", "Short version please.", root], env());
    expect(r.code, r.stderr).toBe(0);
    const sent = fake.chatRequests[0]!.messages.filter((m) => m.role !== "system").map((m) => m.content);
    expect(sent).toEqual(["Explain money.ts", `${kept.trim()}\n\n[This answer was cut off: ipuaro stopped before it was complete.]`, "Short version please."]);
    const after = await show(id);
    expect(after.history).toHaveLength(3);
    expect(after.history[0].outcome).toBe(outcome);
  });

  it("a rewind past a command that was running when ipuaro was killed says its changes are not known", async () => {
    const logger = path.join(root, "packages/core/src/logger.ts");
    const before = fs.readFileSync(logger, "utf8");
    const script = "require('fs').rmSync('packages/core/src/logger.ts'); setTimeout(() => {}, 20000)";
    fake.reply().text(`<tool_call name="run_command"><command>node -e "${script}"</command></tool_call>`);
    const running = spawnCli(["run", "--auto-apply", "--allow-commands", "-p", "Clean up", root], env());
    try {
      await waitFor("the command's deletion", () => !fs.existsSync(logger) || running.child.exitCode !== null);
      expect(running.child.exitCode).toBeNull();
      running.child.kill("SIGKILL");
      await running.done;
      const r = await runCli(["rewind", "1", "--mode", "code", "--dry-run", root], env());
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain("warning: ipuaro stopped while `node -e");
      expect(r.stdout).toContain("the files it changed are not known, so this rewind may not undo them");
      expect(r.stdout).not.toContain("no code changes");
    } finally {
      // The command's own process group outlives the kill of ipuaro; the file comes back for the next tests.
      spawnSync("pkill", ["-f", "setTimeout\\(\\(\\) => \\{\\}, 20000\\)"]);
      fs.writeFileSync(logger, before);
    }
  });

  it("answers a call left running by a killed process with 'cancelled' on the next start", async () => {
    // The state a kill leaves when it lands while a tool runs: the reply with its call is stored, no result.
    const redis = new Redis({ path: server().socket });
    try {
      const { config } = loadConfig({ projectRoot: root, env: { ...env() } });
      const { session } = await openSession({ redis, projectName: projectNameFor(root), root, config, choice: { kind: "new" } });
      await session.appendMessage({ role: "user", content: "Show the structure", timestamp: Date.now() });
      await session.appendMessage({
        role: "assistant",
        content: '<tool_call name="get_structure"></tool_call>',
        timestamp: Date.now(),
        toolCalls: [{ id: session.nextCallId(), name: "get_structure", parameters: {} }],
      });
      const before = await show(session.id);
      expect(before.repairedCalls).toBe(1); // shown as the next run will see it…
      expect(before.history.at(-1).toolResults[0]).toMatchObject({ success: false, synthetic: true });

      fake.reply().text("Let me look again.\n<tool_call name=\"get_structure\"><path>packages/core</path></tool_call>");
      fake.reply().text("packages/core has money.ts and logger.ts.");
      const r = await runCli(["run", "--continue", "-p", "Try again.", root], env());
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain("1 call(s) the last run left unfinished were marked cancelled");
      const sent = fake.chatRequests[0]!.messages.filter((m) => m.role !== "system");
      expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
      expect(sent[3]!.content).toBe("[This answer was cut off: ipuaro stopped before it was complete.]");
      expect(sent[2]!.content).toContain('<tool_result name="get_structure" call_id="call_1" ok="false">');
      expect(sent[2]!.content).toContain("cancelled: ipuaro stopped before this call finished");
      expect(fake.violations).toEqual([]);
      const after = await show(session.id);
      expect(after.repairedCalls).toBe(0); // …and written once it was opened for a run
      expect(after.history.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "tool", "user", "assistant", "tool", "assistant"]);
      expect(after.history[4].toolCalls[0].id).toBe("call_2");
    } finally {
      redis.disconnect();
    }
  });
});

describe("Ctrl+C during a turn", () => {
  it("ends the turn cleanly, as Esc does in the TUI: exit code 130, the question kept, and the session goes on", async () => {
    const slow = "Money keeps amounts in cents so that sums never drift. ".repeat(40);
    fake.reply().text(slow).chunkDelay(30);
    const running = spawnCli(["run", "-p", "Explain money.ts", root], env());
    await waitFor("the reply streaming", () => running.stdout().length > 40 || running.child.exitCode !== null);
    expect(running.child.exitCode).toBeNull();
    running.child.kill("SIGINT");
    const r = await running.done;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain("stopping… (Ctrl+C again to quit at once)");
    expect(r.stderr).toContain("[interrupted]");
    // What streamed before the stop is counted (estimated): not "0 tokens".
    expect(r.stderr).toMatch(/⏱ [\d.]+s │ [1-9][\d,]* tokens │ 0 tool calls/);
    expect(r.stderr).not.toMatch(/\n\s+at /);

    // The reply cut short is not stored as an answer: the next request has it with a note that it was interrupted.
    const id = await lastSessionId();
    expect(((await show(id)).history as { role: string; content: string }[]).map((m) => [m.role, m.content])).toEqual([["user", "Explain money.ts"]]);

    fake.reset();
    fake.reply().text("In short: cents.");
    const next = await runCli(["run", "--continue", "-p", "In short?", root], env());
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toContain("In short: cents.");
    const sent = fake.chatRequests[0]!.messages.filter((m) => m.role !== "system").map((m) => m.content);
    expect(sent).toHaveLength(3);
    expect(sent[0]).toBe("Explain money.ts");
    expect(sent[1]).toMatch(/^Money keeps amounts in cents[\s\S]*\n\n\[The user interrupted this answer\.\]$/);
    expect(sent[2]).toBe("In short?");
  });
});
