// Checkpoints and rewind for one live session: the tracker (attached to the session's tool state so
// the edit and run tools reach it) and the rewind service over it. The agent runtime creates one per
// session; `ipuaro rewind` creates one without an orchestrator.
import type { IpuaroConfig } from "../config/schema.js";
import type { LlmMessage } from "../llm/ollama-client.js";
import type { IndexServices, LiveSession } from "../session/live-session.js";
import type { ProjectStore } from "../store/project-store.js";
import { CheckpointTracker, type CheckpointSettings } from "./checkpoint-tracker.js";
import type { Summarise } from "./conversation-rewind.js";
import { RewindService } from "./rewind-service.js";
import { attachCheckpointHooks, detachCheckpointHooks } from "./tool-hooks.js";

export { CheckpointTracker, DEFAULT_CHECKPOINT_SETTINGS, type CheckpointSettings } from "./checkpoint-tracker.js";
export { RewindService, describeSkip, type RewindPointStats, type RewindServiceOptions } from "./rewind-service.js";
export { collectGarbage, fileHistoryUsage, formatBytes, type FileHistoryUsage, type GcReport } from "./blob-gc.js";
export { collectShadowGarbage, type ShadowGcReport } from "./shadow-gc.js";
export type * from "./checkpoint-types.js";
export { REWIND_MODES } from "./checkpoint-types.js";
export type { Summarise } from "./conversation-rewind.js";

export interface SessionCheckpointsOptions {
  session: LiveSession;
  root: string;
  config: Pick<IpuaroConfig, "project"> & { checkpoints?: Partial<CheckpointSettings> };
  /** The project's index: pre-command contents of files a command changed come from its Redis copy. */
  store?: Pick<ProjectStore, "getFile" | "getAllStats">;
  index: Pick<IndexServices, "refreshIndex"> & Partial<Pick<IndexServices, "registerOwnWrite">>;
  onNotice?: (message: string) => void;
  onHistoryChanged?: () => void;
  summarise?: Summarise;
  countTokens?: (history: LlmMessage[]) => number;
  isBusy?: () => boolean;
  onFilesReverted?: (paths: string[]) => Promise<void>;
  /** Default: ipuaroHome(). */
  home?: string;
}

export interface SessionCheckpoints {
  tracker: CheckpointTracker;
  rewind: RewindService;
  /** The orchestrator calls this once the user message that starts a turn is stored (it is the head). */
  beginTurn(): Promise<void>;
  /** Detaches the tracker from the session's tools. */
  close(): void;
}

export function createSessionCheckpoints(opts: SessionCheckpointsOptions): SessionCheckpoints {
  const { session } = opts;
  const tracker = new CheckpointTracker({
    root: opts.root,
    sessionId: session.id,
    redis: session.store.client,
    settings: opts.config.checkpoints,
    ignorePatterns: opts.config.project.ignorePatterns,
    index: opts.store,
    ...(opts.home ? { home: opts.home } : {}),
    ...(opts.onNotice ? { onNotice: opts.onNotice } : {}),
  });
  attachCheckpointHooks(session.toolState, {
    beforeConfirm: (rel) => tracker.warnBeforeConfirm(rel),
    beforeWrite: (rel) => tracker.beforeWrite(rel),
    afterWrite: (rel, bytes) => tracker.afterWrite(rel, bytes),
    beforeCommand: (command?: string) => tracker.beforeCommand(command),
  });
  const rewind = new RewindService({
    session,
    tracker,
    index: opts.index,
    ...(opts.onFilesReverted ? { onFilesReverted: opts.onFilesReverted } : {}),
    ...(opts.onHistoryChanged ? { onHistoryChanged: opts.onHistoryChanged } : {}),
    ...(opts.summarise ? { summarise: opts.summarise } : {}),
    ...(opts.countTokens ? { countTokens: opts.countTokens } : {}),
    ...(opts.isBusy ? { isBusy: opts.isBusy } : {}),
  });
  return {
    tracker,
    rewind,
    async beginTurn() {
      const head = session.headMessage();
      if (!head || head.message.role !== "user" || head.id !== session.state.head) return;
      await tracker.beginTurn(head.id);
    },
    close: () => detachCheckpointHooks(session.toolState),
  };
}
