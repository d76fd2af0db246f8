// The agent loop (seed 000 "Общий флоу"): user message → context → model → tool calls → results back →
// … until a final answer. An async generator of typed events: the caller renders them and answers the
// UI port's questions; nothing here knows how things are shown.
import { IpuaroError, isIpuaroError } from "../errors.js";
import { isLlmCancelled } from "../llm/llm-errors.js";
import type { LlmClient, LlmMessage, NativeToolCall, ResponseStats } from "../llm/ollama-client.js";
import { formatToolResult } from "../llm/system-prompt.js";
import { parseToolCalls, type ParsedCall } from "../llm/tool-call-parser.js";
import type { TokenEstimator } from "../llm/token-estimator.js";
import type { ToolRegistry } from "../tools/registry.js";
import type { ToolContext, ToolPorts, ToolResult } from "../tools/tool-types.js";
import type { AgentEvent, FinishReason, TurnStats } from "./events.js";
import { DoomLoopDetector } from "./loop-guards.js";
import type { UiPort } from "./ports.js";
import { VisibleTextFilter } from "./visible-text.js";

export interface OrchestratorOptions {
  llm: LlmClient;
  registry: ToolRegistry;
  ui: UiPort;
  tools: Omit<ToolContext, "ports" | "signal">;
  /** The fixed part: system prompt with tools, project outline, instructions. Built per turn. */
  systemPrompt(userText: string, history: readonly LlmMessage[]): Promise<string>;
  maxToolRounds: number;
  autoApply(): boolean;
  estimator?: TokenEstimator;
  /** Earlier conversation (from a session). */
  history?: LlmMessage[];
}

type RoundOutcome = { kind: "reply"; text: string; native: NativeToolCall[] } | { kind: "stop"; reason: FinishReason; text: string };

export class Orchestrator {
  readonly history: LlmMessage[];
  private callSeq = 0;

  constructor(private readonly opts: OrchestratorOptions) {
    this.history = opts.history ?? [];
  }

  private ports(): ToolPorts {
    return {
      confirmEdit: async (p) => (this.opts.autoApply() ? { action: "apply" } : this.opts.ui.confirmEdit(p)),
      confirmCommand: (p) => this.opts.ui.confirmCommand(p),
    };
  }

  async *runTurn(userText: string, signal?: AbortSignal): AsyncGenerator<AgentEvent, TurnStats> {
    const started = performance.now();
    const stats: TurnStats = { timeMs: 0, tokens: 0, promptTokens: 0, completionTokens: 0, toolCalls: 0, requests: 0 };
    const finish = (reason: FinishReason, text: string): AgentEvent => {
      stats.timeMs = performance.now() - started;
      stats.tokens = stats.promptTokens + stats.completionTokens;
      return { type: "finished", reason, text, stats };
    };
    this.history.push({ role: "user", content: userText });
    const doom = new DoomLoopDetector();
    const known = (name: string) => this.opts.registry.has(name);

    for (let round = 0; ; round++) {
      if (round >= this.opts.maxToolRounds) {
        const text = `Stopped after ${this.opts.maxToolRounds} consecutive tool rounds without a final answer (agent.maxToolRounds). Ask again with a narrower question, or raise the limit.`;
        this.history.push({ role: "assistant", content: text });
        yield finish("max-rounds", text);
        return stats;
      }
      const system = await this.opts.systemPrompt(userText, this.history);
      const outcome: RoundOutcome = yield* this.requestOnce(system, stats, signal);
      if (outcome.kind === "stop") {
        yield finish(outcome.reason, outcome.text);
        return stats;
      }
      const parsed = parseToolCalls(outcome.text, known, { nativeCalls: outcome.native });
      this.history.push({ role: "assistant", content: outcome.text, ...(outcome.native.length ? { toolCalls: outcome.native } : {}) });
      if (!parsed.calls.length && !parsed.errors.length) {
        yield finish("answer", parsed.text.trim());
        return stats;
      }
      const results: string[] = [];
      for (const err of parsed.errors) results.push(formatToolResult(err.name ?? "tool_call", { success: false, error: err.message }));
      for (const call of parsed.calls) {
        if (doom.record(call.name, call.arguments)) {
          const reason = `the model called ${call.name} with the same arguments ${3} times in a row`;
          yield { type: "loop-detected", reason };
          results.push(formatToolResult(call.name, { success: false, error: "Stopped: identical call repeated. Answer with what you have." }));
          this.history.push({ role: "user", content: results.join("\n\n") });
          const text = `Stopped: ${reason}. This usually means the model is stuck; rephrase the request or give it the missing detail.`;
          yield finish("doom-loop", text);
          return stats;
        }
        const result: ToolResult | "abort" = yield* this.runTool(call, stats, signal);
        if (result === "abort") {
          results.push(formatToolResult(call.name, { success: false, error: "cancelled by the user" }));
          this.history.push({ role: "user", content: results.join("\n\n") });
          yield finish("aborted", "Aborted.");
          return stats;
        }
        results.push(formatToolResult(call.name, { callId: result.callId, success: result.success, data: result.data, error: result.error }));
      }
      // Results go back as data, in one message, right after the calls they answer.
      this.history.push({ role: "user", content: results.join("\n\n") });
    }
  }

  private async *requestOnce(system: string, stats: TurnStats, signal?: AbortSignal): AsyncGenerator<AgentEvent, RoundOutcome> {
    for (;;) {
      const filter = new VisibleTextFilter();
      let text = "";
      const native: NativeToolCall[] = [];
      let response: ResponseStats | null = null;
      try {
        const stream = this.opts.llm.chatStream({ messages: [{ role: "system", content: system }, ...this.history], signal });
        for await (const chunk of stream) {
          if (chunk.type === "text") {
            text += chunk.text;
            const visible = filter.push(chunk.text);
            if (visible) yield { type: "text", text: visible };
          } else if (chunk.type === "tool_calls") native.push(...chunk.calls);
          else response = chunk.stats;
        }
        const rest = filter.flush();
        if (rest) yield { type: "text", text: rest };
        stats.requests++;
        if (response) {
          stats.promptTokens += response.promptTokens ?? this.estimatePrompt(system);
          stats.completionTokens += response.completionTokens ?? this.opts.estimator?.estimate(text) ?? 0;
          yield { type: "response", stats: response };
        }
        return { kind: "reply", text, native };
      } catch (err) {
        if (isLlmCancelled(err) || signal?.aborted) return { kind: "stop", reason: "cancelled", text: text ? `${text}\n[interrupted]` : "[interrupted]" };
        const error = isIpuaroError(err) ? err : new IpuaroError("llm", err instanceof Error ? err.message : String(err));
        const choice = error.recoverable ? await this.opts.ui.chooseOnError(error) : "abort";
        yield { type: "error", error, choice };
        if (choice === "retry") {
          yield { type: "retry", reason: error.message };
          continue;
        }
        return { kind: "stop", reason: choice === "skip" ? "error" : "aborted", text: `The model request failed: ${error.message}` };
      }
    }
  }

  private estimatePrompt(system: string): number {
    const e = this.opts.estimator;
    if (!e) return 0;
    return e.estimate(system) + this.history.reduce((n, m) => n + e.estimate(m.content), 0);
  }

  private async *runTool(call: ParsedCall, stats: TurnStats, signal?: AbortSignal): AsyncGenerator<AgentEvent, ToolResult | "abort"> {
    const tool = this.opts.registry.get(call.name);
    const callId = `call_${++this.callSeq}`;
    const title = tool?.titleFor(call.arguments) ?? call.name;
    yield { type: "tool-call", callId, name: call.name, args: call.arguments, title };
    stats.toolCalls++;
    if (!tool) throw new Error(`unregistered tool ${call.name}`); // the parser only passes registered names
    for (;;) {
      try {
        const result = await tool.run(callId, call.arguments, { ...this.opts.tools, ports: this.ports(), signal });
        yield { type: "tool-result", result };
        return result;
      } catch (err) {
        const error = isIpuaroError(err) ? err : new IpuaroError("file", err instanceof Error ? err.message : String(err));
        const choice = await this.opts.ui.chooseOnError(error);
        yield { type: "error", error, choice };
        if (choice === "retry") continue;
        if (choice === "abort") return "abort";
        const result: ToolResult = {
          callId,
          name: call.name,
          success: false,
          error: `${error.type} error: ${error.message}`,
          code: "UNAVAILABLE",
          truncated: false,
          display: { title, summary: error.message },
          durationMs: 0,
        };
        yield { type: "tool-result", result };
        return result;
      }
    }
  }
}
