// The agent runtime on the shadow fixture (real Redis, fake Ollama) with a UI port that records what it
// is asked: the wiring tests check which edits reach the user and what the model is sent.
import { createAgentRuntime, type AgentRuntime } from "../../../src/main/agent/agent-runtime.js";
import type { TurnEvent } from "../../../src/main/agent/orchestrator.js";
import type { ConflictChoice, ErrorChoice, UiPort } from "../../../src/main/agent/ports.js";
import type { IpuaroConfig } from "../../../src/main/config/schema.js";
import { OllamaClient } from "../../../src/main/llm/ollama-client.js";
import { TokenEstimator } from "../../../src/main/llm/token-estimator.js";
import { openSession } from "../../../src/main/session/open-session.js";
import type { CommandDecision, EditDecision, EditProposal } from "../../../src/main/tools/tool-types.js";
import { DEFAULT_FAKE_MODEL, type ChatMessage, type FakeOllama } from "../../helpers/fake-ollama.js";
import type { IndexedProject } from "../../helpers/indexed-project.js";

/** Applies every edit it is asked about and runs every command, remembering the proposals. */
export class RecordingUi implements UiPort {
  readonly editProposals: EditProposal[] = [];
  readonly notices: string[] = [];

  async confirmEdit(proposal: EditProposal): Promise<EditDecision> {
    this.editProposals.push(proposal);
    return { action: "apply" };
  }
  async confirmCommand(): Promise<CommandDecision> {
    return "once";
  }
  async chooseOnError(): Promise<ErrorChoice> {
    return "abort";
  }
  async resolveConflict(): Promise<ConflictChoice> {
    return "skip";
  }
  notify(_level: "info" | "warn" | "error", message: string): void {
    this.notices.push(message);
  }
}

export interface WiredAgent {
  runtime: AgentRuntime;
  ui: RecordingUi;
  turn(text: string): Promise<TurnEvent[]>;
}

/** A new session on the project with auto-apply on. */
export async function startWiredAgent(project: IndexedProject, fake: FakeOllama, config: IpuaroConfig): Promise<WiredAgent> {
  const estimator = new TokenEstimator();
  const llm = new OllamaClient({ host: fake.url, model: DEFAULT_FAKE_MODEL, contextWindow: config.llm.contextWindow, temperature: 0, tokenEstimator: estimator });
  if ((await llm.checkModel()).status !== "ready") throw new Error("fake model missing");
  const { session } = await openSession({ redis: project.redis, projectName: project.store.projectName, root: project.root, config, choice: { kind: "new" } });
  const ui = new RecordingUi();
  const runtime = createAgentRuntime({
    root: project.root,
    config,
    store: project.store,
    ui,
    llm,
    estimator,
    autoApply: () => true,
    session,
    index: { refreshIndex: async () => void (await project.reindex()), registerOwnWrite: () => {} },
  });
  return {
    runtime,
    ui,
    async turn(text) {
      const events: TurnEvent[] = [];
      for await (const e of runtime.orchestrator.runTurn(text)) events.push(e);
      return events;
    },
  };
}

/** The system prompt of a recorded chat request. */
export function systemOf(messages: readonly ChatMessage[]): string {
  const first = messages[0];
  if (first?.role !== "system") throw new Error("the request has no system message");
  return first.content;
}

/** The project-memory block of a system prompt ("" when there is none): from its header to the next part. */
export function memoryBlockOf(system: string): string {
  const start = system.indexOf("## Project memory (ipuaro)");
  if (start < 0) return "";
  const rest = system.slice(start);
  // Parts of the system prompt are joined by a blank line; the block itself has none.
  const end = rest.indexOf("\n\n");
  return end < 0 ? rest : rest.slice(0, end);
}
