// The fake must be consumable by the real `ollama` package exactly like a real server (notes §5), and must
// truncate prompts the way the real server does when num_ctx is too small or unset.
import { Ollama } from "ollama";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_FAKE_MODEL, FakeOllama, OLLAMA_DEFAULT_NUM_CTX } from "../../helpers/fake-ollama.js";

let fake: FakeOllama;
let client: Ollama;

beforeEach(async () => {
  fake = await new FakeOllama({ pullable: ["llama3.2:1b"] }).start();
  client = new Ollama({ host: fake.url });
});
afterEach(async () => {
  await fake.close();
});

describe("fake Ollama wire format", () => {
  it("streams text in several NDJSON chunks and ends with server stats", async () => {
    fake.reply().text("Hello, world!");
    const parts = [];
    for await (const part of await client.chat({ model: DEFAULT_FAKE_MODEL, messages: [{ role: "user", content: "hi" }], stream: true })) {
      parts.push(part);
    }
    expect(parts.length).toBeGreaterThan(3);
    expect(parts.map((p) => p.message.content).join("")).toBe("Hello, world!");
    const last = parts.at(-1)!;
    expect(last.done).toBe(true);
    expect(last.done_reason).toBe("stop");
    expect(last.prompt_eval_count).toBe(fake.chatRequests[0]!.promptTokens);
    expect(last.eval_count).toBeGreaterThan(0);
    expect(last.total_duration).toBeGreaterThan(0);
    expect(fake.requests[0]!.body.stream).toBe(true);
    fake.assertAllConsumed();
  });

  it("answers stream:false with one object holding the whole message and native tool calls", async () => {
    fake.reply().text("Reading it.").toolCall("get_lines", { path: "src/a.ts", start: 3 });
    const res = await client.chat({ model: DEFAULT_FAKE_MODEL, messages: [{ role: "user", content: "hi" }], stream: false });
    expect(res.done).toBe(true);
    expect(res.message.content).toBe("Reading it.");
    expect(res.message.tool_calls).toEqual([{ function: { name: "get_lines", arguments: { path: "src/a.ts", start: 3 } } }]);
    expect(typeof res.prompt_eval_count).toBe("number");
  });

  it("streams native tool calls as message.tool_calls with object arguments", async () => {
    fake.reply().toolCall("get_structure", {});
    const calls = [];
    for await (const part of await client.chat({ model: DEFAULT_FAKE_MODEL, messages: [{ role: "user", content: "x" }], stream: true })) {
      calls.push(...(part.message.tool_calls ?? []));
    }
    expect(calls).toEqual([{ function: { name: "get_structure", arguments: {} } }]);
  });

  it("keeps <tool_call> text as plain content, as a server without a tools template does", async () => {
    const text = '<tool_call name="get_lines"><path>a.ts</path></tool_call>';
    fake.reply().text(text);
    const res = await client.chat({ model: DEFAULT_FAKE_MODEL, messages: [{ role: "user", content: "x" }] });
    expect(res.message.content).toBe(text);
    expect(res.message.tool_calls).toBeUndefined();
  });

  it("rejects an unknown model with 404 and the server's error text", async () => {
    const err = await client.chat({ model: "nope", messages: [] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: "ResponseError", status_code: 404, message: "model 'nope' not found, try pulling it first" });
  });

  it("serves /api/tags, /api/show (model_info as a plain object) and /api/version", async () => {
    const tags = await client.list();
    expect(tags.models.map((m) => m.name)).toEqual([DEFAULT_FAKE_MODEL]);
    const show = await client.show({ model: DEFAULT_FAKE_MODEL });
    expect(show.model_info).not.toBeInstanceOf(Map);
    expect((show.model_info as unknown as Record<string, unknown>)["qwen2.context_length"]).toBe(32768);
    expect((await client.version()).version).toMatch(/^\d+\.\d+\.\d+$/);
    await expect(client.show({ model: "nope" })).rejects.toMatchObject({ status_code: 404 });
  });

  it("streams pull progress, after which the model is listed", async () => {
    const progress = [];
    for await (const p of await client.pull({ model: "llama3.2:1b", stream: true })) progress.push(p);
    expect(progress[0]!.status).toBe("pulling manifest");
    const downloads = progress.filter((p) => p.total);
    expect(downloads.length).toBeGreaterThan(1);
    expect(downloads.at(-1)!.completed).toBe(downloads.at(-1)!.total);
    expect(progress.at(-1)!.status).toBe("success");
    expect((await client.list()).models.map((m) => m.name)).toContain("llama3.2:1b");
  });

  it("fails a pull of a name the registry does not know with an error line", async () => {
    const run = async () => {
      for await (const _ of await client.pull({ model: "no-such-model", stream: true })) void _;
    };
    await expect(run()).rejects.toThrow("file does not exist");
  });

  it("plays scripted HTTP errors and reports leftover turns or unexpected requests", async () => {
    fake.reply().httpError(503, "server busy, please try again");
    await expect(client.chat({ model: DEFAULT_FAKE_MODEL, messages: [] })).rejects.toMatchObject({ status_code: 503 });
    fake.reply().text("never asked for");
    expect(() => fake.assertAllConsumed()).toThrow(/1 scripted turn/);
    fake.reset();
    await expect(client.chat({ model: DEFAULT_FAKE_MODEL, messages: [] })).rejects.toMatchObject({ status_code: 500 });
    expect(() => fake.assertAllConsumed()).toThrow(/no scripted turn left/);
  });

  it("turns a throwing scripted function into a 500 and a reported violation", async () => {
    fake.reply().text(() => {
      throw new Error("bad script");
    });
    await expect(client.chat({ model: DEFAULT_FAKE_MODEL, messages: [] })).rejects.toMatchObject({ status_code: 500 });
    expect(() => fake.assertAllConsumed()).toThrow(/bad script/);
  });

  it("flags a tool result that answers no call in the assistant message before it", async () => {
    fake.reply().text("ok");
    fake.reply().text("ok");
    const user = (content: string) => ({ role: "user", content });
    await client.chat({
      model: DEFAULT_FAKE_MODEL,
      messages: [user("q"), { role: "assistant", content: '<tool_call name="get_lines"><path>a</path></tool_call>' }, user('<tool_result name="get_lines" ok="true">x</tool_result>')],
    });
    expect(fake.violations).toEqual([]);
    await client.chat({ model: DEFAULT_FAKE_MODEL, messages: [user("q"), { role: "assistant", content: "hi" }, user('<tool_result name="get_lines" ok="true">x</tool_result>')] });
    expect(() => fake.assertAllConsumed()).toThrow(/answers no call/);
  });
});

describe("fake Ollama truncation (like the real server)", () => {
  const filler = (tag: string) => `${tag} ${"lorem ipsum dolor sit amet ".repeat(74)}`; // ~2000 chars ≈ 500 tokens
  const conversation = () => [
    { role: "system", content: "SYSTEM: you are ipuaro" },
    ...Array.from({ length: 10 }, (_, i) => ({ role: i % 2 === 0 ? "user" : "assistant", content: filler(`OLD-${i}`) })),
    { role: "user", content: "LAST: what now?" },
  ];

  it("cuts to 2048 tokens when options.num_ctx is unset: drops the oldest messages, keeps system and last", async () => {
    fake.reply().text((seen) => `I saw ${seen.seenMessages.length} messages`);
    const res = await client.chat({ model: DEFAULT_FAKE_MODEL, messages: conversation() });
    const seen = fake.chatRequests[0]!;
    expect(seen.numCtxSent).toBeUndefined();
    expect(seen.numCtx).toBe(OLLAMA_DEFAULT_NUM_CTX);
    expect(seen.truncated).toBe(true);
    expect(seen.seenMessages[0]!.content).toBe("SYSTEM: you are ipuaro");
    expect(seen.seenMessages.at(-1)!.content).toBe("LAST: what now?");
    expect(seen.seenMessages.some((m) => m.content.startsWith("OLD-0"))).toBe(false);
    expect(seen.promptTokens).toBeLessThanOrEqual(OLLAMA_DEFAULT_NUM_CTX);
    expect(seen.originalPromptTokens).toBeGreaterThan(5000);
    expect(res.prompt_eval_count).toBe(seen.promptTokens);
    expect(res.message.content).toBe(`I saw ${seen.seenMessages.length} messages`);
  });

  it("keeps the whole prompt when num_ctx is large enough", async () => {
    fake.reply().text("ok");
    const res = await client.chat({ model: DEFAULT_FAKE_MODEL, messages: conversation(), options: { num_ctx: 16384 } });
    const seen = fake.chatRequests[0]!;
    expect(seen.truncated).toBe(false);
    expect(seen.seenMessages).toHaveLength(12);
    expect(res.prompt_eval_count).toBe(seen.originalPromptTokens);
  });

  it("cuts at the num_ctx that was sent, and a single oversized message token-wise from the front", async () => {
    fake.reply().text("ok");
    const huge = `HEAD ${"x".repeat(20_000)} TAIL`;
    const res = await client.chat({ model: DEFAULT_FAKE_MODEL, messages: [{ role: "user", content: huge }], options: { num_ctx: 4096 } });
    const seen = fake.chatRequests[0]!;
    expect(seen.numCtx).toBe(4096);
    expect(res.prompt_eval_count).toBe(4096);
    expect(seen.prompt).not.toContain("HEAD");
    expect(seen.prompt).toContain("TAIL");
  });

  it("caps a num_ctx above the model's context length, like the real server", async () => {
    fake.reply().text("ok");
    await client.chat({ model: DEFAULT_FAKE_MODEL, messages: [{ role: "user", content: "hi" }], options: { num_ctx: 128_000 } });
    expect(fake.chatRequests[0]).toMatchObject({ numCtxSent: 128_000, numCtx: 32768 });
  });
});
