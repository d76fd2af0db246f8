// The TUI opens before Ollama runs: its client checks the model before a request, as often as it takes,
// against the fake server coming up later on the same address.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { IpuaroError } from "../../../src/main/errors.js";
import { loadConfig } from "../../../src/main/config/loader.js";
import { prepareModel } from "../../../src/main/cli/model-setup.js";
import { DeferredModelCheck, type ReadyCheck } from "../../../src/main/llm/deferred-model-check.js";
import { LlmCancelledError } from "../../../src/main/llm/llm-errors.js";
import { OllamaClient, type LlmChunk } from "../../../src/main/llm/ollama-client.js";
import { DEFAULT_FAKE_MODEL, FakeOllama, unusedLoopbackUrl } from "../../helpers/fake-ollama.js";

let fake: FakeOllama | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const user = (content: string) => ({ role: "user" as const, content });
const portOf = (url: string) => Number(new URL(url).port);

async function collect(stream: AsyncIterable<LlmChunk>): Promise<string> {
  let text = "";
  for await (const chunk of stream) if (chunk.type === "text") text += chunk.text;
  return text;
}

function deferred(host: string, contextWindow = 128000) {
  const ready: ReadyCheck[] = [];
  const client = new DeferredModelCheck(new OllamaClient({ host, model: DEFAULT_FAKE_MODEL, contextWindow, temperature: 0.1 }), (c) => ready.push(c));
  return { client, ready };
}

describe("DeferredModelCheck", () => {
  it("fails a request with a retryable error while nothing listens, then checks, learns the window and chats once Ollama is up", async () => {
    const host = await unusedLoopbackUrl();
    const { client, ready } = deferred(host);
    const first = await collect(client.chatStream({ messages: [user("hi")] })).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(IpuaroError);
    expect((first as IpuaroError).message).toMatch(/Cannot reach Ollama at .* \(ECONNREFUSED\)/);
    expect((first as IpuaroError).recoverable).toBe(true);
    expect(client.checked).toBe(false);
    expect(client.contextWindow).toBe(128000);

    fake = await new FakeOllama({ models: [{ name: DEFAULT_FAKE_MODEL, contextLength: 32768 }] }).start(portOf(host));
    fake.reply().text("up now");
    fake.reply().text("again");
    expect(await collect(client.chatStream({ messages: [user("hi")] }))).toBe("up now");
    expect(client.checked).toBe(true);
    expect(client.contextWindow).toBe(32768);
    expect(fake.chatRequests[0]!.numCtxSent).toBe(32768);
    expect(ready).toHaveLength(1);
    expect(ready[0]!.notice).toMatch(/supports 32768; using 32768/);
    // Checked once: the next request goes straight to chat.
    const listed = fake.requests.filter((r) => r.path === "/api/tags").length;
    expect(await collect(client.chatStream({ messages: [user("more")] }))).toBe("again");
    expect(fake.requests.filter((r) => r.path === "/api/tags").length).toBe(listed);
    fake.assertAllConsumed();
  });

  it("says how to install a model Ollama does not have, and passes once it is there", async () => {
    fake = await new FakeOllama({ models: ["llama3.2:latest"] }).start();
    const { client, ready } = deferred(fake.url);
    const err = (await client.chat({ messages: [user("hi")] }).catch((e: unknown) => e)) as IpuaroError;
    expect(err).toBeInstanceOf(IpuaroError);
    expect(err.message).toContain(`does not have the model ${DEFAULT_FAKE_MODEL}`);
    expect(err.suggestion).toContain(`ollama pull ${DEFAULT_FAKE_MODEL}`);
    // Which models are there, and how to use one of them instead.
    expect(err.suggestion).toContain("Installed there: llama3.2:latest.");
    expect(err.suggestion).toContain('set llm.model — {"llm": {"model": "llama3.2:latest"}} — in');
    expect(err.recoverable).toBe(true);
    expect(fake.chatRequests).toHaveLength(0);

    fake.addModel(DEFAULT_FAKE_MODEL);
    fake.reply().text("pulled");
    expect((await client.chat({ messages: [user("hi")] })).text).toBe("pulled");
    expect(ready).toHaveLength(1);
  });

  it("stops waiting for the check when the request is cancelled", async () => {
    // A server that takes the connection and never answers (Ollama still loading, a stuck proxy).
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const { client } = deferred(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`);
      const controller = new AbortController();
      const pending = collect(client.chatStream({ messages: [user("hi")], signal: controller.signal })).catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 100));
      controller.abort();
      expect(await pending).toBeInstanceOf(LlmCancelledError);
      expect(client.checked).toBe(false);
    } finally {
      silent.closeAllConnections();
      await new Promise((r) => silent.close(r));
    }
  });
});

describe("prepareModel for the full-screen UI", () => {
  it("opens without Ollama only when nothing answers at the address; a wrong port or server still stops it", async () => {
    const host = await unusedLoopbackUrl();
    const config = (h: string) => {
      const { config: c } = loadConfig({ env: { HOME: path.join(os.tmpdir(), "ipuaro-no-home"), OLLAMA_HOST: h } });
      return c;
    };
    const defer = { onReady: () => {} };
    const model = await prepareModel(config(host), { interactive: false, log: () => {}, deferWhenNotRunning: defer });
    expect(model.notRunning?.message).toMatch(/Cannot reach Ollama/);
    expect(model.llm).toBeInstanceOf(DeferredModelCheck);
    // Without the option (ipuaro run), the same is an error at once.
    await expect(prepareModel(config(host), { interactive: false, log: () => {} })).rejects.toThrow(/Cannot reach Ollama/);
    // Port 1: fetch refuses it outright; that is a configuration to fix, not a server to wait for.
    await expect(prepareModel(config("http://127.0.0.1:1"), { interactive: false, log: () => {}, deferWhenNotRunning: defer })).rejects.toThrow(/bad port/);
  });
});

describe("prepareModel's word on the model and its window", () => {
  const configIn = (dir: string, files: Record<string, unknown>, host: string) => {
    for (const [rel, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), JSON.stringify(content));
    }
    return loadConfig({ projectRoot: path.join(dir, "proj"), env: { XDG_CONFIG_HOME: path.join(dir, "xdg"), OLLAMA_HOST: host } }).config;
  };
  let dir = "";
  afterEach(() => {
    vi.unstubAllEnvs();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = "";
  });

  it("uses the model's window quietly when llm.contextWindow is the shipped default; says so when the user's setting is more than the model supports", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "ipuaro-window-"));
    fake = await new FakeOllama({ models: [{ name: DEFAULT_FAKE_MODEL, contextLength: 32768 }] }).start();
    const said: string[] = [];
    const quiet = await prepareModel(configIn(dir, {}, fake.url), { interactive: false, log: (l) => said.push(l) });
    expect(quiet.llm.contextWindow).toBe(32768);
    expect(said).toEqual([]);

    const userFile = path.join(dir, "xdg", "ipuaro", "config.json");
    await prepareModel(configIn(dir, { "xdg/ipuaro/config.json": { llm: { contextWindow: 65536 } } }, fake.url), { interactive: false, log: (l) => said.push(l) });
    expect(said).toEqual([`ipuaro: llm.contextWindow is 65536 tokens (set in ${userFile}) but ${DEFAULT_FAKE_MODEL} supports 32768; using 32768.`]);
  });

  it("the check that passes later follows the same rule", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "ipuaro-window-"));
    const host = await unusedLoopbackUrl();
    const ready: ReadyCheck[] = [];
    const defaults = await prepareModel(configIn(dir, {}, host), { interactive: false, log: () => {}, deferWhenNotRunning: { onReady: (c) => ready.push(c) } });
    const chosen = await prepareModel(configIn(dir, { "proj/.ipuaro.json": { llm: { contextWindow: 65536 } } }, host), { interactive: false, log: () => {}, deferWhenNotRunning: { onReady: (c) => ready.push(c) } });
    fake = await new FakeOllama({ models: [{ name: DEFAULT_FAKE_MODEL, contextLength: 32768 }] }).start(portOf(host));
    fake.reply().text("a");
    fake.reply().text("b");
    await defaults.llm.chat({ messages: [user("hi")] });
    await chosen.llm.chat({ messages: [user("hi")] });
    expect(ready.map((c) => [c.contextWindow, c.notice ?? null])).toEqual([
      [32768, null],
      [32768, `llm.contextWindow is 65536 tokens (set in ${path.join(dir, "proj", ".ipuaro.json")}) but ${DEFAULT_FAKE_MODEL} supports 32768; using 32768.`],
    ]);
  });

  it("a missing model: names the installed ones and how to choose one, besides pulling", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "ipuaro-window-"));
    fake = await new FakeOllama({ models: ["llama3:8b", "mistral:7b"] }).start();
    // The user's config file is named where this process reads it.
    vi.stubEnv("XDG_CONFIG_HOME", path.join(dir, "xdg"));
    const err = await prepareModel(configIn(dir, {}, fake.url), { interactive: false, log: () => {} }).catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      `model ${DEFAULT_FAKE_MODEL} is not installed in Ollama at ${fake.url}. Installed there: llama3:8b, mistral:7b. ` +
        `To use one of them, set llm.model — {"llm": {"model": "llama3:8b"}} — in ${path.join(dir, "xdg", "ipuaro", "config.json")} (or in the project's .ipuaro.json). ` +
        `Or download ${DEFAULT_FAKE_MODEL} with \`ollama pull ${DEFAULT_FAKE_MODEL}\`.`,
    );
  });
});
