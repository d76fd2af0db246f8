// Wires one project's agent: model client, tool registry, system prompt with the ranked project
// context, the session the conversation is kept in, and the orchestrator. The headless `run` command
// and the TUI both start from here.
import type { IpuaroConfig } from "../config/schema.js";
import { createSessionCheckpoints, type SessionCheckpoints } from "../checkpoints/index.js";
import type { CompactionRun } from "../context/compression/compact-conversation.js";
import { summariseWithModel } from "../context/compression/conversation-summary.js";
import { buildInitialContext } from "../context/initial-context.js";
import type { LlmClient, LlmMessage } from "../llm/ollama-client.js";
import { buildSystemPrompt } from "../llm/system-prompt.js";
import type { TokenEstimator } from "../llm/token-estimator.js";
import { evalPrompt, lastAnswer, nothingToEvaluate } from "../session/eval-prompt.js";
import type { IndexServices, LiveSession } from "../session/live-session.js";
import { SessionRecorder } from "../session/session-recorder.js";
import type { UndoOutcome } from "../session/undo-edit.js";
import { analyticsEventsFor } from "../shadow/events-recorder.js";
import { afterTurn, sessionStartMemory } from "../shadow/session-memory.js";
import type { ProjectStore } from "../store/project-store.js";
import { ToolRegistry } from "../tools/registry.js";
import type { TurnStats } from "./events.js";
import { Orchestrator, type TurnEvent } from "./orchestrator.js";
import type { UiPort } from "./ports.js";

/** How many recent messages feed the ranking of the project outline. */
const MENTION_WINDOW = 6;
/** Share of the project budget given to project memory (rules, conventions, due notes) at session start. */
const MEMORY_BUDGET_SHARE = 0.1;
/**
 * The project map takes at most this share of the model's window: context.projectBudgetTokens (10K) is
 * sized for a 128K window, and on qwen2.5-coder's real 32K it took a third of the window before the
 * first message.
 */
export const PROJECT_BUDGET_WINDOW_SHARE = 0.2;

/** The project map's token budget for a window: the configured one, or less on a small window. */
export function projectBudgetFor(configured: number, contextWindow: number): number {
  return Math.max(500, Math.min(configured, Math.floor(contextWindow * PROJECT_BUDGET_WINDOW_SHARE)));
}

export interface AgentRuntimeOptions {
  root: string;
  config: IpuaroConfig;
  store: ProjectStore;
  ui: UiPort;
  llm: LlmClient;
  estimator: TokenEstimator;
  autoApply: () => boolean;
  /** The session the conversation lives in (openSession); its history is where the model starts from. */
  session: LiveSession;
  /** Keeps Redis (and the watcher) in step with ipuaro's own writes: edits and undo. */
  index: IndexServices;
  registry?: ToolRegistry;
}

export interface AgentRuntime {
  orchestrator: Orchestrator;
  registry: ToolRegistry;
  session: LiveSession;
  recorder: SessionRecorder;
  /** The last system prompt sent, for `/status` and tests. */
  lastSystemPrompt(): string;
  /**
   * `/compact [focus]`: compresses the context now. null when there was nothing to compress; a report
   * with `skipped` when the compaction would not have made the context smaller (it was not applied).
   */
  compact(opts?: { focus?: string; signal?: AbortSignal }): Promise<CompactionRun | null>;
  /** `/eval`: a turn in which the model re-checks its last answer against the code. */
  evaluate(signal?: AbortSignal): AsyncGenerator<TurnEvent, TurnStats>;
  /** `/undo`: takes back the session's newest edit. */
  undo(): Promise<UndoOutcome>;
  /** Checkpoints per user turn and rewind (`checkpoints.rewind`: points, preview, rewind, restoreCancelledTurn). */
  checkpoints: SessionCheckpoints;
}

export function createAgentRuntime(opts: AgentRuntimeOptions): AgentRuntime {
  const registry = opts.registry ?? new ToolRegistry();
  const base = buildSystemPrompt({ tools: registry.descriptors(), projectName: opts.store.projectName, toolFormat: opts.config.llm.toolFormat });
  let last = base;
  const session = opts.session;
  const analytics = analyticsEventsFor(opts.store, opts.root);
  // Project memory is read once per session start; reminders of notes that came due after a turn are
  // shown in the next request's fixed part.
  let memory: Promise<string> | null = null;
  let reminder: string | null = null;
  const sessionMemory = () =>
    (memory ??= sessionStartMemory({
      store: opts.store,
      root: opts.root,
      sessionId: session.id,
      budgetTokens: Math.max(200, Math.floor(projectBudgetFor(opts.config.context.projectBudgetTokens, opts.llm.contextWindow) * MEMORY_BUDGET_SHARE)),
      estimateTokens: (t) => opts.estimator.estimate(t),
    })
      .then((m) => m.text)
      .catch((err: unknown) => {
        opts.ui.notify("warn", `project memory unavailable: ${err instanceof Error ? err.message : String(err)}`);
        return "";
      }));
  const recorder = new SessionRecorder({
    session,
    llm: opts.llm,
    estimator: opts.estimator,
    context: opts.config.context,
    maxHistoryMessages: opts.config.session.maxHistoryMessages,
  });
  // A session opened after a rewind (`ipuaro rewind`, or one the last run made) still had the count of
  // the history before it: the status bar and /status showed it until the next message.
  if (!recorder.contextCurrent()) recorder.remeasure(base);
  const systemPrompt = async (userText: string, history: readonly LlmMessage[]) => {
    const mentions = [userText, ...history.slice(-MENTION_WINDOW).map((m) => m.content)];
    const context = await buildInitialContext({
      store: opts.store,
      root: opts.root,
      budgetTokens: projectBudgetFor(opts.config.context.projectBudgetTokens, opts.llm.contextWindow),
      estimateTokens: (t) => opts.estimator.estimate(t),
      mentions,
    });
    const remembered = await sessionMemory();
    last = [base, context.text, remembered, reminder].filter((part) => part).join("\n\n");
    return last;
  };
  const checkpoints = createSessionCheckpoints({
    session,
    root: opts.root,
    config: opts.config,
    store: opts.store,
    index: opts.index,
    onNotice: (message) => opts.ui.notify("warn", message),
    // After a rewind the orchestrator continues from the session's new history, and the context figure
    // is the new history's (the count of the one rewound away stayed until the next message).
    onHistoryChanged: () => {
      orchestrator.replaceHistory(session.llmHistory());
      recorder.remeasure(last);
      session.saveState().catch((err: unknown) => opts.ui.notify("warn", `the context size after the rewind was not saved: ${err instanceof Error ? err.message : String(err)}`));
    },
    onFilesReverted: async (paths) => {
      for (const file of paths) await analytics.editReverted({ sessionId: session.id, file, via: "rewind" });
    },
    ...(opts.config.context.compressionMethod === "truncate"
      ? {}
      : { summarise: async ({ transcript, focus }) => (await summariseWithModel(opts.llm, { transcript, ...(focus ? { focus } : {}) })).text }),
    countTokens: (history) => opts.estimator.estimateMessages(history),
  });
  const orchestrator = new Orchestrator({
    llm: opts.llm,
    registry,
    ui: opts.ui,
    tools: {
      sessionId: session.id,
      root: opts.root,
      config: opts.config,
      store: opts.store,
      session: session.toolState,
      services: { ...session.toolServices(opts.index), analytics },
    },
    maxToolRounds: opts.config.agent.maxToolRounds,
    autoApply: opts.autoApply,
    confirmRiskyEdits: opts.config.edit.alwaysConfirm,
    autoRetry: opts.config.llm.autoRetry,
    toolFormat: opts.config.llm.toolFormat,
    estimator: opts.estimator,
    history: session.llmHistory(),
    recorder,
    systemPrompt,
    onTurnStart: () => checkpoints.beginTurn(),
    onTurnEnd: async (toolNames) => {
      try {
        reminder = (await afterTurn({ store: opts.store, root: opts.root, sessionId: session.id, toolNames })).reminder;
      } catch {
        // Analytics never break a turn; the next session start re-checks the notes.
        reminder = null;
      }
    },
  });

  return {
    orchestrator,
    registry,
    session,
    recorder,
    lastSystemPrompt: () => last,
    async compact({ focus, signal } = {}) {
      const lastUser = [...orchestrator.history].reverse().find((m) => m.role === "user")?.content ?? "";
      const system = await systemPrompt(lastUser, orchestrator.history);
      const outcome = await recorder.compact({ system, trigger: "manual", ...(focus ? { focus } : {}), ...(signal ? { signal } : {}) });
      if (!outcome) return null;
      if (outcome.history) orchestrator.replaceHistory(outcome.history);
      return outcome.report;
    },
    evaluate(signal) {
      const answer = lastAnswer(session.messages());
      if (!answer) throw nothingToEvaluate(session.id);
      return orchestrator.runTurn(evalPrompt(answer.content), signal, { command: "eval" });
    },
    async undo() {
      const outcome = await session.undo(opts.index);
      if (outcome.status === "undone") await analytics.editReverted({ sessionId: session.id, file: outcome.entry.filePath, via: "undo" });
      return outcome;
    },
    checkpoints,
  };
}

/** For the TUI's `/compact [focus]`. */
export function compactSession(runtime: AgentRuntime, opts: { focus?: string; signal?: AbortSignal } = {}) {
  return runtime.compact(opts);
}
