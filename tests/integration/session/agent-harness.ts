// The agent in-process against a fake Ollama and a real Redis: an indexed project, a session and the
// runtime, plus a fake whose replies are chosen per request (summary requests answered apart from the
// conversation's own script, so a test does not have to know in advance which request compresses).
import { createAgentRuntime, type AgentRuntime } from "../../../src/main/agent/agent-runtime.js";
import type { TurnStats } from "../../../src/main/agent/events.js";
import { HeadlessUi } from "../../../src/main/agent/headless-ui.js";
import type { UiPort } from "../../../src/main/agent/ports.js";
import type { TurnEvent } from "../../../src/main/agent/orchestrator.js";
import type { IpuaroConfig } from "../../../src/main/config/schema.js";
import { SUMMARY_SYSTEM_PROMPT } from "../../../src/main/context/compression/conversation-summary.js";
import { OllamaClient, type LlmClient } from "../../../src/main/llm/ollama-client.js";
import type { ToolRegistry } from "../../../src/main/tools/registry.js";
import { TokenEstimator } from "../../../src/main/llm/token-estimator.js";
import { openSession, type SessionChoice } from "../../../src/main/session/open-session.js";
import { DEFAULT_FAKE_MODEL, type ChatSeen, type FakeOllama } from "../../helpers/fake-ollama.js";
import type { IndexedProject } from "../../helpers/indexed-project.js";

export function isSummaryRequest(seen: ChatSeen): boolean {
  return seen.messages[0]?.content === SUMMARY_SYSTEM_PROMPT;
}

/**
 * Queues `script.length + summaries` turns: a summary request gets `summary`, every other request the
 * next line of the script. The number of summary requests is then checked by assertAllConsumed.
 */
export function scriptConversation(fake: FakeOllama, script: string[], opts: { summaries: number; summary: string }): void {
  const queue = [...script];
  for (let i = 0; i < script.length + opts.summaries; i++) {
    fake.reply().text((seen) => {
      if (isSummaryRequest(seen)) return opts.summary;
      const next = queue.shift();
      if (next === undefined) throw new Error("the conversation script ran out (more requests than scripted)");
      return next;
    });
  }
}

export interface AgentUnderTest {
  runtime: AgentRuntime;
  llm: OllamaClient;
  turn(text: string): Promise<{ events: TurnEvent[]; stats: TurnStats }>;
}

export interface StartAgentOptions {
  /** Wraps the client the runtime uses (e.g. to look at Redis before each request). */
  wrapLlm?: (llm: OllamaClient) => LlmClient;
  registry?: ToolRegistry;
  /** The UI port the agent asks (default: the headless one, which applies edits and aborts on errors). */
  ui?: UiPort;
}

export async function startAgent(
  project: IndexedProject,
  fake: FakeOllama,
  config: IpuaroConfig,
  choice: SessionChoice = { kind: "new" },
  opts: StartAgentOptions = {},
): Promise<AgentUnderTest> {
  const estimator = new TokenEstimator();
  const llm = new OllamaClient({ host: fake.url, model: DEFAULT_FAKE_MODEL, contextWindow: config.llm.contextWindow, temperature: 0, tokenEstimator: estimator });
  const check = await llm.checkModel();
  if (check.status !== "ready") throw new Error("fake model missing");
  const { session } = await openSession({ redis: project.redis, projectName: project.store.projectName, root: project.root, config, choice });
  const runtime = createAgentRuntime({
    root: project.root,
    config,
    store: project.store,
    ui: opts.ui ?? new HeadlessUi(true, () => {}),
    llm: opts.wrapLlm ? opts.wrapLlm(llm) : llm,
    estimator,
    ...(opts.registry ? { registry: opts.registry } : {}),
    autoApply: () => true,
    session,
    index: { refreshIndex: async () => void (await project.reindex()), registerOwnWrite: () => {} },
  });
  return {
    runtime,
    llm,
    async turn(text) {
      const events: TurnEvent[] = [];
      const gen = runtime.orchestrator.runTurn(text);
      for (;;) {
        const next = await gen.next();
        if (next.done) return { events, stats: next.value };
        events.push(next.value);
      }
    },
  };
}

export function withConfig(
  base: IpuaroConfig,
  patch: { contextWindow?: number; autoCompressAt?: number | null; compressionMethod?: "llm-summary" | "truncate"; maxHistoryMessages?: number },
): IpuaroConfig {
  return {
    ...base,
    ...(patch.maxHistoryMessages ? { session: { ...base.session, maxHistoryMessages: patch.maxHistoryMessages } } : {}),
    llm: { ...base.llm, ...(patch.contextWindow ? { contextWindow: patch.contextWindow } : {}) },
    context: {
      ...base.context,
      projectBudgetTokens: 500,
      ...(patch.autoCompressAt !== undefined ? { autoCompressAt: patch.autoCompressAt } : {}),
      ...(patch.compressionMethod ? { compressionMethod: patch.compressionMethod } : {}),
    },
  };
}

/** A source file of `lines` lines, each about 60 characters, with a marker naming the file on every line. */
export function bigSource(name: string, lines: number): string {
  const out: string[] = [];
  for (let i = 1; i <= lines; i++) out.push(`export const ${name}_${i} = computeSomething("${name}", ${i}); // ${name}-line-${i}`);
  return `${out.join("\n")}\n`;
}
