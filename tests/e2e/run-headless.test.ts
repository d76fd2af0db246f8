import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runIpuaro } from "../helpers/cli.js";
import { FakeOllama, unusedLoopbackUrl } from "../helpers/fake-ollama.js";
import { buildAcmeShop } from "../helpers/indexed-project.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { removeDir } from "../helpers/temp-dir.js";

const server = useRedisServer();
let root: string;
let fake: FakeOllama;

beforeAll(async () => {
  root = buildAcmeShop();
});
afterAll(() => removeDir(root));
afterEach(async () => {
  await fake?.close();
});

function env(ollama: string): NodeJS.ProcessEnv {
  return { IPUARO_REDIS_URL: server().url, OLLAMA_HOST: ollama, XDG_CONFIG_HOME: path.join(root, ".xdg"), IPUARO_HOME: path.join(root, ".home") };
}

async function startFake(opts: ConstructorParameters<typeof FakeOllama>[0] = {}) {
  fake = await new FakeOllama(opts).start();
  return fake;
}

describe("ipuaro run (headless) against a fake Ollama", () => {
  it("answers a question with get_structure and get_lines, sending num_ctx and no code in the context", async () => {
    await startFake();
    fake.reply().text("Let me look at the structure first.\n<tool_call name=\"get_structure\"><path>packages/core</path></tool_call>");
    fake.reply().text('<tool_call>{"name": "get_lines", "arguments": {"path": "packages/core/src/money.ts", "start": 8, "end": 12}}</tool_call>');
    fake.reply().text("`Money` is defined in packages/core/src/money.ts at line 8; it implements MoneyLike.");
    const r = await runIpuaro(["run", "-p", "Где определён класс Money?", root], { env: env(fake.url) });
    expect(r.stderr).toContain("[get_structure packages/core]");
    expect(r.stderr).toContain("[get_lines packages/core/src/money.ts 8-12]\n  5 lines\n");
    expect(r.stdout).toContain("`Money` is defined in packages/core/src/money.ts");
    expect(r.stdout).not.toContain("<tool_call");
    expect(r.stderr).toMatch(/⏱ \d+\.\ds │ [\d,]+ tokens │ 2 tool calls/);
    expect(r.code).toBe(0);
    const chats = fake.chatRequests;
    expect(chats).toHaveLength(3);
    for (const c of chats) expect(c.numCtxSent).toBe(32768); // 128000 capped by the model's own context length
    // The default window cut to the model's is not said (only a window the user set is; /status and doctor show the one in use).
    expect(r.stderr).not.toContain("llm.contextWindow is");
    const system = chats[0]!.messages[0]!.content;
    expect(system).toContain("get_lines");
    expect(system).toContain("Money");
    expect(system).not.toContain("this.#cents = Math.round(amount * 100);");
    const last = chats[2]!.messages.at(-1)!.content;
    expect(last).toContain('<tool_result name="get_lines"');
    expect(last).toContain(" 8│ export class Money implements MoneyLike {");
    const structure = chats[1]!.messages.at(-1)!.content;
    expect(structure).toContain("money.ts (");
    expect(fake.violations).toEqual([]);
  });

  it("says when a context window the user chose is more than the model has", async () => {
    fs.writeFileSync(path.join(root, ".ipuaro.json"), JSON.stringify({ llm: { contextWindow: 65536 } }));
    try {
      await startFake();
      fake.reply().text("ok");
      const r = await runIpuaro(["run", "-p", "hi", root], { env: env(fake.url) });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`llm.contextWindow is 65536 tokens (set in ${path.join(root, ".ipuaro.json")}) but qwen2.5-coder:7b-instruct supports 32768; using 32768.`);
    } finally {
      fs.rmSync(path.join(root, ".ipuaro.json"), { force: true });
    }
  });

  it("prints an answer that talks about tool-call tags in full (quoted or in a code block, they are no calls)", async () => {
    await startFake();
    const answer = 'The parser looks for `<tool_call` tags, like this one:\n```ts\nconst open = "<tool_call name=\\"x\\">";\n```\nNothing else starts a call.';
    fake.reply().text(answer);
    const r = await runIpuaro(["run", "-p", "How are calls found?", root], { env: env(fake.url) });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(answer);
  });

  it("keeps the share of the window context.maxContextUsage leaves for the answer: a request past it is not sent", async () => {
    await startFake();
    const pasted = Array.from({ length: 600 }, (_, i) => `line ${i}: const value${i} = compute(${i}, "some text to make it long");`).join("\n");
    fs.writeFileSync(path.join(root, ".ipuaro.json"), JSON.stringify({ context: { maxContextUsage: 0.3 } }));
    try {
      const refused = await runIpuaro(["run", "-p", `What is wrong here?\n${pasted}`, root], { env: env(fake.url) });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/Your message is about [\d,]+ tokens: .* more than the 9,830 \(30% of the 32,768-token context window\) a request may fill/);
      expect(refused.stderr).toContain("raise context.maxContextUsage");
      expect(fake.chatRequests).toHaveLength(0);
    } finally {
      fs.rmSync(path.join(root, ".ipuaro.json"), { force: true });
    }
    // The default (0.8) leaves it room.
    fake.reply().text("ok");
    const sent = await runIpuaro(["run", root], { env: env(fake.url), input: `What is wrong here?\n${pasted}` });
    expect(sent.code, sent.stderr).toBe(0);
    expect(fake.chatRequests).toHaveLength(1);
  });

  it("refuses a message larger than the context window instead of letting Ollama cut the instructions off", async () => {
    await startFake();
    const pasted = Array.from({ length: 4000 }, (_, i) => `line ${i}: const value${i} = compute(${i}, "some text to make it long");`).join("\n");
    const r = await runIpuaro(["run", root], { env: env(fake.url), input: `What is wrong here?\n${pasted}` });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Your message is about [\d,]+ tokens: .* more than the context window of 32,768/);
    expect(r.stderr).toContain("name a file with @path instead of pasting it");
    expect(fake.chatRequests).toHaveLength(0);
    const json = await runIpuaro(["run", root, "--json"], { env: env(fake.url), input: `What is wrong here?\n${pasted}` });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ reason: "error", error: { type: "llm", code: "MESSAGE_TOO_LARGE", message: expect.stringContaining("was not sent") } });
    expect(fake.chatRequests).toHaveLength(0);
  });

  it("keeps a call written as a json block out of the printed answer, and starts the next round on a new line", async () => {
    await startFake();
    fake.reply().text('Reading it.\n```json\n{"name": "get_lines", "arguments": {"path": "packages/core/src/utils/strings.ts", "start": 1, "end": 3}}\n```');
    fake.reply().text("slugify is on line 2.");
    const r = await runIpuaro(["run", "-p", "Where is slugify?", root], { env: env(fake.url) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Reading it.\nslugify is on line 2.\n");
    expect(r.stderr).toContain("[get_lines packages/core/src/utils/strings.ts 1-3]");
  });

  it("says when the model's answer is empty (exit 1) or cut off for lack of room", async () => {
    await startFake();
    fake.reply().text("  \n");
    const empty = await runIpuaro(["run", "-p", "hi", root], { env: env(fake.url) });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("The model gave an empty answer");

    fake.reply().text("The three steps are: first, read the file; second,").doneReason("length");
    const cut = await runIpuaro(["run", "-p", "steps?", root, "--json"], { env: env(fake.url) });
    expect(cut.code).toBe(0);
    expect(JSON.parse(cut.stdout).warnings).toEqual([expect.stringContaining("this reply is cut off")]);
  });

  it("takes the message piped in when there is no -p", async () => {
    await startFake();
    fake.reply().text("Класс `Money` — в packages/core/src/money.ts 💰");
    const r = await runIpuaro(["run", root], { env: env(fake.url), input: "Где определён класс Money?\n" });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Класс `Money` — в packages/core/src/money.ts 💰");
    expect(fake.chatRequests[0]!.messages.at(-1)).toMatchObject({ role: "user", content: "Где определён класс Money?" });
  });

  it("without --auto-apply runs no command that needs confirmation, and tells the model nobody could confirm", async () => {
    await startFake();
    fake.reply().toolCall("run_command", { command: "touch made-by-model.txt" });
    fake.reply().text("Run `touch made-by-model.txt` yourself.");
    const r = await runIpuaro(["run", "-p", "create the file", root], { env: env(fake.url) });
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(root, "made-by-model.txt"))).toBe(false);
    const result = fake.chatRequests[1]!.messages.at(-1)!.content;
    expect(result).toContain("nobody can confirm in this run");
    expect(result).not.toContain("declined");
  });

  it("--auto-apply applies edits but runs a command the policy asks about only with --allow-commands", async () => {
    await startFake();
    fake.reply().toolCall("run_command", { command: "touch made-unasked.txt" });
    fake.reply().text("Could not run it.");
    const r = await runIpuaro(["run", "--auto-apply", "-p", "create the file", root], { env: env(fake.url) });
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(root, "made-unasked.txt"))).toBe(false);
    expect(fake.chatRequests[1]!.messages.at(-1)!.content).toContain("nobody can confirm in this run");
    fake.reset();
    fake.reply().toolCall("run_command", { command: "touch made-unasked.txt" });
    fake.reply().text("Done.");
    const allowed = await runIpuaro(["run", "--auto-apply", "--allow-commands", "-p", "create the file", root], { env: env(fake.url) });
    expect(allowed.code).toBe(0);
    expect(fs.existsSync(path.join(root, "made-unasked.txt"))).toBe(true);
    fs.rmSync(path.join(root, "made-unasked.txt"));
  });

  it("a search after a command changed a file answers from the changed file (no watcher runs here)", async () => {
    await startFake();
    const rel = "packages/core/src/money.ts";
    const before = fs.readFileSync(path.join(root, rel), "utf8");
    const line = before.split("\n").findIndex((l) => l.startsWith("export class Money")) + 1;
    fake.reply().toolCall("run_command", { command: `node -e "const f='${rel}';const fs=require('fs');fs.writeFileSync(f,'// one\\n// two\\n// three\\n'+fs.readFileSync(f,'utf8'))"` });
    fake.reply().toolCall("find_definition", { symbol: "Money" });
    fake.reply().text("Moved down by three lines.");
    try {
      const r = await runIpuaro(["run", "--allow-commands", "-p", "add a header, then find Money", root], { env: env(fake.url) });
      expect(r.code, r.stderr).toBe(0);
      expect(fake.chatRequests[2]!.messages.at(-1)!.content).toContain(`${rel}:${line + 3}`);
    } finally {
      fs.writeFileSync(path.join(root, rel), before);
    }
  });

  it("recovers from a malformed call: the model gets the expected form and tries again", async () => {
    await startFake();
    fake.reply().text('<tool_call>{"name": "get_lines", "arguments": {"path": </tool_call>');
    fake.reply().text('<tool_call name="get_lines"><path>packages/core/src/utils/strings.ts</path><start>one</start></tool_call>');
    fake.reply().text('<tool_call name="get_lines"><path>packages/core/src/utils/strings.ts</path><start>2</start><end>3</end></tool_call>');
    fake.reply().text("slugify is on line 2.");
    const r = await runIpuaro(["run", "-p", "where is slugify?", root], { env: env(fake.url) });
    expect(r.code).toBe(0);
    const second = fake.chatRequests[1]!.messages.at(-1)!.content;
    expect(second).toContain('ok="false"');
    expect(second).toMatch(/tool_call/);
    const third = fake.chatRequests[2]!.messages.at(-1)!.content;
    expect(third).toContain("Invalid arguments for get_lines");
    expect(third).toContain("Expected get_lines(path: string, start?: integer, end?: integer)");
    const fourth = fake.chatRequests[3]!.messages.at(-1)!.content;
    expect(fourth).toContain("2│ export function slugify(input: string): string {");
    expect(r.stdout).toContain("slugify is on line 2.");
    // The call that could not be read is on stderr like the others, with the reason, and counted.
    expect(r.stderr).toContain("[get_lines]\n  ✗ incomplete call: the reply ended in the middle of the call's JSON\n");
    expect(r.stderr).toMatch(/│ 3 tool calls/);
  });

  it("shows a call the reply cut off, or to a tool that does not exist, and starts the next reply on its own line", async () => {
    await startFake();
    fake.reply().text('Let me check <tool_call name="get_lines"><path>packages/core/src/money.ts</path><start>abc</start>');
    fake.reply().text('Or this.\n<tool_call name="frobnicate"><target>all</target></tool_call>');
    fake.reply().text("Next");
    const r = await runIpuaro(["run", "-p", "what does money.ts start with?", root], { env: env(fake.url) });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Let me check *\nOr this\.\n+Next\n$/);
    expect(r.stderr).toContain("[get_lines]\n  ✗ incomplete call: the reply ended before </tool_call>\n");
    expect(r.stderr).toContain("[frobnicate]\n  ✗ unknown tool\n");
    expect(r.stderr).toMatch(/│ 2 tool calls/);
    expect(fake.chatRequests[1]!.messages.at(-1)!.content).toContain("The tool call is incomplete");
  });

  it("answers a native call to a tool that does not exist with the list of tools, and the turn goes on", async () => {
    await startFake();
    fake.reply().toolCall("read_file", { path: "packages/core/src/money.ts" });
    fake.reply().text("Money is in packages/core/src/money.ts.");
    const r = await runIpuaro(["run", "-p", "where is Money?", root], { env: env(fake.url) });
    expect(r.stderr).not.toContain("unregistered tool");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Money is in packages/core/src/money.ts.");
    const result = fake.chatRequests[1]!.messages.at(-1)!.content;
    expect(result).toContain('There is no tool named "read_file"');
    expect(result).toContain("get_lines");
  });

  it("stops a runaway loop at agent.maxToolRounds, explains why, and prints the answer asked for without tools", async () => {
    fs.writeFileSync(path.join(root, ".ipuaro.json"), JSON.stringify({ agent: { maxToolRounds: 3 } }));
    try {
      await startFake();
      for (let i = 1; i <= 3; i++) fake.reply().text(`<tool_call name="get_lines"><path>packages/core/src/money.ts</path><start>${i}</start><end>${i}</end></tool_call>`);
      fake.reply().text("From lines 1-3 alone: money.ts starts with its imports.");
      const r = await runIpuaro(["run", "-p", "loop forever", root], { env: env(fake.url) });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("Stopped after 3 consecutive tool rounds");
      expect(r.stdout).toContain("From lines 1-3 alone: money.ts starts with its imports.");
      expect(fake.chatRequests).toHaveLength(4);
      expect(fake.chatRequests[3]!.messages.at(-1)!.content).toContain("Tools are no longer available");
      // The session shows why the tools stopped, and that the turn still has its answer.
      const sessions = JSON.parse((await runIpuaro(["sessions", "list", root, "--json"], { env: env(fake.url) })).stdout).sessions as Array<{ id: string; lastActivityAt: number }>;
      const newest = sessions.sort((a, b) => b.lastActivityAt - a.lastActivityAt)[0]!;
      const shown = (await runIpuaro(["sessions", "show", newest.id, root], { env: env(fake.url) })).stdout;
      expect(shown).toContain("── (Stopped after 3 consecutive tool rounds");
      expect(shown).not.toContain("no answer:");
      expect(shown.trimEnd().endsWith("From lines 1-3 alone: money.ts starts with its imports.")).toBe(true);
    } finally {
      fs.rmSync(path.join(root, ".ipuaro.json"));
    }
  });

  it("stops the same call repeated three times in a row (doom loop)", async () => {
    await startFake();
    for (let i = 0; i < 3; i++) fake.reply().text('<tool_call name="get_structure"></tool_call>');
    fake.reply().text("A shop with a core package.");
    const r = await runIpuaro(["run", "-p", "what is here?", root, "--json"], { env: env(fake.url) });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout.trim());
    expect(out.reason).toBe("doom-loop");
    expect(out.answer).toBe("A shop with a core package.");
    expect(out.stopped).toContain("same arguments 3 times");
    expect(out.toolCalls).toHaveLength(3);
  });

  it("a model failure mid-answer is said once, and the streamed part still ends its line", async () => {
    await startFake();
    fake.reply().text("The answer starts here and").streamError("the runner crashed", 1);
    const r = await runIpuaro(["run", "-p", "hi", root], { env: env(fake.url) });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^The [^\n]*\n$/);
    expect(r.stderr.match(/the runner crashed/g)).toHaveLength(1);
    // The session keeps how the turn ended, for showing it again (never sent to the model).
    const sessions = JSON.parse((await runIpuaro(["sessions", "list", root, "--json"], { env: env(fake.url) })).stdout).sessions as Array<{ id: string; lastActivityAt: number }>;
    const newest = sessions.sort((a, b) => b.lastActivityAt - a.lastActivityAt)[0]!;
    const shown = JSON.parse((await runIpuaro(["sessions", "show", newest.id, root, "--json"], { env: env(fake.url) })).stdout);
    expect(shown.history[0]).toMatchObject({ role: "user", content: "hi", outcome: expect.stringContaining("the runner crashed") });
    const text = (await runIpuaro(["sessions", "show", newest.id, root], { env: env(fake.url) })).stdout;
    expect(text).toMatch(/── \(no answer: .*the runner crashed/);
  });

  it("a connection lost mid-answer keeps the streamed part: plain mode ends its line, --json has it, the error and the request", async () => {
    await startFake({ chunkSize: 4 });
    fake.reply().text("Hello this is cut").disconnectMidStream(3);
    const plain = await runIpuaro(["run", "-p", "hi", root], { env: env(fake.url) });
    expect(plain.code).toBe(1);
    expect(plain.stdout).toBe("Hello this i\n");
    expect(plain.stderr).toContain("The connection to Ollama");

    fake.reply().text("Hello this is cut").disconnectMidStream(3);
    const j = await runIpuaro(["run", "-p", "hi", root, "--json"], { env: env(fake.url) });
    expect(j.code).toBe(1);
    const out = JSON.parse(j.stdout);
    expect(out).toMatchObject({ answer: "Hello this i", cutOff: true, reason: "aborted", error: { type: "llm", message: expect.stringContaining("The connection to Ollama") } });
    expect(out.stats.requests).toBe(1);
    expect(out.stats.tokens).toBeGreaterThan(0);
    // A failure before any text: no answer, nothing cut off, the error alone.
    fake.reply().httpError(500, "runner crashed");
    const none = JSON.parse((await runIpuaro(["run", "-p", "hi", root, "--json"], { env: env(fake.url) })).stdout);
    expect(none).toMatchObject({ answer: "", reason: "aborted", error: { message: expect.stringContaining("runner crashed") } });
    expect(none.cutOff).toBeUndefined();
  });

  it("a request Ollama refuses outright (HTTP 400) is said with its reason, and --json carries it", async () => {
    await startFake();
    fake.reply().httpError(400, "invalid options: num_ctx must be positive");
    const r = await runIpuaro(["run", "-p", "hi", root], { env: env(fake.url) });
    expect(r.code).toBe(1);
    expect(r.stderr.match(/num_ctx must be positive/g)).toHaveLength(1);

    fake.reply().httpError(400, "invalid options: num_ctx must be positive");
    const j = await runIpuaro(["run", "-p", "hi", root, "--json"], { env: env(fake.url) });
    expect(j.code).toBe(1);
    const out = JSON.parse(j.stdout);
    expect(out.reason).toBe("error");
    expect(out.error).toMatchObject({ type: "llm", message: expect.stringContaining("num_ctx must be positive") });
  });

  it("with llm.autoRetry, retries a failed request twice on its own and answers", async () => {
    await startFake();
    const config = path.join(root, ".ipuaro.json");
    fs.writeFileSync(config, JSON.stringify({ llm: { autoRetry: true } }));
    try {
      fake.reply().httpError(500, "runner restarting");
      fake.reply().httpError(500, "runner restarting");
      fake.reply().text("Back again.");
      const r = await runIpuaro(["run", "-p", "hi", root], { env: env(fake.url) });
      expect(r.code).toBe(0);
      expect(r.stdout.trim()).toBe("Back again.");
      expect(fake.chatRequests).toHaveLength(3);
      expect(r.stderr).toContain("llm.autoRetry: again in 2 s, 2 of 3");
    } finally {
      fs.rmSync(config, { force: true });
    }
  });

  it("says which URL it tried and how to start Ollama when it is down", async () => {
    const url = await unusedLoopbackUrl();
    const r = await runIpuaro(["run", "-p", "hi", root], { env: env(url) });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(new URL(url).host);
    expect(r.stderr).toContain("ollama serve");
  });

  it("tells how to install a missing model when there is no terminal to offer a pull", async () => {
    await startFake({ models: [] });
    const r = await runIpuaro(["run", "-p", "hi", root], { env: env(fake.url) });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("ollama pull qwen2.5-coder:7b-instruct");
    expect(fake.chatRequests).toHaveLength(0);
  });
});
