// Wires one project's agent: model client, tool registry, system prompt with the ranked project
// context, and the orchestrator. The headless `run` command and the TUI both start from here.
import type { IpuaroConfig } from "../config/schema.js";
import { buildInitialContext } from "../context/initial-context.js";
import type { LlmClient, LlmMessage } from "../llm/ollama-client.js";
import { buildSystemPrompt } from "../llm/system-prompt.js";
import type { TokenEstimator } from "../llm/token-estimator.js";
import type { ProjectStore } from "../store/project-store.js";
import { ToolRegistry } from "../tools/registry.js";
import { Orchestrator } from "./orchestrator.js";
import type { UiPort } from "./ports.js";

/** How many recent messages feed the ranking of the project outline. */
const MENTION_WINDOW = 6;

export interface AgentRuntimeOptions {
  root: string;
  config: IpuaroConfig;
  store: ProjectStore;
  ui: UiPort;
  llm: LlmClient;
  estimator: TokenEstimator;
  autoApply: () => boolean;
  history?: LlmMessage[];
  registry?: ToolRegistry;
}

export interface AgentRuntime {
  orchestrator: Orchestrator;
  registry: ToolRegistry;
  /** The last system prompt sent, for `/status` and tests. */
  lastSystemPrompt(): string;
}

export function createAgentRuntime(opts: AgentRuntimeOptions): AgentRuntime {
  const registry = opts.registry ?? new ToolRegistry();
  const base = buildSystemPrompt({ tools: registry.descriptors(), projectName: opts.store.projectName });
  let last = base;
  const orchestrator = new Orchestrator({
    llm: opts.llm,
    registry,
    ui: opts.ui,
    tools: { root: opts.root, config: opts.config, store: opts.store },
    maxToolRounds: opts.config.agent.maxToolRounds,
    autoApply: opts.autoApply,
    estimator: opts.estimator,
    history: opts.history,
    async systemPrompt(userText, history) {
      const mentions = [userText, ...history.slice(-MENTION_WINDOW).map((m) => m.content)];
      const context = await buildInitialContext({
        store: opts.store,
        root: opts.root,
        budgetTokens: opts.config.context.projectBudgetTokens,
        estimateTokens: (t) => opts.estimator.estimate(t),
        mentions,
      });
      last = `${base}\n\n${context.text}`;
      return last;
    },
  });
  return { orchestrator, registry, lastSystemPrompt: () => last };
}
