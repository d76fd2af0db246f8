// Rewind through the whole TUI against the real services (Redis, the checkpoint tracker, the fake
// Ollama): the model creates a file and edits another, Esc Esc lists the point with its stats, B rewinds
// both, the files are as before and the message is back in the input; Esc on a turn the model has not
// answered yet takes the message off the conversation and back into the input.
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

const MONEY = "packages/core/src/money.ts";
const COUPON = "packages/core/src/coupon.ts";

beforeAll(async () => {
  root = buildAcmeShop();
  fs.writeFileSync(path.join(root, ".ipuaro.json"), JSON.stringify({ indexing: { workers: 1 }, edit: { autoApply: true } }));
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

function stubEnv(): void {
  stubTuiEnv({ redisUrl: server().url, ollamaUrl: fake.url, root });
}

describe("rewind in the TUI over the real runtime", () => {
  it("Esc Esc → the point with its stats → B: files restored, the message back in the input; Esc restores an unanswered message", async () => {
    stubEnv();
    const moneyBefore = fs.readFileSync(path.join(root, MONEY), "utf8");
    t = createHeadlessTerminal({ cols: 110, rows: 40 });
    const exited = runTui(root, { streams: t.streams, new: true });
    await t.waitForText("[watching]", 30_000);

    fake.reply().toolCall("create_file", { path: COUPON, content: "export const TEN = 10;\nexport const FIVE = 5;\n" });
    fake.reply().toolCall("get_lines", { path: MONEY, start: 1, end: 3 });
    fake.reply().toolCall("edit_lines", { path: MONEY, start: 1, end: 1, content: "// money, in cents" });
    fake.reply().text("Готово: купоны добавлены.");
    t.type("Добавь купоны", KEYS.enter);
    await t.waitForText("Готово: купоны добавлены.", 20_000);
    // The turn's stats line: the answer is complete (Esc before it would stop the answer, rightly).
    await t.waitForText("3 tool calls", 20_000);
    expect(fs.existsSync(path.join(root, COUPON))).toBe(true);
    expect(fs.readFileSync(path.join(root, MONEY), "utf8")).not.toBe(moneyBefore);

    // Two reads, back to back: waiting in between could outlast DOUBLE_ESCAPE_MS on a loaded machine.
    t.type(KEYS.escape);
    t.type(KEYS.escape);
    await t.waitForText("Rewind to before…");
    const row = t.find("1. Добавь купоны");
    expect(row).not.toBeNull();
    expect(t.lines()[row!.y]).toMatch(/2 files \+\d+ −\d+/);
    t.type(KEYS.enter);
    await t.waitForText("Rewind to before message 1");
    await t.waitForText(`delete  ${COUPON}`);
    await t.waitForText(`restore ${MONEY}`);
    t.type("b");
    await t.waitForText("Rewound both to before message 1", 10_000);
    await t.waitForText("> Добавь купоны");
    expect(fs.existsSync(path.join(root, COUPON))).toBe(false);
    expect(fs.readFileSync(path.join(root, MONEY), "utf8")).toBe(moneyBefore);
    // The conversation is back to before the message: the answer is gone from the chat.
    expect(t.find("Готово: купоны добавлены.")).toBeNull();

    t.type("\x15"); // Ctrl+U
    fake.reply().hang();
    t.type("второй вопрос", KEYS.enter);
    await t.waitForText("User: второй вопрос");
    t.type(KEYS.escape);
    await t.waitForText("Stopped; the message is back in the input.", 10_000);
    await t.waitForText("> второй вопрос");
    expect(t.find("User: второй вопрос")).toBeNull();

    // Neither the rewound message nor the taken-back one is left to rewind to.
    t.type("\x15");
    t.type("/rewind", KEYS.enter);
    await t.waitForText("Nothing to rewind yet: this conversation has no messages.");
    t.type(KEYS.ctrlD);
    expect(await exited).toBe(0);
  }, 90_000);

  it("the context figure follows a rewind and stays right after a restart; abort at a failed request gives the message back", async () => {
    stubEnv();
    // A reply the test before queued for a request its Esc stopped before it went out.
    fake.reset();
    const ctx = (term: HeadlessTerminal) => Number(/\[ctx: (\d+)%\]/.exec(term.lines()[0]!)?.[1] ?? NaN);
    t = createHeadlessTerminal({ cols: 110, rows: 40 });
    let exited = runTui(root, { streams: t.streams, new: true, typeAheadGuardMs: 0 });
    await t.waitForText("[watching]", 30_000);
    fake.reply().text("Short answer.");
    t.type("First question", KEYS.enter);
    await t.waitForText("Short answer.", 20_000);
    // The turn's end: the figure shown while the reply streams is an estimate the server's count replaces.
    await t.waitFor(() => t!.lines()[0]!.includes("✓"), "the ready mark", 20_000);
    await t.waitFor(() => ctx(t!) > 0, "the context fill");
    const small = ctx(t);
    // A long answer (≈ 6,000 tokens of the fake's 32K window) fills the context.
    const long = "The money module keeps every amount in integer cents to avoid drift. ".repeat(350);
    fake.reply().text(long);
    t.type("Second question", KEYS.enter);
    // ≈6,000 four-character chunks: a loaded machine needs well over 20 s to stream them.
    await t.waitFor(() => ctx(t!) >= small + 10, "the context to fill", 60_000);
    // Esc while the reply still streams would stop it instead of opening the rewind list.
    await t.waitFor(() => t!.lines()[0]!.includes("✓"), "the ready mark", 60_000);
    const big = ctx(t);

    // Rewound to before the second message: the figure is the shorter history's at once, and /status agrees.
    t.type(KEYS.escape);
    t.type(KEYS.escape);
    await t.waitForText("Rewind to before…");
    t.type(KEYS.enter);
    await t.waitForText("Rewind to before message 2");
    t.type("c");
    await t.waitForText("Rewound conversation to before message 2", 10_000);
    await t.waitFor(() => ctx(t!) < big - 10, `the context figure to drop from ${big}%`);
    const rewound = ctx(t);
    t.type("\x15", "/status", KEYS.enter);
    await t.waitFor(() => new RegExp(`\\(${rewound}%, estimated\\)`).test(t!.text()), "/status's context row to agree");
    // The stats count every turn; the conversation now holds one message of the user's.
    await t.waitFor(() => /1 message of yours in the conversation now; 2 turns in all/.test(t!.text().replace(/\s+/g, " ")), "the session row");
    t.type(KEYS.ctrlD);
    expect(await exited).toBe(0);

    // A restart shows the rewound history's size, not the count from before the rewind.
    t.dispose();
    t = createHeadlessTerminal({ cols: 110, rows: 40 });
    exited = runTui(root, { streams: t.streams, typeAheadGuardMs: 0 });
    await t.waitForText("[watching]", 30_000);
    await t.waitFor(() => ctx(t!) > 0, "the context fill after the restart");
    expect(ctx(t)).toBeLessThan(big - 10);
    expect(Math.abs(ctx(t) - rewound)).toBeLessThanOrEqual(2);

    // A failed request answered with abort: the message goes back to the input, the error stays in the chat.
    fake.reply().httpError(500, "the runner crashed");
    t.type("Third question", KEYS.enter);
    await t.waitForText("[R] retry  [S] skip  [A] abort", 20_000);
    await t.waitFor(() => /Abort: the message is taken back and returns to the input\./.test(t!.text().replace(/[│\s]+/g, " ")), "what abort does");
    t.type("a");
    await t.waitForText("Stopped; the message is back in the input.", 10_000);
    await t.waitForText("> Third question");
    expect(t.find("User: Third question")).toBeNull();
    expect(t.text().replace(/\s+/g, " ")).toMatch(/✗ llm error: Ollama at \S+ answered HTTP 500 .* the runner crashed → abort/);
    fake.reply().text("Fine.");
    t.type(KEYS.enter);
    await t.waitForText("Agent: Fine.", 20_000);
    const sent = fake.chatRequests.at(-1)!.messages.filter((m) => m.role !== "system").map((m) => m.content);
    expect(sent).toEqual(["First question", "Short answer.", "Third question"]);
    t.type(KEYS.ctrlD);
    expect(await exited).toBe(0);
  }, 120_000);
});
