// Shapes the fake server cannot produce quickly (a 5-minute timeout, DNS failure), built as Node's fetch builds them.
import { describe, expect, it } from "vitest";
import { IpuaroError } from "../../../src/main/errors.js";
import {
  LlmCancelledError,
  LlmIdleTimeoutError,
  OllamaHttpError,
  bodyExcerpt,
  isUnreachable,
  toLlmError,
} from "../../../src/main/llm/llm-errors.js";

const ctx = { host: "http://gpu-box:11434", model: "qwen2.5-coder:7b-instruct", action: "streaming the model's reply" };
const fetchFailed = (code: string) => new TypeError("fetch failed", { cause: Object.assign(new Error(code), { code }) });
const responseError = (message: string, status_code: number) => Object.assign(new Error(message), { name: "ResponseError", status_code });

describe("toLlmError", () => {
  it("anything thrown after our own abort is a cancellation", () => {
    expect(toLlmError(fetchFailed("ECONNRESET"), ctx, true)).toBeInstanceOf(LlmCancelledError);
  });

  it.each(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"])("%s means unreachable and names the host", (code) => {
    expect(isUnreachable(fetchFailed(code))).toBe(true);
    const err = toLlmError(fetchFailed(code), ctx, false) as IpuaroError;
    expect(err.message).toContain("http://gpu-box:11434");
    expect(err.message).toContain(code);
    expect(err.suggestion).toContain("ollama serve");
    expect(err.message).not.toContain("ollama serve"); // said once, in the suggestion
  });

  it("a 5-minute silence (undici's headers timeout) suggests a smaller window", () => {
    const err = toLlmError(fetchFailed("UND_ERR_HEADERS_TIMEOUT"), ctx, false) as IpuaroError;
    expect(err).toMatchObject({ type: "llm", recoverable: true });
    expect(err.suggestion).toMatch(/contextWindow/);
  });

  it("a 500 about memory suggests lowering the context window", () => {
    const err = toLlmError(responseError("model requires more system memory (20 GiB) than is available", 500), ctx, false) as IpuaroError;
    expect(err).toMatchObject({ type: "llm", recoverable: true });
    expect(err.suggestion).toMatch(/contextWindow/);
  });

  it("a 400 is our request's fault and not worth retrying", () => {
    expect(toLlmError(responseError("invalid options", 400), ctx, false)).toMatchObject({ type: "llm", recoverable: false });
  });

  it("a server error text containing 'terminated' is not taken for a lost connection", () => {
    const err = toLlmError(new Error("llama runner process has terminated: exit status 2"), ctx, false);
    expect(err.message).toBe("Ollama at http://gpu-box:11434 failed while streaming the model's reply: llama runner process has terminated: exit status 2");
  });

  it("says why fetch failed when its cause has no code", () => {
    const err = toLlmError(new TypeError("fetch failed", { cause: new Error("unknown scheme") }), ctx, false);
    expect(err.message).toBe("Ollama at http://gpu-box:11434 failed while streaming the model's reply: fetch failed (unknown scheme)");
  });

  it("a port fetch refuses (\"bad port\") is 'cannot reach Ollama', naming the URL and the port to use", () => {
    const badPort = new TypeError("fetch failed", { cause: new Error("bad port") });
    expect(isUnreachable(badPort)).toBe(true);
    const err = toLlmError(badPort, { ...ctx, host: "http://127.0.0.1:1" }, false) as IpuaroError;
    expect(err).toBeInstanceOf(IpuaroError);
    expect(err).toMatchObject({ type: "llm", recoverable: false });
    expect(err.message).toBe("Cannot reach Ollama at http://127.0.0.1:1 (bad port: fetch refuses to connect to port 1) while streaming the model's reply.");
    expect(err.suggestion).toMatch(/OLLAMA_HOST.*11434/);
  });

  it("passes typed errors through unchanged", () => {
    const typed = new IpuaroError("llm", "already typed");
    expect(toLlmError(typed, ctx, false)).toBe(typed);
  });
});

const NGINX_404 =
  "<!DOCTYPE html>\n<html>\n<head><title>404 Not Found</title>\n<style>body { width: 35em; }</style></head>\n" +
  `<body>\n<center><h1>404 Not Found</h1></center>\n<hr><center>nginx/1.24.0</center>\n${"<p>padding</p>".repeat(200)}</body>\n</html>\n`;

describe("404s: a missing model versus a server that is not Ollama", () => {
  it("Ollama's JSON 404 for a model is 'model missing' with the ollama pull hint", () => {
    for (const err of [
      OllamaHttpError.fromBody(404, JSON.stringify({ error: "model 'qwen2.5-coder:7b-instruct' not found" })),
      responseError('model "qwen2.5-coder:7b-instruct" not found, try pulling it first', 404), // older servers, through the package
    ]) {
      const mapped = toLlmError(err, ctx, false) as IpuaroError;
      expect(mapped).toMatchObject({ type: "llm", recoverable: false });
      expect(mapped.message).toContain("does not have the model 'qwen2.5-coder:7b-instruct'");
      expect(mapped.suggestion).toContain("ollama pull qwen2.5-coder:7b-instruct");
    }
  });

  it.each([
    ["an HTML page (screened by our fetch)", OllamaHttpError.fromBody(404, NGINX_404)],
    ["an HTML page (the package's ResponseError, whole page as message)", responseError(NGINX_404, 404)],
    ["plain text", OllamaHttpError.fromBody(404, "404 page not found")],
    ["another API's JSON", OllamaHttpError.fromBody(404, JSON.stringify({ error: "no such route" }))],
  ])("any other 404 (%s) says the host does not look like Ollama, with a short excerpt", (_what, err) => {
    const mapped = toLlmError(err, ctx, false) as IpuaroError;
    expect(mapped).toMatchObject({ type: "llm", recoverable: false });
    expect(mapped.message).toMatch(/^http:\/\/gpu-box:11434 does not look like an Ollama server: it answered HTTP 404/);
    expect(mapped.message).not.toMatch(/does not have the model|<html|<title|padding/);
    expect(mapped.message.length).toBeLessThan(300);
    expect(mapped.suggestion).toContain("OLLAMA_HOST");
    expect(mapped.suggestion).not.toContain("ollama pull");
  });

  it("a web page at a 2xx is not Ollama either", () => {
    const mapped = toLlmError(OllamaHttpError.fromBody(200, "<html><head><title>Welcome to nginx!</title></head></html>"), ctx, false);
    expect(mapped.message).toBe("http://gpu-box:11434 does not look like an Ollama server: it answered with a web page (Welcome to nginx!) while streaming the model's reply.");
  });

  it("a proxy's HTML 502 keeps its status, recoverable, with an excerpt instead of the page", () => {
    const page = `<html><body><h1>502 Bad Gateway</h1>${"x".repeat(5000)}</body></html>`;
    const mapped = toLlmError(OllamaHttpError.fromBody(502, page), ctx, false) as IpuaroError;
    expect(mapped).toMatchObject({ type: "llm", recoverable: true });
    expect(mapped.message).toMatch(/^Ollama at http:\/\/gpu-box:11434 answered HTTP 502 while streaming the model's reply: 502 Bad Gateway x+…$/);
    expect(mapped.message.length).toBeLessThan(300);
  });

  it("Ollama's JSON error text is kept whole when it is a reasonable length", () => {
    const text = "llama runner process has terminated: error loading model: unable to allocate CUDA0 buffer";
    const mapped = toLlmError(OllamaHttpError.fromBody(500, JSON.stringify({ error: text })), ctx, false);
    expect(mapped.message).toBe(`Ollama at http://gpu-box:11434 answered HTTP 500 while streaming the model's reply: ${text}`);
  });
});

describe("bodyExcerpt", () => {
  it("takes an HTML page's title, else its text without tags, one line, no control characters, cut short", () => {
    expect(bodyExcerpt(NGINX_404)).toBe("404 Not Found");
    expect(bodyExcerpt("<h1>Oops</h1>\n<script>var a = '<b>';</script><p>gone\u001b[31m</p>")).toBe("Oops gone [31m");
    const long = bodyExcerpt("word ".repeat(100));
    expect(long.length).toBe(160);
    expect(long.endsWith("…")).toBe(true);
  });
});

describe("idle timeouts", () => {
  it("silence before the first byte names the limit and points at model loading / prompt size", () => {
    const err = toLlmError(new LlmIdleTimeoutError("first-byte", 300_000), ctx, false) as IpuaroError;
    expect(err).toMatchObject({ type: "llm", recoverable: true });
    expect(err.message).toBe("Ollama at http://gpu-box:11434 sent nothing for 300 s while streaming the model's reply; the request was given up.");
    expect(err.suggestion).toMatch(/ollama ps/);
  });

  it("silence mid-stream names the limit and points at the server log", () => {
    const err = toLlmError(new LlmIdleTimeoutError("between-chunks", 250), ctx, false) as IpuaroError;
    expect(err.message).toBe("Ollama at http://gpu-box:11434 sent nothing for 0.25 s in the middle of streaming the model's reply; the request was given up.");
    expect(err.suggestion).toMatch(/server log/);
  });

  it("our own abort still wins: a timeout after the user cancelled is a cancellation", () => {
    expect(toLlmError(new LlmIdleTimeoutError("between-chunks", 250), ctx, true)).toBeInstanceOf(LlmCancelledError);
  });
});
