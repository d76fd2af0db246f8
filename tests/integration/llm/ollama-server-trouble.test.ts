// OllamaClient against servers that misbehave on a real loopback socket: something that is not Ollama at
// OLLAMA_HOST, a port fetch refuses, and an Ollama that goes silent (before the first byte or mid-stream).
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { IpuaroError } from "../../../src/main/errors.js";
import { isOllamaNotRunning, LlmCancelledError } from "../../../src/main/llm/llm-errors.js";
import { OllamaClient, type IdleTimeouts, type LlmChunk } from "../../../src/main/llm/ollama-client.js";
import { DEFAULT_FAKE_MODEL, FakeOllama } from "../../helpers/fake-ollama.js";

let fake: FakeOllama | undefined;
let other: Server | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await fake?.close();
  fake = undefined;
  if (other) {
    other.closeAllConnections();
    await new Promise<void>((resolve) => other!.close(() => resolve()));
    other = undefined;
  }
});

/** A tiny non-Ollama web server on loopback. */
async function webServer(handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  other = server;
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const NOT_FOUND_PAGE = `<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1>${"<p>The requested URL was not found on this server.</p>".repeat(100)}</body></html>`;

const user = (content: string) => ({ role: "user" as const, content });
const clientFor = (host: string, timeouts?: Partial<IdleTimeouts>) =>
  new OllamaClient({ host, model: DEFAULT_FAKE_MODEL, contextWindow: 8192, temperature: 0, ...(timeouts ? { timeouts } : {}) });

async function drain(stream: AsyncIterable<LlmChunk>, onChunk?: (c: LlmChunk) => Promise<void> | void): Promise<LlmChunk[]> {
  const out: LlmChunk[] = [];
  for await (const chunk of stream) {
    out.push(chunk);
    await onChunk?.(chunk);
  }
  return out;
}
const textOf = (chunks: LlmChunk[]) => chunks.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("");

async function until(cond: () => boolean, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("OLLAMA_HOST pointing at something that is not Ollama", () => {
  it("a 404 HTML page is 'does not look like an Ollama server' (not 'model missing'), short, and nothing goes to console.log", async () => {
    const url = await webServer((_req, res) => res.writeHead(404, { "Content-Type": "text/html" }).end(NOT_FOUND_PAGE));
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const client = clientFor(url);
    for (const err of [
      await client.checkModel().catch((e: unknown) => e),
      await drain(client.chatStream({ messages: [user("hi")] })).catch((e: unknown) => e),
      await client.chat({ messages: [user("hi")] }).catch((e: unknown) => e),
    ]) {
      expect(err).toBeInstanceOf(IpuaroError);
      const e = err as IpuaroError;
      expect(e).toMatchObject({ type: "llm", recoverable: false });
      expect(e.message).toMatch(new RegExp(`^${url} does not look like an Ollama server: it answered HTTP 404 \\(404 Not Found\\) while `));
      expect(e.message).not.toMatch(/<|requested URL|does not have the model/);
      expect(e.suggestion).toContain("OLLAMA_HOST");
      expect(e.suggestion).not.toContain("ollama pull");
    }
    // The package logs "Getting text from response" for a non-JSON error body; that would land on stdout.
    expect(log).not.toHaveBeenCalled();
  });

  it("a web server answering 200 with a page is not Ollama either", async () => {
    const url = await webServer((_req, res) => res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end("<html><head><title>Router login</title></head></html>"));
    const err = await clientFor(url).checkModel().catch((e: unknown) => e);
    expect((err as Error).message).toBe(`${url} does not look like an Ollama server: it answered with a web page (Router login) while listing models.`);
  });

  it("a 400 with an empty body names the status and the empty body, and says to check OLLAMA_HOST", async () => {
    const url = await webServer((_req, res) => res.writeHead(400).end());
    const err = (await clientFor(url).checkModel().catch((e: unknown) => e)) as IpuaroError;
    expect(err).toBeInstanceOf(IpuaroError);
    expect(err.message).toBe(`Ollama at ${url} answered HTTP 400 Bad Request with an empty body while listing models`);
    expect(err.suggestion).toBe(
      `Ollama's own errors carry a JSON message, so something else may be answering at ${url} (another service, or a proxy that cannot reach Ollama): check that OLLAMA_HOST / llm.host points at Ollama (http://127.0.0.1:11434 by default); \`curl ${url}/api/tags\` should list models.`,
    );
  });

  it("an empty error body keeps the reason the server gave in its status line", async () => {
    const url = await webServer((_req, res) => res.writeHead(418, "Not Today").end());
    const err = (await clientFor(url).checkModel().catch((e: unknown) => e)) as IpuaroError;
    expect(err.message).toBe(`Ollama at ${url} answered HTTP 418 Not Today with an empty body while listing models`);
  });

  it("Ollama's own 404 for a model (the fake's JSON) still says the model is missing", async () => {
    fake = await new FakeOllama().start();
    const client = new OllamaClient({ host: fake.url, model: "nope:1b", contextWindow: 8192, temperature: 0 });
    const err = await drain(client.chatStream({ messages: [user("x")] })).catch((e: unknown) => e);
    expect((err as Error).message).toBe(`Ollama at ${fake.url} does not have the model 'nope:1b': model 'nope:1b' not found, try pulling it first`);
    expect((err as IpuaroError).suggestion).toContain("ollama pull nope:1b");
  });
});

describe("a port fetch refuses", () => {
  it("http://127.0.0.1:1 is 'cannot reach Ollama at <url>' with a hint about the port", async () => {
    const err = await clientFor("http://127.0.0.1:1").checkModel().catch((e: unknown) => e);
    expect(err).toMatchObject({ type: "llm", recoverable: false });
    expect((err as Error).message).toBe("Cannot reach Ollama at http://127.0.0.1:1 (bad port: fetch refuses to connect to port 1) while listing models.");
    expect((err as IpuaroError).suggestion).toContain("OLLAMA_HOST");
  });

  it("a chat refused before any reply does not say it broke off while streaming one", async () => {
    const err = await drain(clientFor("http://127.0.0.1:1").chatStream({ messages: [user("x")] })).catch((e: unknown) => e);
    expect((err as Error).message).toBe("Cannot reach Ollama at http://127.0.0.1:1 (bad port: fetch refuses to connect to port 1) while asking for the model's reply.");
  });
});

describe("a silent Ollama is given up after an idle timeout", () => {
  const short: IdleTimeouts = { firstByteMs: 250, betweenChunksMs: 5_000 };

  it("no answer at all (not even headers): the first-byte limit, and the connection is closed", async () => {
    fake = await new FakeOllama().start();
    fake.reply().hang();
    const started = Date.now();
    const err = await drain(clientFor(fake.url, short).chatStream({ messages: [user("x")] })).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(err).toBeInstanceOf(IpuaroError);
    expect(err).toMatchObject({ type: "llm", recoverable: true });
    expect((err as Error).message).toBe(`Ollama at ${fake.url} sent nothing for 0.25 s while asking for the model's reply; the request was given up.`);
    await until(() => fake!.requests.at(-1)!.aborted);
  });

  it("headers but no body byte is still 'before the first byte'", async () => {
    fake = await new FakeOllama().start();
    fake.reply().text("never sent").stallAfter(0);
    const err = await drain(clientFor(fake.url, short).chatStream({ messages: [user("x")] })).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/sent nothing for 0\.25 s while streaming/);
  });

  it("a stream that stops mid-reply: the between-chunks limit, after the text that did come", async () => {
    fake = await new FakeOllama().start();
    fake.reply().text("abcdefgh and then silence").stallAfter(2);
    const chunks: LlmChunk[] = [];
    const err = await drain(clientFor(fake.url, { firstByteMs: 5_000, betweenChunksMs: 250 }).chatStream({ messages: [user("x")] }), (c) => {
      chunks.push(c);
    }).catch((e: unknown) => e);
    expect(textOf(chunks)).toBe("abcdefgh");
    expect(err).toMatchObject({ type: "llm", recoverable: true });
    expect((err as Error).message).toBe(`Ollama at ${fake.url} sent nothing for 0.25 s in the middle of streaming the model's reply; the request was given up.`);
    expect((err as IpuaroError).suggestion).toMatch(/server log/);
    await until(() => fake!.requests.at(-1)!.aborted);
  });

  it("a non-streamed chat and the start-up check are bounded too", async () => {
    fake = await new FakeOllama().start();
    fake.reply().hang();
    const err = await clientFor(fake.url, short).chat({ messages: [user("x")] }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/sent nothing for 0\.25 s while waiting for the model's reply/);
  });

  it("the model check has a limit of its own, far below the chat's first-byte one, and says the server gave no answer", async () => {
    // A server that accepts connections and never answers /api/tags.
    const url = await webServer(() => {});
    const patient = new OllamaClient({ host: url, model: DEFAULT_FAKE_MODEL, contextWindow: 8192, temperature: 0, timeouts: { firstByteMs: 60_000 }, probeTimeoutMs: 250 });
    const started = Date.now();
    const check = await patient.checkModel().catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(check).toMatchObject({ type: "llm", code: "NO_ANSWER", recoverable: false });
    expect((check as Error).message).toBe(`Ollama at ${url} gave no answer after 0.25 s while listing models.`);
    expect((check as IpuaroError).suggestion).toContain(`curl ${url}/api/tags`);
    // The UI opens without it, as without a running Ollama, and checks again before each message.
    expect(isOllamaNotRunning(check)).toBe(true);
  });

  it("a silent /api/show (the model's file on a disk that hangs) is given up the same way", async () => {
    const url = await webServer((req, res) => {
      if (req.url === "/api/tags") res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ models: [{ name: DEFAULT_FAKE_MODEL }] }));
    });
    const client = new OllamaClient({ host: url, model: DEFAULT_FAKE_MODEL, contextWindow: 8192, temperature: 0, probeTimeoutMs: 250 });
    const err = await client.checkModel().catch((e: unknown) => e);
    expect((err as Error).message).toBe(`Ollama at ${url} gave no answer after 0.25 s while reading the model's details.`);
  });

  it("Ctrl+C during the model check ends it at once, as a cancellation", async () => {
    const url = await webServer(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const err = await clientFor(url).checkModel(controller.signal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmCancelledError);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("a long wait before the first token is fine within the first-byte limit, however short the between-chunks one", async () => {
    fake = await new FakeOllama().start();
    fake.reply().text("loaded at last").slowFirstToken(400);
    const chunks = await drain(clientFor(fake.url, { firstByteMs: 3_000, betweenChunksMs: 150 }).chatStream({ messages: [user("x")] }));
    expect(textOf(chunks)).toBe("loaded at last");
  });

  it("a slow but steady stream longer than the between-chunks limit in total is fine", async () => {
    fake = await new FakeOllama().start();
    fake.reply().text("steady tokens arrive one by one").chunkDelay(40); // 8 chunks ≈ 320 ms
    const chunks = await drain(clientFor(fake.url, { firstByteMs: 3_000, betweenChunksMs: 200 }).chatStream({ messages: [user("x")] }));
    expect(textOf(chunks)).toBe("steady tokens arrive one by one");
  });

  it("a slow consumer is not a silent server: the clock runs only while waiting for bytes", async () => {
    fake = await new FakeOllama().start();
    fake.reply().text("sent quickly, read slowly");
    let pauses = 0;
    const chunks = await drain(clientFor(fake.url, { firstByteMs: 3_000, betweenChunksMs: 150 }).chatStream({ messages: [user("x")] }), async () => {
      if (pauses++ < 2) await new Promise((r) => setTimeout(r, 400));
    });
    expect(textOf(chunks)).toBe("sent quickly, read slowly");
  });

  it("the user's abort during a silence is still a cancellation, not a timeout", async () => {
    fake = await new FakeOllama().start();
    fake.reply().hang();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const err = await drain(clientFor(fake.url, { firstByteMs: 2_000, betweenChunksMs: 2_000 }).chatStream({ messages: [user("x")], signal: controller.signal })).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(LlmCancelledError);
  });

  it("rejects timeouts that are not positive numbers", () => {
    expect(() => clientFor("127.0.0.1", { betweenChunksMs: 0 })).toThrow(/betweenChunksMs timeout must be a positive number/);
  });
});
