// OllamaClient against the fake server: what it sends (num_ctx, temperature), streaming, cancellation,
// failures mapped to typed errors, and the start-up checks (down, model missing → pull, window capped).
import { afterEach, describe, expect, it } from "vitest";
import { IpuaroError } from "../../../src/main/errors.js";
import { LlmCancelledError } from "../../../src/main/llm/llm-errors.js";
import { OllamaClient, type LlmChunk, type OllamaClientOptions } from "../../../src/main/llm/ollama-client.js";
import { TokenEstimator } from "../../../src/main/llm/token-estimator.js";
import { parseToolCalls } from "../../../src/main/llm/tool-call-parser.js";
import { DEFAULT_FAKE_MODEL, FakeOllama, unusedLoopbackUrl, type FakeOllamaOptions } from "../../helpers/fake-ollama.js";

let fake: FakeOllama | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setup(fakeOptions: FakeOllamaOptions = {}, clientOptions: Partial<OllamaClientOptions> = {}) {
  fake = await new FakeOllama(fakeOptions).start();
  const client = new OllamaClient({ host: fake.url, model: DEFAULT_FAKE_MODEL, contextWindow: 16384, temperature: 0.1, ...clientOptions });
  return { fake, client };
}

async function collect(stream: AsyncIterable<LlmChunk>): Promise<LlmChunk[]> {
  const out: LlmChunk[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

const textOf = (chunks: LlmChunk[]) => chunks.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("");
const user = (content: string) => ({ role: "user" as const, content });

async function until(cond: () => boolean, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("OllamaClient chat", () => {
  it("streams text, native tool calls and server stats", async () => {
    const { fake, client } = await setup();
    fake.reply().text("Let me read it.").toolCall("get_lines", { path: "src/a.ts" });
    const chunks = await collect(client.chatStream({ messages: [user("what is in a.ts?")] }));
    expect(chunks.filter((c) => c.type === "text").length).toBeGreaterThan(1);
    expect(textOf(chunks)).toBe("Let me read it.");
    expect(chunks).toContainEqual({ type: "tool_calls", calls: [{ name: "get_lines", arguments: { path: "src/a.ts" } }] });
    const done = chunks.at(-1)!;
    expect(done.type).toBe("done");
    if (done.type !== "done") return;
    expect(done.stats.promptTokens).toBe(fake.chatRequests[0]!.promptTokens);
    expect(done.stats.completionTokens).toBeGreaterThan(0);
    expect(done.stats.doneReason).toBe("stop");
    expect(done.stats.totalMs).toBeGreaterThanOrEqual(done.stats.evalMs);
    fake.assertAllConsumed();
  });

  it("sends options.num_ctx = contextWindow and the temperature on every request, streamed or not", async () => {
    const { fake, client } = await setup({}, { contextWindow: 12000, temperature: 0.3 });
    fake.reply().text("one");
    fake.reply().text("two");
    await collect(client.chatStream({ messages: [user("a")] }));
    const result = await client.chat({ messages: [user("b")] });
    expect(result.text).toBe("two");
    expect(fake.requests.map((r) => r.body.options)).toEqual([
      { num_ctx: 12000, temperature: 0.3 },
      { num_ctx: 12000, temperature: 0.3 },
    ]);
    expect(fake.chatRequests.map((c) => c.stream)).toEqual([true, false]);
  });

  it("is not truncated by the server, unlike a request without num_ctx", async () => {
    const { fake, client } = await setup();
    fake.reply().text("ok");
    const history = Array.from({ length: 8 }, (_, i) => user(`turn ${i} ${"some code ".repeat(150)}`));
    await collect(client.chatStream({ messages: history }));
    expect(fake.chatRequests[0]!.originalPromptTokens).toBeGreaterThan(2048);
    expect(fake.chatRequests[0]!.truncated).toBe(false);
  });

  it("keeps <tool_call> text for the parser and merges it with native calls", async () => {
    const { fake, client } = await setup();
    fake.reply().text('Reading.\n<tool_call name="get_lines"><path>src/a.ts</path></tool_call>').toolCall("get_structure", {});
    const chunks = await collect(client.chatStream({ messages: [user("go")] }));
    const native = chunks.flatMap((c) => (c.type === "tool_calls" ? c.calls : []));
    const parsed = parseToolCalls(textOf(chunks), new Set(["get_lines", "get_structure"]), { nativeCalls: native });
    expect(parsed.text).toBe("Reading.");
    expect(parsed.calls.map((c) => [c.name, c.format])).toEqual([["get_lines", "xml"], ["get_structure", "native"]]);
  });

  it("waits through a slow first token", async () => {
    const { fake, client } = await setup();
    fake.reply().text("finally").slowFirstToken(300);
    const chunks = await collect(client.chatStream({ messages: [user("x")] }));
    expect(textOf(chunks)).toBe("finally");
    const done = chunks.at(-1)!;
    expect(done.type === "done" && done.stats.promptEvalMs).toBeGreaterThanOrEqual(250);
  });

  it("reports a missing prompt_eval_count as null rather than 0", async () => {
    const { fake, client } = await setup();
    fake.reply().text("cached").omitPromptEvalCount();
    const done = (await collect(client.chatStream({ messages: [user("x")] }))).at(-1)!;
    expect(done).toMatchObject({ type: "done", stats: { promptTokens: null } });
  });
});

describe("OllamaClient cancellation", () => {
  it.each([0, 20])("abort() mid-stream (chunk delay %i ms) stops at once with LlmCancelledError and closes the request", async (delay) => {
    const { fake, client } = await setup({ chunkSize: 2 });
    // With no delay the chunks arrive buffered together: the ones already received must not leak out after abort().
    fake.reply().text("a long answer that takes a while to stream").chunkDelay(delay);
    const stream = client.chatStream({ messages: [user("x")] });
    const seen: string[] = [];
    const run = (async () => {
      for await (const chunk of stream) {
        if (chunk.type === "text") seen.push(chunk.text);
        if (seen.length === 2) stream.abort();
      }
    })();
    await expect(run).rejects.toBeInstanceOf(LlmCancelledError);
    expect(seen).toHaveLength(2);
    await until(() => fake.requests[0]!.aborted);
  });

  it("abort() takes effect even when the rest of the reply is already buffered", async () => {
    const { fake, client } = await setup({ chunkSize: 2 });
    fake.reply().text("every chunk of this reply arrives in one write").burst();
    const stream = client.chatStream({ messages: [user("x")] });
    const seen: LlmChunk[] = [];
    const run = (async () => {
      for await (const chunk of stream) {
        seen.push(chunk);
        if (seen.length === 2) stream.abort();
      }
    })();
    await expect(run).rejects.toBeInstanceOf(LlmCancelledError);
    expect(seen).toHaveLength(2);
  });

  it("an AbortSignal cancels a request the server never answers (no headers yet)", async () => {
    const { fake, client } = await setup();
    fake.reply().hang();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    await expect(collect(client.chatStream({ messages: [user("x")], signal: controller.signal }))).rejects.toBeInstanceOf(LlmCancelledError);
    expect(Date.now() - started).toBeLessThan(2000);
    await until(() => fake.requests[0]!.aborted);
  });

  it("an already aborted signal cancels before anything is sent", async () => {
    const { fake, client } = await setup();
    await expect(collect(client.chatStream({ messages: [user("x")], signal: AbortSignal.abort() }))).rejects.toBeInstanceOf(LlmCancelledError);
    expect(fake.requests).toHaveLength(0);
  });

  it("breaking out of the loop closes the request so the server stops generating", async () => {
    const { fake, client } = await setup({ chunkSize: 2 });
    fake.reply().text("x".repeat(200)).chunkDelay(10);
    for await (const chunk of client.chatStream({ messages: [user("x")] })) {
      if (chunk.type === "text") break;
    }
    await until(() => fake.requests[0]!.aborted);
  });

  it("cancels a non-streamed chat too", async () => {
    const { fake, client } = await setup();
    fake.reply().hang();
    await expect(client.chat({ messages: [user("x")], signal: AbortSignal.timeout(100) })).rejects.toBeInstanceOf(LlmCancelledError);
  });
});

describe("OllamaClient failures", () => {
  it("a disconnect mid-stream is a recoverable llm error naming the server", async () => {
    const { fake, client } = await setup();
    fake.reply().text("partial answer here").disconnectMidStream(2);
    const seen: string[] = [];
    const err = await (async () => {
      for await (const c of client.chatStream({ messages: [user("x")] })) if (c.type === "text") seen.push(c.text);
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IpuaroError);
    expect(err).toMatchObject({ type: "llm", recoverable: true });
    expect((err as Error).message).toContain(fake.url);
    expect((err as Error).message).toMatch(/lost/);
    expect(seen.join("")).toBe("partial ");
  });

  it("an error line mid-stream is an llm error", async () => {
    const { fake, client } = await setup();
    fake.reply().text("abc").streamError("llama runner process has terminated");
    const err = await collect(client.chatStream({ messages: [user("x")] })).catch((e: unknown) => e);
    expect(err).toMatchObject({ type: "llm", recoverable: true });
    expect((err as Error).message).toContain("llama runner process has terminated");
  });

  it("HTTP 503 is recoverable; a 404 model is not, and suggests ollama pull", async () => {
    const { fake, client } = await setup();
    fake.reply().httpError(503, "server busy");
    await expect(collect(client.chatStream({ messages: [user("x")] }))).rejects.toMatchObject({ type: "llm", recoverable: true });
    const other = new OllamaClient({ host: fake.url, model: "missing:7b", contextWindow: 8192, temperature: 0 });
    const err = await collect(other.chatStream({ messages: [user("x")] })).catch((e: unknown) => e);
    expect(err).toMatchObject({ type: "llm", recoverable: false });
    expect((err as IpuaroError).suggestion).toContain("ollama pull missing:7b");
  });

  it("Ollama down: checkModel throws a non-recoverable error naming the URL and `ollama serve`", async () => {
    const url = await unusedLoopbackUrl();
    const client = new OllamaClient({ host: url, model: DEFAULT_FAKE_MODEL, contextWindow: 8192, temperature: 0 });
    const err = await client.checkModel().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IpuaroError);
    expect(err).toMatchObject({ type: "llm", recoverable: false });
    expect((err as Error).message).toContain(url);
    expect((err as Error).message).toContain("ECONNREFUSED");
    expect((err as IpuaroError).suggestion).toContain("ollama serve");
    // Mid-session the same failure may pass once the user starts Ollama, so it is recoverable there.
    await expect(collect(client.chatStream({ messages: [user("x")] }))).rejects.toMatchObject({ type: "llm", recoverable: true });
  });

  it("normalizes host forms the ollama package accepts, for messages", async () => {
    const client = new OllamaClient({ host: "127.0.0.1", model: "m", contextWindow: 10, temperature: 0 });
    expect(client.host).toBe("http://127.0.0.1:11434");
    expect(() => new OllamaClient({ host: "x", model: "m", contextWindow: 0, temperature: 0 })).toThrow(/contextWindow/);
  });
});

describe("OllamaClient start-up checks", () => {
  it("model missing → typed result, then pull streams progress and the model becomes ready", async () => {
    const { client } = await setup({ models: [], pullable: [{ name: DEFAULT_FAKE_MODEL, contextLength: 32768 }] });
    const missing = await client.checkModel();
    expect(missing).toEqual({ status: "missing", model: DEFAULT_FAKE_MODEL, host: client.host, installed: [] });
    const progress: Array<{ status: string; completed?: number; total?: number }> = [];
    await client.pull({ onProgress: (p) => progress.push(p) });
    const sized = progress.filter((p) => p.total !== undefined);
    expect(sized.length).toBeGreaterThan(1);
    expect(sized.map((p) => p.completed)).toEqual([...sized.map((p) => p.completed!)].sort((a, b) => a - b));
    expect(sized.at(-1)!.completed).toBe(sized.at(-1)!.total);
    expect(progress.at(-1)!.status).toBe("success");
    expect(await client.checkModel()).toMatchObject({ status: "ready", contextWindow: 16384 });
  });

  it("pulls another model by name and honours cancellation", async () => {
    const { fake, client } = await setup({ pullable: ["llama3.2:1b"], pullStepMs: 30 });
    await client.pull({ model: "llama3.2:1b" });
    expect(fake.requests.at(-1)!.body).toMatchObject({ name: "llama3.2:1b", stream: true });
    const controller = new AbortController();
    const pulling = client.pull({ model: "llama3.2:1b", signal: controller.signal, onProgress: () => controller.abort() });
    await expect(pulling).rejects.toBeInstanceOf(LlmCancelledError);
  });

  it("a pull the registry refuses is a non-recoverable llm error", async () => {
    const { client } = await setup({ models: [] });
    const err = await client.pull().catch((e: unknown) => e);
    expect(err).toMatchObject({ type: "llm", recoverable: false });
    expect((err as Error).message).toMatch(/Could not pull 'qwen2.5-coder:7b-instruct'.*file does not exist/);
  });

  it("caps the context window at the model's context_length, with a notice, and sends the capped num_ctx", async () => {
    const { fake, client } = await setup({ models: [{ name: DEFAULT_FAKE_MODEL, contextLength: 32768 }] }, { contextWindow: 128000 });
    const check = await client.checkModel();
    expect(check).toMatchObject({ status: "ready", contextWindow: 32768, modelContextLength: 32768 });
    expect(check.status === "ready" && check.notice).toMatch(/128000.*32768/);
    expect(client.contextWindow).toBe(32768);
    fake.reply().text("ok");
    await collect(client.chatStream({ messages: [user("x")] }));
    expect(fake.chatRequests[0]!.numCtxSent).toBe(32768);
  });

  it("keeps a smaller configured window without a notice", async () => {
    const { client } = await setup({}, { contextWindow: 8192 });
    const check = await client.checkModel();
    expect(check).toEqual({ status: "ready", model: DEFAULT_FAKE_MODEL, contextWindow: 8192, modelContextLength: 32768 });
  });

  it("treats a configured name without a tag as :latest, like Ollama", async () => {
    fake = await new FakeOllama({ models: [{ name: "llama3.2:latest", contextLength: 131072 }] }).start();
    const client = new OllamaClient({ host: fake.url, model: "llama3.2", contextWindow: 8192, temperature: 0 });
    expect(await client.checkModel()).toMatchObject({ status: "ready", modelContextLength: 131072 });
  });
});

describe("OllamaClient token calibration", () => {
  it("calibrates the estimator from each response's prompt_eval_count", async () => {
    const estimator = new TokenEstimator();
    const { fake, client } = await setup({ charsPerToken: 3 }, { tokenEstimator: estimator });
    const body = "const value = computeSomething(input);\n".repeat(150); // ~5900 chars of code
    for (let i = 0; i < 3; i++) fake.reply().text("ok");
    for (let i = 0; i < 3; i++) await collect(client.chatStream({ messages: [user(body)] }));
    expect(estimator.calibrationSamples).toBe(3);
    expect(estimator.unitsPerToken).toBeGreaterThan(2.7);
    expect(estimator.unitsPerToken).toBeLessThan(3.3);
    const actual = fake.chatRequests[0]!.promptTokens;
    expect(Math.abs(estimator.estimateMessages([user(body)]) - actual) / actual).toBeLessThan(0.05);
  });
});
