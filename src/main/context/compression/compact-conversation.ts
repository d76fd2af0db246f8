// The compressor (seed 000 "Авто-сжатие контекста"). What the model sees is split at the last user
// message: everything before it is replaced by a summary (task state); from it on, every message stays,
// but old tool results whose file the last few messages no longer mention shrink to one-line stubs.
// The fixed part (system prompt, project outline, instruction files, project memory) is not in the
// history at all, so it is never touched; nor are the last user message and calls still unanswered.
// The session's entries stay as they were: the result is a CompactionRecord saying how the view changes.
import type { LlmMessage } from "../../llm/ollama-client.js";
import { latestCompaction, modelView, renderSummaryMessage, toLlmMessages, type ViewMessage } from "../../session/session-tree.js";
import type { CompactionRecord, SessionEntry, SessionToolCall } from "../../session/session-types.js";
import { buildTranscript, callsById, filesTouched, filesTouchedInSummary, filesTouchedSection, mechanicalSummary, mergeTouched } from "./conversation-summary.js";
import { callPath, isStub, splitResultBlocks, stubBlock, trimBlock, type ResultBlock } from "./tool-result-blocks.js";

/** Messages at the end whose tool results are kept, and whose mentions keep older code (seed: 5). */
export const RECENT_MESSAGES = 5;
/** The fill a compaction aims for: well under the automatic threshold. */
export const TARGET_FILL = 0.5;
/** Share of the window the summarisation request's transcript may take. */
export const SUMMARY_TRANSCRIPT_SHARE = 0.45;
/** Lines kept at each end of a result when even stubbing every older one was not enough. */
const LAST_RESORT_KEEP_LINES = 40;

export interface Summariser {
  /** Returns the summary text, or null to fall back to the mechanical one (the caller reports why). */
  (input: { transcript: string; focus?: string }): Promise<{ text: string; method: "llm-summary" | "truncate" } | null>;
}

export interface CompactConversationInput {
  /** The session's active path. */
  path: readonly SessionEntry[];
  /** Counts the tokens of a request with these history messages (the fixed part included). */
  countTokens(history: readonly LlmMessage[]): number;
  tokensLimit: number;
  summarise: Summariser;
  focus?: string;
  trigger: "auto" | "manual";
  targetFill?: number;
}

export interface CompactionReport {
  tokensBefore: number;
  tokensAfter: number;
  tokensLimit: number;
  percentBefore: number;
  percentAfter: number;
  /** Messages replaced by the summary (the previous summary not counted). */
  summarisedMessages: number;
  /** Tool results cut to stubs by this compaction. */
  stubbedResults: number;
  /** Files whose code left the context. */
  droppedFiles: string[];
  /** Files whose code the model still sees. */
  loadedFiles: string[];
  method: CompactionRecord["method"];
  trigger: CompactionRecord["trigger"];
}

/** A compaction as the user is told of it. */
export interface CompactionRun extends CompactionReport {
  /** Why the model's summary was not used: a summary built from the messages themselves took its place. */
  summaryError?: string;
  /**
   * "no-gain": planned but not applied, because it would not have made the context smaller (a short
   * conversation's summary can outgrow the messages it replaces).
   */
  skipped?: "no-gain";
}

/** Whether applying the plan makes the request smaller: a compaction that does not is never applied. */
export function shrinksContext(r: Pick<CompactionReport, "tokensBefore" | "tokensAfter">): boolean {
  return r.tokensAfter < r.tokensBefore;
}

/** What a compaction did, in words: only what happened ("0 messages summarised" read as a failure). */
export function compactionWhat(r: Pick<CompactionReport, "summarisedMessages" | "stubbedResults">): string {
  const parts: string[] = [];
  if (r.summarisedMessages) parts.push(`${r.summarisedMessages} message${r.summarisedMessages === 1 ? "" : "s"} summarised`);
  if (r.stubbedResults) parts.push(`${r.stubbedResults} tool result${r.stubbedResults === 1 ? "" : "s"} cut`);
  return parts.length ? parts.join(", ") : "older code left the context";
}

export interface CompactionResult {
  record: CompactionRecord;
  view: ViewMessage[];
  history: LlmMessage[];
  report: CompactionReport;
}

export function percentOf(tokens: number, limit: number): number {
  return limit > 0 ? Math.round((tokens / limit) * 100) : 0;
}

/** Paths and file names said in the recent messages (text, call arguments), lower-cased. */
function recentMentions(recent: readonly ViewMessage[]): string {
  const parts: string[] = [];
  for (const m of recent) {
    parts.push(m.content);
    for (const c of m.message?.toolCalls ?? []) {
      const p = callPath(c);
      if (p) parts.push(p);
    }
  }
  return parts.join("\n").toLowerCase();
}

function isMentioned(file: string, mentions: string): boolean {
  const lower = file.toLowerCase();
  if (mentions.includes(lower)) return true;
  const base = lower.split("/").pop() ?? lower;
  return base.length >= 4 && base.includes(".") && mentions.includes(base);
}

/** Files whose code is still whole in the view (a successful result of a call with a path). */
export function loadedFilesOf(view: readonly ViewMessage[]): string[] {
  const calls = callsById(view);
  const files = new Set<string>();
  for (const m of view) {
    if (m.role !== "tool") continue;
    for (const b of splitResultBlocks(m.content)) {
      const p = callPath(b.callId ? calls.get(b.callId) : undefined);
      if (p && b.ok && !isStub(b)) files.add(p);
    }
  }
  return [...files];
}

type BlockRewrite = (block: ResultBlock, call: SessionToolCall | undefined) => string;

function rewriteTool(m: ViewMessage, calls: Map<string, SessionToolCall>, rewrite: BlockRewrite): ViewMessage {
  let content = m.content;
  for (const b of splitResultBlocks(m.content)) {
    const next = rewrite(b, b.callId ? calls.get(b.callId) : undefined);
    if (next !== b.raw) content = content.replace(b.raw, () => next);
  }
  return content === m.content ? m : { ...m, content };
}

export async function compactConversation(input: CompactConversationInput): Promise<CompactionResult | null> {
  const before = modelView(input.path);
  const tokensBefore = input.countTokens(toLlmMessages(before));
  const previous = latestCompaction(input.path)?.compaction ?? null;

  let lastUser = -1;
  for (let i = before.length - 1; i >= 0; i--) {
    if (before[i]!.role === "user" && before[i]!.message !== null) {
      lastUser = i;
      break;
    }
  }
  const head = lastUser > 0 ? before.slice(0, lastUser) : [];
  let tail = lastUser > 0 ? before.slice(lastUser) : [...before];
  const newHead = head.filter((m) => m.entryId !== null);

  // 1. Summary of everything before the last user message.
  let summary = previous?.summary ?? "";
  let summarisedUntil = previous?.summarisedUntil ?? null;
  let method: CompactionRecord["method"] = previous?.method ?? "truncate";
  if (newHead.length > 0) {
    const files = mergeTouched(filesTouchedInSummary(previous?.summary ?? ""), filesTouched(head));
    const transcript = buildTranscript(head, Math.floor(input.tokensLimit * SUMMARY_TRANSCRIPT_SHARE));
    const written = await input.summarise({ transcript, ...(input.focus ? { focus: input.focus } : {}) });
    const body = written?.text.trim() ? written.text.trim() : mechanicalSummary(head, files, input.focus);
    method = written?.text.trim() ? written.method : "truncate";
    summary = [body, filesTouchedSection(files)].filter(Boolean).join("\n\n");
    summarisedUntil = newHead[newHead.length - 1]!.entryId;
  }

  // 2. Old tool results in what is kept: stubs, unless their file is still being talked about.
  const calls = callsById(before);
  const recentStart = Math.max(0, tail.length - RECENT_MESSAGES);
  const mentions = recentMentions(tail.slice(recentStart));
  let stubbed = 0;
  tail = tail.map((m, i) => {
    if (m.role !== "tool" || i >= recentStart) return m;
    return rewriteTool(m, calls, (b, call) => {
      if (isStub(b)) return b.raw;
      const p = callPath(call);
      if (p && b.ok && isMentioned(p, mentions)) return b.raw;
      stubbed++;
      return stubBlock(b, call);
    });
  });

  const build = (t: ViewMessage[]): ViewMessage[] =>
    summary.trim() ? [{ entryId: null, role: "user", content: renderSummaryMessage(summary), message: null }, ...t] : [...t];
  const target = (input.targetFill ?? TARGET_FILL) * input.tokensLimit;
  const measure = (t: ViewMessage[]) => input.countTokens(toLlmMessages(build(t)));

  // 3. Still too big: every result but the newest round's becomes a stub, then the newest are trimmed.
  const lastTool = tail.findLastIndex((m) => m.role === "tool");
  if (measure(tail) > target) {
    tail = tail.map((m, i) =>
      m.role !== "tool" || i === lastTool ? m : rewriteTool(m, calls, (b, call) => (isStub(b) ? b.raw : (stubbed++, stubBlock(b, call)))),
    );
  }
  if (measure(tail) > target && lastTool >= 0) {
    tail[lastTool] = rewriteTool(tail[lastTool]!, calls, (b) => trimBlock(b, LAST_RESORT_KEEP_LINES));
  }

  const rewritten: Record<string, string> = {};
  for (const m of tail) if (m.entryId !== null && m.message && m.content !== m.message.content) rewritten[m.entryId] = m.content;
  const changedSummary = summary !== (previous?.summary ?? "") || summarisedUntil !== (previous?.summarisedUntil ?? null);
  const changedStubs = JSON.stringify(rewritten) !== JSON.stringify(previous?.rewritten ?? {});
  if (!changedSummary && !changedStubs) return null;

  const view = build(tail);
  const history = toLlmMessages(view);
  const tokensAfter = input.countTokens(history);
  const loadedBefore = loadedFilesOf(before);
  const loadedFiles = loadedFilesOf(view);
  const record: CompactionRecord = {
    summary,
    summarisedUntil,
    rewritten,
    tokensBefore,
    tokensAfter,
    tokensLimit: input.tokensLimit,
    method,
    trigger: input.trigger,
    ...(input.focus ? { focus: input.focus } : {}),
  };
  return {
    record,
    view,
    history,
    report: {
      tokensBefore,
      tokensAfter,
      tokensLimit: input.tokensLimit,
      percentBefore: percentOf(tokensBefore, input.tokensLimit),
      percentAfter: percentOf(tokensAfter, input.tokensLimit),
      summarisedMessages: newHead.filter((m) => m.message !== null).length,
      stubbedResults: stubbed,
      droppedFiles: loadedBefore.filter((f) => !loadedFiles.includes(f)),
      loadedFiles,
      method,
      trigger: input.trigger,
    },
  };
}
