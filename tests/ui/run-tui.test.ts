// The whole `ipuaro [path]` start-up in-process, on a headless terminal, against a real Redis and the
// fake Ollama: the size question (→ a subdirectory), indexing inside the UI, the watcher, a streamed
// answer, /status from the real services, Tab completion from the Redis index, Ctrl+D.
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { runTui } from "../../src/ui/run-tui.js";
import { FakeOllama, unusedLoopbackUrl } from "../helpers/fake-ollama.js";
import { createHeadlessTerminal, KEYS, type HeadlessTerminal } from "../helpers/headless-terminal.js";
import { buildAcmeShop } from "../helpers/indexed-project.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { makeTempDir, removeDir } from "../helpers/temp-dir.js";
import { stubTuiEnv } from "./tui-test-env.js";

const server = useRedisServer();
let root: string;
let fake: FakeOllama;
let t: HeadlessTerminal | null = null;

beforeAll(async () => {
  root = buildAcmeShop();
  fs.writeFileSync(path.join(root, ".ipuaro.json"), JSON.stringify({ limits: { maxFilesWarning: 5 }, indexing: { workers: 1 } }));
  // Work in progress: the first index says at once which file does not parse.
  fs.writeFileSync(path.join(root, "packages/core/src/draft.ts"), "export function draft( {\n");
  // Not indexed (.md), with a space in its name: a mention of it still completes.
  fs.mkdirSync(path.join(root, "packages/core/docs"), { recursive: true });
  fs.writeFileSync(path.join(root, "packages/core/docs/my notes.md"), "# Notes\n");
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

describe("runTui", () => {
  it("asks about a large project, indexes the chosen subdirectory inside the UI, answers, and exits on Ctrl+D", async () => {
    stubEnv();
    t = createHeadlessTerminal({ cols: 100, rows: 30 });
    const exited = runTui(root, { streams: t.streams, new: true });
    await t.waitForText("A large project", 20_000);
    await t.waitForText("(more than limits.maxFilesWarning = 5)");
    await t.waitForText("[C] continue  [S] choose a subdirectory  [X] cancel");
    await t.waitFor(() => /found \d+ files; waiting for your answer/.test(t!.text()), "the progress line to say what it waits for");
    t.type("s");
    await t.waitForText("Index a subdirectory");
    // Where the files are, and Tab to complete a folder name.
    await t.waitFor(() => /packages\/\s+\d+ files\s+\(core \d+ · ui \d+\)/.test(t!.text()), "the largest folders");
    t.type("nope", KEYS.enter);
    await t.waitForText("not a folder inside");
    t.type(KEYS.backspace.repeat(4), "pa", KEYS.tab);
    await t.waitForText("> packages/");
    t.type(KEYS.tab);
    await t.waitForText("core/  ui/");
    t.type("c", KEYS.tab);
    await t.waitForText("> packages/core/");
    t.type(KEYS.enter);
    await t.waitForText("[watching]", 20_000);
    expect(t.lines()[0]).toMatch(/\[project: [^\]]*core\]/);
    // Between the index run and the watcher's first batch, the screen says what it is doing.
    expect(t.everShown("loading the index into memory for the watcher…")).toBe(true);
    expect(t.everShown("[starting…]")).toBe(true);
    expect(t.everShown("[not watching]")).toBe(false);
    await t.waitForText("Indexed ");
    await t.waitForText("1 file with syntax errors (indexed as far as they parse): src/draft.ts");

    fake.reply().text("Здравствуйте! Чем помочь?");
    t.type("Привет", KEYS.enter);
    await t.waitForText("Agent: Здравствуйте! Чем помочь?", 20_000);
    await t.waitForText("tokens │ 0 tool calls");
    expect(fake.chatRequests).toHaveLength(1);

    t.type("/status", KEYS.enter);
    await t.waitFor(() => /Redis\s+\/\S+redis\.sock, ping [\d.]+ ms/.test(t!.text()), "the Redis row");
    await t.waitForText(`Model       qwen2.5-coder:7b-instruct at`);
    // The shipped default window (128K) was cut to the model's 32K quietly: said here, never warned about
    // at start (every start, in every project, with nothing the user had set).
    await t.waitFor(() => /context window 32,768 tokens \(the model's maximum; llm\.contextWindow is 128,000\)/.test(t!.text().replace(/\s+/g, " ")), "the window in use, said quietly");
    expect(t.everShown("llm.contextWindow is 128000")).toBe(false);
    await t.waitFor(() => /Index\s+[\d,]+ files?, [\d.]+ (B|KiB|MiB|GiB) in Redis/.test(t!.text()), "the index row");
    await t.waitForText("Watcher     watching");

    // Analytics from the real store, as aligned text; a mistyped query says where the list is.
    t.type("/analyze dependency_graph src/money.ts", KEYS.enter);
    await t.waitFor(() => /root:\s+src\/money\.ts \(file, depth 1\)/.test(t!.text()), "the dependency graph");
    await t.waitFor(() => /imported by: src\/index\.ts/.test(t!.text()), "the dependents row");
    t.type("/analyze hotspot", KEYS.enter);
    await t.waitForText('query "hotspot"; use one of hotspots,');
    t.type("/analyze predict_change", KEYS.enter);
    await t.waitForText(`query "predict_change" needs target (a project file path). (/analyze predict_change FILE;`);

    t.type("/reindex", KEYS.enter);
    await t.waitForText("unchanged", 20_000);
    await t.waitForText("[watching]");

    t.type("@my", KEYS.tab);
    await t.waitForText('> @"docs/my notes.md"');
    t.type("\x15"); // Ctrl+U
    t.type("src/mo", KEYS.tab);
    await t.waitForText("> src/money.ts");
    t.type("\x15", "где Mon", KEYS.tab); // Ctrl+U clears the prompt; symbols come from the index too
    await t.waitForText("> где Money");
    t.type("\x15"); // Ctrl+U: clear the prompt
    await t.waitFor(() => t!.lines()[29]!.trim() === ">", "an empty prompt");
    t.type(KEYS.ctrlD);
    expect(await exited).toBe(0);
  }, 60_000);

  it("stops without indexing when the size question is cancelled", async () => {
    stubEnv();
    t = createHeadlessTerminal({ cols: 100, rows: 30 });
    const exited = runTui(root, { streams: t.streams, new: true });
    await t.waitForText("A large project", 20_000);
    t.type("x");
    expect(await exited).toBe(1);
  }, 60_000);

  it("asks before a first index of the home folder, and stops when told to", async () => {
    const home = makeTempDir("ipuaro-tui-home-");
    fs.writeFileSync(path.join(home, "notes.ts"), "export const n = 1;\n");
    try {
      stubTuiEnv({ redisUrl: server().url, ollamaUrl: fake.url, root: home });
      vi.stubEnv("HOME", home);
      t = createHeadlessTerminal({ cols: 100, rows: 30 });
      const exited = runTui(home, { streams: t.streams, new: true });
      await t.waitForText("Your home folder", 20_000);
      await t.waitForText("[C] index it anyway  [X] cancel");
      t.type("x");
      expect(await exited).toBe(1);
    } finally {
      removeDir(home);
    }
  }, 60_000);

  it("asks before a first index only: a project already indexed opens straight away", async () => {
    stubEnv();
    t = createHeadlessTerminal({ cols: 100, rows: 30 });
    const first = runTui(root, { streams: t.streams, new: true, yes: true });
    await t.waitForText("[watching]", 30_000);
    t.type(KEYS.ctrlD);
    expect(await first).toBe(0);
    t.dispose();

    t = createHeadlessTerminal({ cols: 100, rows: 30 });
    const again = runTui(root, { streams: t.streams, new: true });
    await t.waitForText("[watching]", 30_000);
    expect(t.text()).not.toContain("A large project");
    // A branch-switch-sized change: the status bar says it is being taken in, then watches again.
    const folder = path.join(root, "packages/core/src");
    for (let i = 0; i < 120; i++) fs.writeFileSync(path.join(folder, `switched-${i}.ts`), `export const switched${i} = ${i};\n`);
    await t.waitFor(() => t!.everShown("[updating 120 files]"), "the status bar saying the index is updating", 20_000);
    await t.waitForText("[watching]", 20_000);
    for (let i = 0; i < 120; i++) fs.rmSync(path.join(folder, `switched-${i}.ts`));
    t.type(KEYS.ctrlD);
    expect(await again).toBe(0);
  }, 90_000);

  it("opens when Ollama is not running yet, says so, and answers once it is started and the user retries", async () => {
    const host = await unusedLoopbackUrl();
    stubTuiEnv({ redisUrl: server().url, ollamaUrl: host, root });
    t = createHeadlessTerminal({ cols: 100, rows: 30 });
    const exited = runTui(root, { streams: t.streams, new: true, yes: true });
    await t.waitForText("[watching]", 30_000);
    await t.waitForText("Cannot reach Ollama at");
    await t.waitForText("ipuaro opened anyway");
    t.type("/status", KEYS.enter);
    await t.waitForText("not checked yet");

    t.type("Привет", KEYS.enter);
    await t.waitForText("[R] retry", 20_000);
    const late = await new FakeOllama().start(Number(new URL(host).port));
    try {
      late.reply().text("Теперь на месте.");
      // The dialog came up mid-turn: keys in its first moments (and until typing pauses) are taken as
      // typed ahead, so a user's "r" comes after a look at it (and after starting Ollama).
      await new Promise((r) => setTimeout(r, 1100));
      t.type("r");
      await t.waitForText("Теперь на месте.", 20_000);
      await t.waitForText("Ollama answered: qwen2.5-coder:7b-instruct is ready (context window 32,768 tokens).");
      expect(late.chatRequests[0]!.numCtxSent).toBe(32768);
      late.assertAllConsumed();
      t.type(KEYS.ctrlD);
      expect(await exited).toBe(0);
    } finally {
      await late.close();
    }
  }, 90_000);
});
