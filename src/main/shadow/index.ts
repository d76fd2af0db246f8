// The project memory and analytics (seed 001, "Code Shadow") as the rest of ipuaro uses them.
export { ANALYZE_QUERIES, runAnalyze, type AnalyzeArgs, type AnalyzeOutcome, type AnalyzeQuery } from "./analyze.js";
export { loadHistory, type FileChange, type ShadowHistory } from "./change-history.js";
export { CONTEXT_SECTIONS, contextInject, type ContextInjectResult, type ContextSection } from "./context-sections.js";
export { parseErrorLocations, testFailureLocations, type ErrorLocation, type ReportedTestFailure } from "./error-locations.js";
export type { ShadowEvent, ShadowEventType } from "./event-types.js";
export {
  analyticsEventsFor,
  changedLineCounts,
  createAnalyticsEvents,
  HUMAN_FIX_WINDOW_MS,
  MAX_EXTERNAL_BATCH,
  recordExternalChanges,
  type AnalyticsEvents,
  type AnalyticsEventsOptions,
  type CommandFailedInput,
  type EditAppliedInput,
  type EditRevertedInput,
  type ExternalChangeInput,
} from "./events-recorder.js";
export { appendEvents, readEvents } from "./events-store.js";
export { BULK_COMMIT_FILES, syncGitHistory, type GitSyncResult, type ImportedCommit } from "./git-history.js";
export { MEMORY_CATEGORIES, DECISION_STATUSES, listDecisions, listMemories, listNotes, type DecisionEntry, type MemoryEntry, type NoteEntry } from "./memory-store.js";
export { parseNoteCondition, type NoteCondition } from "./note-conditions.js";
export { afterTurn, riskWarningFor, sessionStartMemory, type RiskWarning, type SessionMemory, type SessionMemoryOptions, type TurnReminders } from "./session-memory.js";
export { isShadowError, ShadowError, SHADOW_ERROR_CODES, type ShadowErrorCode, type ShadowErrorEnvelope } from "./shadow-errors.js";
export { scopeForTool, sessionIdOf, shadowScope, type ShadowScope } from "./shadow-scope.js";
