// A paste too large for any request, through the whole TUI against the real services (Redis, the
// session, the fake Ollama): refused at once with what to do, the text back in the input, the chat and
// the context fill as they were, and the next message goes on without summarising anything. A tester
// pasted ~320 KB after a few turns: 20 messages were summarised, the message was refused anyway, the
// input was empty, `[ctx: 255%]`, and the next "hi" summarised the paste.
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { runTui } from "../../src/ui/run-tui.js";
import { FakeOllama } from "../helpers/fake-ollama.js";
import { createHeadlessTerminal, KEYS, type HeadlessTerminal } from "../helpers/headless-terminal.js";
import { buildAcmeShop } from "../helpers/indexed-project.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { removeDir } from "../helpers/temp-dir.js";
import { stubTuiEnv } from "./tui-test-env.js";

const server = useRedisServer();
let root: string;
let fake: FakeOllama;
let t: HeadlessTerminal | null = null;

/** ~70 characters a line: 1,200 lines are about 22,000 tokens, past the 16,384-token window. */
const PASTE = Array.from({ length: 1200 }, (_, i) => `line ${i}: const value${i} = compute(${i}, "some text to make it long");`).join("\n");
const MESSAGE = `What is wrong here?\n${PASTE}`;

beforeAll(async () => {
  root = buildAcmeShop();
  fs.writeFileSync(path.join(root, ".ipuaro.json"), JSON.stringify({ indexing: { workers: 1 }, llm: { contextWindow: 16384 } }));
  fake = await new FakeOllama().start();
});
afterAll(async () => {
  await fake?.close();
  removeDir(root);
});
afterEach(() => {
  vi.unstubAllEnvs();
  t?.dispose();
  t = null;
});

const ctx = (term: HeadlessTerminal) => /\[ctx: [^\]]+\]/.exec(term.text())?.[0] ?? null;

describe("a message too large for any request, in the TUI over the real runtime", () => {
  it("is refused before anything is summarised or sent, and comes back in the input", async () => {
    stubTuiEnv({ redisUrl: server().url, ollamaUrl: fake.url, root });
    t = createHeadlessTerminal({ cols: 110, rows: 40 });
    const term = t;
    const exited = runTui(root, { streams: t.streams, new: true });
    await t.waitForText("[watching]", 30_000);

    fake.reply().text("Cents go in.");
    t.type("What unit goes in?", KEYS.enter);
    await t.waitForText("Cents go in.", 20_000);
    // The turn's end: the figure shown while the reply streams is an estimate the server's count replaces.
    await t.waitFor(() => term.lines()[0]!.includes("✓"), "the ready mark", 20_000);
    await t.waitFor(() => ctx(term) !== null, "the context fill in the status bar", 10_000);
    const fill = ctx(t);
    expect(fake.chatRequests).toHaveLength(1);

    t.type(KEYS.pasteStart, MESSAGE, KEYS.pasteEnd, KEYS.enter);
    await t.waitForText("Not sent: the message is back in the input.", 20_000);
    await t.waitForText("Your message is about");
    expect(t.text()).toMatch(/more than the context window of\s+16,384/);
    expect(t.text()).toContain("@path");
    // Nothing went to the model: no summary request, no request at all.
    expect(fake.chatRequests).toHaveLength(1);
    // The input has the message again (its last lines are in view), the chat has no trace of it as sent.
    await t.waitForText("line 1199: const value1199");
    expect(t.find("User: What is wrong here?")).toBeNull();
    expect(t.text()).not.toContain("compressed");
    expect(ctx(t)).toBe(fill);

    // The next message goes on from the conversation as it was: nothing to summarise, no paste in it.
    t.type(KEYS.ctrlC); // clears the prompt (↑ would bring it back)
    await t.waitForNoText("line 1199: const value1199");
    fake.reply().text("Hello.");
    t.type("hi", KEYS.enter);
    await t.waitForText("Hello.", 20_000);
    fake.assertAllConsumed();
    expect(fake.chatRequests).toHaveLength(2);
    const sent = fake.chatRequests[1]!.messages.map((m) => m.content).join("\n");
    expect(sent).toContain("What unit goes in?");
    expect(sent).not.toContain("What is wrong here?");
    expect(t.text()).not.toContain("compressed");

    t.type(KEYS.ctrlD);
    expect(await exited).toBe(0);
  }, 90_000);
});
