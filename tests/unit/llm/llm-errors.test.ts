// Shapes the fake server cannot produce quickly (a 5-minute timeout, DNS failure), built as Node's fetch builds them.
import { describe, expect, it } from "vitest";
import { IpuaroError } from "../../../src/main/errors.js";
import { LlmCancelledError, isUnreachable, toLlmError } from "../../../src/main/llm/llm-errors.js";

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

  it("says why fetch failed when its cause has no code (OLLAMA_HOST on a port fetch refuses)", () => {
    const err = toLlmError(new TypeError("fetch failed", { cause: new Error("bad port") }), ctx, false);
    expect(err.message).toBe("Ollama at http://gpu-box:11434 failed while streaming the model's reply: fetch failed (bad port)");
  });

  it("passes typed errors through unchanged", () => {
    const typed = new IpuaroError("llm", "already typed");
    expect(toLlmError(typed, ctx, false)).toBe(typed);
  });
});
