// A loopback Ollama that speaks the real wire format (notes-dependencies.md §5) and plays scripted turns.
// It truncates prompts like the real server: whole old messages first (server/prompt.go keeps system
// messages and the last message), then tokens from the front of what is left (the runner keeps `num_keep`).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const DEFAULT_FAKE_MODEL = "qwen2.5-coder:7b-instruct";
/** Ollama's num_ctx when a request does not set `options.num_ctx`. */
export const OLLAMA_DEFAULT_NUM_CTX = 2048;
/** Tokens the runner keeps at the start of a prompt it has to cut (its log shows keep=4..5). */
const RUNNER_NUM_KEEP = 4;

export interface FakeModel {
  name: string;
  contextLength?: number;
  family?: string;
}

export interface FakeOllamaOptions {
  /** Installed models (listed by /api/tags). Default: qwen2.5-coder:7b-instruct with a 32768 context. */
  models?: Array<string | FakeModel>;
  /** Models /api/pull can fetch; anything else fails like the registry's "file does not exist". */
  pullable?: Array<string | FakeModel>;
  defaultNumCtx?: number;
  /** The fake tokenizer: ceil(chars / charsPerToken) on the rendered prompt. */
  charsPerToken?: number;
  /** Characters per streamed text chunk. */
  chunkSize?: number;
  pullStepMs?: number;
  version?: string;
}

export interface ChatMessage {
  role: string;
  content: string;
  tool_calls?: Array<{ function: { name: string; arguments: Record<string, unknown> } }>;
  tool_name?: string;
}

/** What one /api/chat request amounted to once the fake had applied num_ctx. */
export interface ChatSeen {
  model: string;
  stream: boolean;
  /** `options.num_ctx` as sent (undefined when absent). */
  numCtxSent: number | undefined;
  /** The window actually used: num_ctx or the default, capped by the model's context length. */
  numCtx: number;
  temperature: number | undefined;
  messages: ChatMessage[];
  /** The messages left after dropping old ones to fit. */
  seenMessages: ChatMessage[];
  droppedMessages: number;
  /** The rendered prompt the "model" evaluated (after token truncation). */
  prompt: string;
  originalPromptTokens: number;
  promptTokens: number;
  truncated: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  body: any; // any: raw JSON exactly as the client sent it; tests index into it freely
  chat?: ChatSeen;
  /** The response never finished: the client closed the connection (or a scripted disconnect cut it). */
  aborted: boolean;
}

type Dynamic<T> = T | ((seen: ChatSeen) => T);
type Step =
  | { kind: "text"; text: Dynamic<string> }
  | { kind: "tool"; name: string; args: Dynamic<Record<string, unknown>> };

/** One scripted answer to one /api/chat request. Methods chain. */
export class ScriptedTurn {
  readonly steps: Step[] = [];
  mode: { kind: "normal" } | { kind: "hang" } | { kind: "disconnect"; afterChunks: number } | { kind: "stall"; afterChunks: number } |
    { kind: "http-error"; status: number; message: string } | { kind: "stream-error"; afterChunks: number; message: string } =
    { kind: "normal" };
  firstTokenDelayMs = 0;
  chunkDelayMs = 0;
  reason = "stop";
  reportPromptEvalCount = true;
  writeAtOnce = false;

  text(text: Dynamic<string>): this { this.steps.push({ kind: "text", text }); return this; }
  /** A native tool call (`message.tool_calls`). */
  toolCall(name: string, args: Dynamic<Record<string, unknown>> = {}): this {
    this.steps.push({ kind: "tool", name, args });
    return this;
  }
  /** Never answers (not even headers, like a model still loading) until the client goes away. */
  hang(): this { this.mode = { kind: "hang" }; return this; }
  /**
   * Sends the headers and `afterChunks` streamed chunks, then nothing more while keeping the connection open
   * (a stuck runner). A non-streamed request gets nothing at all, as with hang().
   */
  stallAfter(afterChunks = 1): this { this.mode = { kind: "stall", afterChunks }; return this; }
  /** Destroys the socket after `afterChunks` streamed chunks. */
  disconnectMidStream(afterChunks = 2): this { this.mode = { kind: "disconnect", afterChunks }; return this; }
  /** Sends an `{"error":…}` line mid-stream, as Ollama does when the runner fails during generation. */
  streamError(message = "an error was encountered while running the model", afterChunks = 1): this {
    this.mode = { kind: "stream-error", afterChunks, message };
    return this;
  }
  httpError(status: number, message = "server busy"): this { this.mode = { kind: "http-error", status, message }; return this; }
  slowFirstToken(ms: number): this { this.firstTokenDelayMs = ms; return this; }
  chunkDelay(ms: number): this { this.chunkDelayMs = ms; return this; }
  /** All chunks in one write, as when the client lags behind a fast server and reads them buffered together. */
  burst(): this { this.writeAtOnce = true; return this; }
  doneReason(reason: string): this { this.reason = reason; return this; }
  /** Older Ollama left prompt_eval_count out when the prompt came from its cache. */
  omitPromptEvalCount(): this { this.reportPromptEvalCount = false; return this; }
}

const sleep = (ms: number) => new Promise<void>((r) => (ms > 0 ? setTimeout(r, ms) : setImmediate(r)));
/** Ollama resolves a name without a tag to `:latest`. */
const withTag = (name: string) => (name.includes(":") ? name : `${name}:latest`);
const toModel = (m: string | FakeModel): Required<FakeModel> => {
  const model = typeof m === "string" ? { name: m } : m;
  return { name: withTag(model.name), contextLength: model.contextLength ?? 32768, family: model.family ?? "qwen2" };
};

export class FakeOllama {
  readonly requests: RecordedRequest[] = [];
  /** Broken invariants seen in requests (orphan tool results, no turn left…); assertAllConsumed reports them. */
  readonly violations: string[] = [];
  private readonly turns: ScriptedTurn[] = [];
  private readonly models = new Map<string, Required<FakeModel>>();
  private readonly pullable = new Map<string, Required<FakeModel>>();
  private readonly opts: Required<Omit<FakeOllamaOptions, "models" | "pullable">>;
  private server: Server | undefined;
  private port = 0;

  constructor(options: FakeOllamaOptions = {}) {
    for (const m of options.models ?? [DEFAULT_FAKE_MODEL]) this.models.set(toModel(m).name, toModel(m));
    for (const m of options.pullable ?? []) this.pullable.set(toModel(m).name, toModel(m));
    this.opts = {
      defaultNumCtx: options.defaultNumCtx ?? OLLAMA_DEFAULT_NUM_CTX,
      charsPerToken: options.charsPerToken ?? 4,
      chunkSize: options.chunkSize ?? 4,
      pullStepMs: options.pullStepMs ?? 2,
      version: options.version ?? "0.12.0",
    };
  }

  get url(): string {
    if (!this.server) throw new Error("FakeOllama: call start() first");
    return `http://127.0.0.1:${this.port}`;
  }

  get chatRequests(): ChatSeen[] {
    return this.requests.flatMap((r) => (r.chat ? [r.chat] : []));
  }

  /** Listens on `port` (default: any free one); a fixed port lets a test start "Ollama" after the client. */
  async start(port = 0): Promise<this> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        // A throwing scripted function must fail the test through assertAllConsumed, not crash the worker.
        this.violations.push(`handler error on ${req.method} ${req.url}: ${err instanceof Error ? err.message : String(err)}`);
        if (!res.headersSent) sendJson(res, 500, { error: "fake-ollama handler error" });
        else res.destroy();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", resolve);
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Queues a turn; turns are served to /api/chat requests in order. */
  reply(): ScriptedTurn {
    const turn = new ScriptedTurn();
    this.turns.push(turn);
    return turn;
  }

  reset(): void {
    this.turns.length = 0;
    this.requests.length = 0;
    this.violations.length = 0;
  }

  addModel(model: string | FakeModel): void { this.models.set(toModel(model).name, toModel(model)); }
  removeModel(name: string): void { this.models.delete(withTag(name)); }

  countTokens(text: string): number { return Math.ceil(text.length / this.opts.charsPerToken); }

  assertAllConsumed(): void {
    const problems = [...this.violations];
    if (this.turns.length > 0) problems.push(`${this.turns.length} scripted turn(s) were never requested`);
    if (problems.length > 0) throw new Error(`FakeOllama: ${problems.join("; ")}`);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? "/").split("?")[0]!;
    const record: RecordedRequest = { method: req.method ?? "GET", path, body: undefined, aborted: false };
    this.requests.push(record);
    res.on("close", () => { if (!res.writableFinished) record.aborted = true; });
    if (raw.length > 0) {
      try {
        record.body = JSON.parse(raw);
      } catch {
        return sendJson(res, 400, { error: "invalid character in request body" });
      }
    }
    const route = `${record.method} ${path}`;
    if (route === "GET /api/version") return sendJson(res, 200, { version: this.opts.version });
    if (route === "GET /api/tags") return sendJson(res, 200, { models: [...this.models.values()].map(tagEntry) });
    if (route === "POST /api/show") return this.show(record, res);
    if (route === "POST /api/pull") return this.pull(record, res);
    if (route === "POST /api/chat") return this.chat(record, res);
    res.writeHead(404, { "Content-Type": "text/plain" }).end("404 page not found");
  }

  private show(record: RecordedRequest, res: ServerResponse): void {
    const name = String(record.body?.model ?? record.body?.name ?? "");
    const model = this.models.get(withTag(name));
    if (!model) return sendJson(res, 404, { error: `model '${name}' not found` });
    sendJson(res, 200, {
      modelfile: `FROM ${name}`,
      parameters: 'stop "<|im_end|>"',
      template: "{{ .Prompt }}",
      details: tagEntry(model).details,
      model_info: { "general.architecture": model.family, [`${model.family}.context_length`]: model.contextLength },
      capabilities: ["completion", "tools"],
      modified_at: new Date().toISOString(),
    });
  }

  private async pull(record: RecordedRequest, res: ServerResponse): Promise<void> {
    const name = String(record.body?.model ?? record.body?.name ?? "");
    const stream = record.body?.stream !== false;
    const model = this.pullable.get(withTag(name)) ?? this.models.get(withTag(name));
    if (!model) {
      const error = { error: "pull model manifest: file does not exist" };
      if (!stream) return sendJson(res, 500, error);
      res.writeHead(200, { "Content-Type": "application/x-ndjson" });
      res.write(`${JSON.stringify({ status: "pulling manifest" })}\n`);
      return void res.end(`${JSON.stringify(error)}\n`);
    }
    const digest = `sha256:${"6a0746a1ec1a".padEnd(64, "0")}`;
    const total = 4_683_075_271;
    const lines: object[] = [{ status: "pulling manifest" }];
    for (const completed of [0, Math.floor(total / 3), Math.floor((2 * total) / 3), total]) {
      lines.push({ status: `pulling ${digest.slice(7, 19)}`, digest, total, completed });
    }
    lines.push({ status: "verifying sha256 digest" }, { status: "writing manifest" }, { status: "success" });
    if (!stream) {
      this.models.set(model.name, model);
      return sendJson(res, 200, { status: "success" });
    }
    res.writeHead(200, { "Content-Type": "application/x-ndjson" });
    for (const line of lines) {
      if (res.destroyed) return;
      if ((line as { status: string }).status === "success") this.models.set(model.name, model);
      res.write(`${JSON.stringify(line)}\n`);
      await sleep(this.opts.pullStepMs);
    }
    res.end();
  }

  private async chat(record: RecordedRequest, res: ServerResponse): Promise<void> {
    const body = record.body ?? {};
    const model = this.models.get(withTag(String(body.model ?? "")));
    if (!model) return sendJson(res, 404, { error: `model '${String(body.model)}' not found, try pulling it first` });
    if (!Array.isArray(body.messages)) return sendJson(res, 400, { error: "messages must be an array" });
    const seen = this.fitToContext(body, model);
    record.chat = seen;
    this.checkToolResults(seen.messages);
    const turn = this.turns.shift();
    if (!turn) {
      this.violations.push(`unexpected /api/chat request #${this.chatRequests.length} (no scripted turn left)`);
      return sendJson(res, 500, { error: "fake-ollama: no scripted turn left" });
    }
    await new ChatResponder(res, turn, seen, this.opts.chunkSize, (t) => this.countTokens(t)).run();
  }

  /** Applies num_ctx the way the real server does and returns what the model gets to see. */
  // any: the raw request body, validated field by field below
  private fitToContext(body: any, model: Required<FakeModel>): ChatSeen {
    const messages = body.messages as ChatMessage[];
    const numCtxSent = typeof body.options?.num_ctx === "number" ? (body.options.num_ctx as number) : undefined;
    // The real server caps a num_ctx above the model's trained length ("requested context size too large").
    const numCtx = Math.min(numCtxSent ?? this.opts.defaultNumCtx, model.contextLength);
    const tools = Array.isArray(body.tools) ? body.tools : [];
    const fullTokens = this.countTokens(renderPrompt(messages, tools));
    let start = 0;
    let prompt = renderPrompt(messages, tools);
    for (let i = 0; i < messages.length; i++) {
      start = toolBlockStart(messages, i);
      prompt = renderPrompt(keptMessages(messages, start), tools);
      if (this.countTokens(prompt) <= numCtx) break;
    }
    const seenMessages = keptMessages(messages, start);
    // What is still too long (the last message alone, or the tools) is cut by the runner, token-wise.
    if (this.countTokens(prompt) > numCtx) {
      const cpt = this.opts.charsPerToken;
      prompt = prompt.slice(0, RUNNER_NUM_KEEP * cpt) + prompt.slice(prompt.length - (numCtx - RUNNER_NUM_KEEP) * cpt);
    }
    const promptTokens = this.countTokens(prompt);
    return {
      model: model.name,
      stream: body.stream !== false,
      numCtxSent,
      numCtx,
      temperature: body.options?.temperature,
      messages,
      seenMessages,
      droppedMessages: messages.length - seenMessages.length,
      prompt,
      originalPromptTokens: fullTokens,
      promptTokens,
      truncated: promptTokens < fullTokens,
    };
  }

  /** Every tool result must answer a call made in the assistant message just before it. */
  private checkToolResults(messages: ChatMessage[]): void {
    messages.forEach((m, i) => {
      const names: string[] = [];
      if (m.role === "tool") names.push(m.tool_name ?? "");
      if (m.role === "user") for (const r of m.content.matchAll(/<tool_result\s+[^>]*name="([^"]*)"/g)) names.push(r[1]!);
      if (names.length === 0) return;
      let j = i - 1;
      while (j >= 0 && messages[j]!.role === "tool") j--;
      const prev = messages[j];
      const callText = prev?.role === "assistant" ? prev.content + JSON.stringify(prev.tool_calls ?? []) : "";
      for (const name of names) {
        if (!name || !callText.includes(name)) this.violations.push(`message ${i}: tool result "${name}" answers no call`);
      }
    });
  }
}

/** Plays one scripted turn onto an HTTP response. */
class ChatResponder {
  private readonly started = process.hrtime.bigint();
  private closed = false;
  constructor(
    private readonly res: ServerResponse,
    private readonly turn: ScriptedTurn,
    private readonly seen: ChatSeen,
    private readonly chunkSize: number,
    private readonly countTokens: (text: string) => number,
  ) {
    res.on("close", () => (this.closed = true));
  }

  async run(): Promise<void> {
    const { turn, res } = this;
    if (turn.mode.kind === "hang") return this.untilClosed();
    await sleep(turn.firstTokenDelayMs);
    if (this.closed) return;
    const promptDoneAt = process.hrtime.bigint();
    if (turn.mode.kind === "http-error") return sendJson(res, turn.mode.status, { error: turn.mode.message });
    const chunks = this.chunks();
    const text = chunks.map((c) => c.content ?? "").join("");
    const stats = () => this.stats(promptDoneAt, text + JSON.stringify(chunks.flatMap((c) => c.tool_calls ?? [])));
    if (!this.seen.stream) {
      if (turn.mode.kind === "disconnect") return void res.socket?.destroy();
      if (turn.mode.kind === "stall") return this.untilClosed();
      const message = { role: "assistant", content: text, ...toolCallsOf(chunks) };
      return sendJson(res, 200, { ...this.base(), message, done: true, ...stats() });
    }
    res.writeHead(200, { "Content-Type": "application/x-ndjson" });
    // Headers go out now even if no chunk follows (stallAfter(0)).
    res.flushHeaders();
    if (turn.writeAtOnce && turn.mode.kind === "normal") {
      const lines = chunks.map((c) => ({ ...this.base(), message: { role: "assistant", ...c }, done: false }));
      lines.push({ ...this.base(), message: { role: "assistant", content: "" }, done: true, ...stats() });
      return void res.end(lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
    }
    for (const [i, chunk] of chunks.entries()) {
      if (this.closed) return;
      if (turn.mode.kind === "disconnect" && i === turn.mode.afterChunks) return void res.socket?.destroy();
      if (turn.mode.kind === "stall" && i === turn.mode.afterChunks) return this.untilClosed();
      if (turn.mode.kind === "stream-error" && i === turn.mode.afterChunks) {
        return void res.end(`${JSON.stringify({ error: turn.mode.message })}\n`);
      }
      res.write(`${JSON.stringify({ ...this.base(), message: { role: "assistant", ...chunk }, done: false })}\n`);
      await sleep(turn.chunkDelayMs);
    }
    if (this.closed) return;
    if (turn.mode.kind === "disconnect") return void res.socket?.destroy();
    if (turn.mode.kind === "stall") return this.untilClosed();
    if (turn.mode.kind === "stream-error") return void res.end(`${JSON.stringify({ error: turn.mode.message })}\n`);
    res.end(`${JSON.stringify({ ...this.base(), message: { role: "assistant", content: "" }, done: true, ...stats() })}\n`);
  }

  /** Resolves when the client goes away (hang, stall). */
  private untilClosed(): Promise<void> {
    return this.closed ? Promise.resolve() : new Promise((resolve) => this.res.on("close", () => resolve()));
  }

  private chunks(): Array<{ content?: string; tool_calls?: ChatMessage["tool_calls"] }> {
    const out: Array<{ content?: string; tool_calls?: ChatMessage["tool_calls"] }> = [];
    for (const step of this.turn.steps) {
      if (step.kind === "text") {
        const text = typeof step.text === "function" ? step.text(this.seen) : step.text;
        // By code point, as Ollama streams whole characters (never half an emoji's surrogate pair).
        const chars = Array.from(text);
        for (let i = 0; i < chars.length; i += this.chunkSize) out.push({ content: chars.slice(i, i + this.chunkSize).join("") });
      } else {
        const args = typeof step.args === "function" ? step.args(this.seen) : step.args;
        out.push({ content: "", tool_calls: [{ function: { name: step.name, arguments: args } }] });
      }
    }
    return out;
  }

  private base() {
    return { model: this.seen.model, created_at: new Date().toISOString() };
  }

  private stats(promptDoneAt: bigint, output: string) {
    const now = process.hrtime.bigint();
    return {
      done_reason: this.turn.reason,
      total_duration: Number(now - this.started),
      load_duration: 1_000_000,
      ...(this.turn.reportPromptEvalCount ? { prompt_eval_count: this.seen.promptTokens } : {}),
      prompt_eval_duration: Number(promptDoneAt - this.started),
      eval_count: this.countTokens(output),
      eval_duration: Number(now - promptDoneAt),
    };
  }
}

function toolCallsOf(chunks: Array<{ tool_calls?: ChatMessage["tool_calls"] }>) {
  const calls = chunks.flatMap((c) => c.tool_calls ?? []);
  return calls.length > 0 ? { tool_calls: calls } : {};
}

/** ChatML, as qwen2.5's template renders it (tools go into the system block). */
function renderPrompt(messages: ChatMessage[], tools: unknown[]): string {
  let out = tools.length > 0 ? `<|im_start|>system\n# Tools\n<tools>\n${tools.map((t) => JSON.stringify(t)).join("\n")}\n</tools><|im_end|>\n` : "";
  for (const m of messages) {
    const calls = (m.tool_calls ?? []).map((c) => `\n<tool_call>\n${JSON.stringify(c.function)}\n</tool_call>`).join("");
    const content = m.role === "tool" ? `<tool_response>\n${m.content}\n</tool_response>` : m.content;
    out += `<|im_start|>${m.role === "tool" ? "user" : m.role}\n${content}${calls}<|im_end|>\n`;
  }
  return `${out}<|im_start|>assistant\n`;
}

/** System messages before `start`, then everything from `start` on. */
function keptMessages(messages: ChatMessage[], start: number): ChatMessage[] {
  return [...messages.slice(0, start).filter((m) => m.role === "system"), ...messages.slice(start)];
}

/** Never orphan a tool response from the assistant turn that asked for it (as server/prompt.go does). */
function toolBlockStart(messages: ChatMessage[], idx: number): number {
  if (idx <= 0 || idx >= messages.length || messages[idx]!.role !== "tool") return idx;
  let start = idx;
  while (start > 0 && messages[start - 1]!.role === "tool") start--;
  const assistant = messages[start - 1];
  return assistant?.role === "assistant" && (assistant.tool_calls?.length ?? 0) > 0 ? start - 1 : idx;
}

function tagEntry(model: Required<FakeModel>) {
  return {
    name: model.name,
    model: model.name,
    modified_at: new Date().toISOString(),
    size: 4_683_087_332,
    digest: "6a0746a1ec1aef3e7ec53868f220ff6e389f6f8ef87a01d77c96807de94ca2aa",
    details: {
      parent_model: "",
      format: "gguf",
      family: model.family,
      families: [model.family],
      parameter_size: "7.6B",
      quantization_level: "Q4_K_M",
    },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

/** A loopback URL where nothing listens (a port just released), for "Ollama is down" tests. */
export async function unusedLoopbackUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A call in the XML form the system prompt teaches: `<tool_call name="get_lines"><path>a.ts</path></tool_call>`. */
export function xmlToolCall(name: string, args: Record<string, string | number>): string {
  return `<tool_call name="${name}">${Object.entries(args).map(([k, v]) => `<${k}>${v}</${k}>`).join("")}</tool_call>`;
}
