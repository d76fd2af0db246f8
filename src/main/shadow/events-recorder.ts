// The recorder the rest of ipuaro calls when something analytics care about happens: an edit applied,
// a file changed outside ipuaro, a failed test run or command, an edit taken back. Recording is
// best-effort: a failure is reported to `onError` and never breaks the edit or command that caused it.
import type { ProjectWatchEvent } from "../indexing/project-watcher.js";
import type { ProjectStore } from "../store/project-store.js";
import type { ErrorSource, NewShadowEvent, ShadowEvent } from "./event-types.js";
import { failureSummary, parseErrorLocations, testFailureLocations, type ReportedTestFailure } from "./error-locations.js";
import { appendEvents, readEvents } from "./events-store.js";
import { shadowScope, type ShadowScope } from "./shadow-scope.js";

/** A human change to a file the agent edited this recently counts as a `human_fix`. */
export const HUMAN_FIX_WINDOW_MS = 3600_000;

export interface EditAppliedInput {
  sessionId: string | null;
  /** Project-relative path. */
  file: string;
  /** Lines before and after (null = the file did not exist / was deleted), e.g. an EditRecord's contents. */
  before: readonly string[] | null;
  after: readonly string[] | null;
  tool: string;
}

export interface ExternalChangeInput {
  file: string;
  change: "created" | "updated" | "deleted" | "renamed";
}

export interface CommandFailedInput {
  sessionId: string | null;
  source: ErrorSource;
  command: string;
  /** The run's whole output (ANSI allowed): tsc diagnostics and stack frames are read from it. */
  output: string;
  /** run_tests' parsed failures, when the runner wrote a report. */
  failures?: readonly ReportedTestFailure[];
}

export interface EditRevertedInput {
  sessionId: string | null;
  file: string;
  via: "undo" | "rewind";
}

/** What the lead wires into the edit tools, run tools, undo/rewind and the watcher. */
export interface AnalyticsEvents {
  editApplied(input: EditAppliedInput): Promise<void>;
  /** Resolves to whether the change was a human_fix of an agent edit. */
  externalChange(input: ExternalChangeInput): Promise<{ humanFix: boolean }>;
  /** Resolves to the number of error events recorded. */
  commandFailed(input: CommandFailedInput): Promise<number>;
  editReverted(input: EditRevertedInput): Promise<void>;
  sessionStarted(sessionId: string): Promise<void>;
  turnFinished(sessionId: string, toolNames: readonly string[]): Promise<void>;
}

export interface AnalyticsEventsOptions {
  /** Called with any failure to record (default: ignored; analytics never break the agent). */
  onError?: (error: unknown) => void;
}

/** Lines added and removed by an edit: the changed middle after common head and tail lines. */
export function changedLineCounts(before: readonly string[] | null, after: readonly string[] | null): { added: number; removed: number } {
  const a = before ?? [];
  const b = after ?? [];
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return { added: b.length - head - tail, removed: a.length - head - tail };
}

/** The agent's edits of `file` within the human-fix window before `at`, newest last. */
async function recentAgentEdits(scope: ShadowScope, file: string, at: number): Promise<ShadowEvent[]> {
  const events = await readEvents(scope, at - HUMAN_FIX_WINDOW_MS, at);
  return events.filter((e) => e.type === "edit" && e.file === file);
}

export function createAnalyticsEvents(scope: ShadowScope, opts: AnalyticsEventsOptions = {}): AnalyticsEvents {
  const onError = opts.onError ?? (() => {});
  async function safely<T>(fallback: T, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      onError(error);
      return fallback;
    }
  }
  const record = (events: NewShadowEvent[]) => appendEvents(scope, events);

  return {
    editApplied: (input) =>
      safely(undefined, async () => {
        const { added, removed } = changedLineCounts(input.before, input.after);
        await record([{ type: "edit", session: input.sessionId, file: input.file, added, removed, tool: input.tool }]);
      }),

    externalChange: (input) =>
      safely({ humanFix: false }, async () => {
        const at = scope.now();
        const edits = await recentAgentEdits(scope, input.file, at);
        const fixed = edits.at(-1);
        const humanFix = fixed !== undefined && input.change !== "deleted";
        await record([
          { type: "external", at, file: input.file, change: input.change, humanFix, ...(humanFix ? { fixedSession: fixed.type === "edit" ? fixed.session : null } : {}) },
        ]);
        return { humanFix };
      }),

    commandFailed: (input) =>
      safely(0, async () => {
        const fromReport = input.failures?.length ? testFailureLocations(scope.root, input.failures) : [];
        const fromOutput = parseErrorLocations(scope.root, input.output);
        // Test failures name the failing test; tsc and stack frames in the same output name the code.
        let locations = [...fromOutput.filter((l) => l.file !== null), ...fromReport];
        if (!locations.length) locations = fromOutput.length ? fromOutput : [{ file: null, line: null, kind: "command_failure", message: `${input.command}: ${failureSummary(input.output)}` }];
        const at = scope.now();
        await record(locations.map((l) => ({ type: "error", at, session: input.sessionId, source: input.source, kind: l.kind, file: l.file, line: l.line, message: l.message })));
        return locations.length;
      }),

    editReverted: (input) =>
      safely(undefined, async () => {
        await record([{ type: "revert", session: input.sessionId, file: input.file, via: input.via }]);
      }),

    sessionStarted: (sessionId) =>
      safely(undefined, async () => {
        await record([{ type: "session_start", session: sessionId }]);
      }),

    turnFinished: (sessionId, toolNames) =>
      safely(undefined, async () => {
        const tools: Record<string, number> = {};
        for (const name of toolNames) tools[name] = (tools[name] ?? 0) + 1;
        await record([{ type: "turn", session: sessionId, tools }]);
      }),
  };
}

/** The recorder for a project, as the session and the watcher create it. */
export function analyticsEventsFor(store: ProjectStore, root: string, opts: AnalyticsEventsOptions = {}): AnalyticsEvents {
  return createAnalyticsEvents(shadowScope(store, root), opts);
}

/** A watcher batch with more external changes than this is a checkout, pull or formatter run, not human edits. */
export const MAX_EXTERNAL_BATCH = 30;

/**
 * A ProjectWatcher listener that records the changes made outside ipuaro:
 * `watcher.on(recordExternalChanges(events))`. ipuaro's own writes (origin "ipuaro") are already edits.
 * The watcher reports a batch's files before the batch itself, so they are held until then and dropped
 * when there are more than MAX_EXTERNAL_BATCH of them.
 */
export function recordExternalChanges(events: Pick<AnalyticsEvents, "externalChange">): (e: ProjectWatchEvent) => void {
  let held: ExternalChangeInput[] = [];
  return (e) => {
    if (e.type === "batch") {
      const batch = held;
      held = [];
      if (batch.length <= MAX_EXTERNAL_BATCH) for (const change of batch) void events.externalChange(change);
      return;
    }
    if (e.type !== "created" && e.type !== "updated" && e.type !== "deleted" && e.type !== "renamed") return;
    if (e.origin === "external") held.push({ file: e.path, change: e.type });
  };
}
