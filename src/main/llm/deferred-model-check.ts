// The full-screen UI opens when Ollama is not running yet: a user may start it after ipuaro, or only want
// to go through sessions, undo or rewind. The start-up check (is the model there, how big is its window)
// then runs before the first request instead, and again before each later one until it passes, so
// starting Ollama and pressing retry is all it takes.
import { IpuaroError } from "../errors.js";
import { isOllamaNotRunning, LlmCancelledError } from "./llm-errors.js";
import { missingModelAdvice } from "./missing-model.js";
import type { ChatInput, ChatResult, ChatStream, LlmChunk, LlmClient, ModelCheck, PullOptions } from "./ollama-client.js";

export type ReadyCheck = Extract<ModelCheck, { status: "ready" }>;

export class DeferredModelCheck implements LlmClient {
  private passed = false;
  private running: Promise<void> | null = null;

  /** `onReady` hears the passing check once (its notice says when the window was cut to the model's). */
  constructor(
    private readonly inner: LlmClient,
    private readonly onReady: (check: ReadyCheck) => void,
  ) {}

  get host(): string {
    return this.inner.host;
  }

  get model(): string {
    return this.inner.model;
  }

  /** The configured window until the check passes, then the one the model can take. */
  get contextWindow(): number {
    return this.inner.contextWindow;
  }

  /** Whether the model has been checked (Ollama answered and has it). */
  get checked(): boolean {
    return this.passed;
  }

  /** The window is the model's only once the check has passed. */
  get contextWindowKnown(): boolean {
    return this.passed;
  }

  chatStream(input: ChatInput): ChatStream {
    let inner: ChatStream | null = null;
    const local = new AbortController();
    const signal = input.signal ? AbortSignal.any([input.signal, local.signal]) : local.signal;
    const self = this;
    const chunks = (async function* (): AsyncGenerator<LlmChunk, void> {
      await self.ready(signal);
      inner = self.inner.chatStream({ ...input, signal });
      yield* inner;
    })();
    return Object.assign(chunks, {
      abort: () => {
        local.abort();
        inner?.abort();
      },
    });
  }

  async chat(input: ChatInput): Promise<ChatResult> {
    await this.ready(input.signal);
    return this.inner.chat(input);
  }

  checkModel(signal?: AbortSignal): Promise<ModelCheck> {
    return this.inner.checkModel(signal);
  }

  pull(options?: PullOptions): Promise<void> {
    return this.inner.pull(options);
  }

  /** Runs the check (one at a time) unless it passed; a cancelled request stops waiting for it. */
  private async ready(signal?: AbortSignal): Promise<void> {
    if (this.passed) return;
    this.running ??= this.check().finally(() => (this.running = null));
    if (!signal) return this.running;
    if (signal.aborted) throw new LlmCancelledError(signal.reason);
    let onAbort = (): void => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(new LlmCancelledError(signal.reason));
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      await Promise.race([this.running, aborted]);
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  private async check(): Promise<void> {
    let check: ModelCheck;
    try {
      check = await this.inner.checkModel();
    } catch (err) {
      // The start-up check calls these final; here the user can start Ollama and retry.
      if (isOllamaNotRunning(err)) {
        const e = err as IpuaroError;
        throw new IpuaroError("llm", e.message, { recoverable: true, ...(e.suggestion ? { suggestion: e.suggestion } : {}), cause: e.cause });
      }
      throw err;
    }
    if (check.status === "missing") {
      // The models it does have, and how to choose one, besides pulling (the list is at hand: the check read it).
      throw new IpuaroError("llm", `Ollama at ${check.host} does not have the model ${check.model}.`, {
        recoverable: true,
        suggestion: `${missingModelAdvice(check.model, check.installed, `\`ollama pull ${check.model}\` in another terminal`)} Then retry.`,
      });
    }
    this.passed = true;
    this.onReady(check);
  }
}
