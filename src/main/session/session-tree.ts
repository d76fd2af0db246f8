// Pure functions over a session's entry tree: the active path, what the model sees of it (after the
// latest compaction), and the repair of calls a killed process left without results.
import type { LlmMessage } from "../llm/ollama-client.js";
import { formatToolResult } from "../llm/system-prompt.js";
import { draftOutcome, draftUnanswered, type ChatMessage, type CompactionRecord, type SessionEntry, type SessionState, type SessionToolCall, type SessionToolResult, type UnansweredTurn } from "./session-types.js";

/** The result a call gets when ipuaro stopped before it finished. */
export const CANCELLED_RESULT_ERROR = "cancelled: ipuaro stopped before this call finished; call it again if you still need it";

export type MessageEntry = Extract<SessionEntry, { kind: "message" }>;
export type CompactionEntry = Extract<SessionEntry, { kind: "compaction" }>;

/** One message as the model sees it; `entryId` is null for the compaction summary. */
export interface ViewMessage {
  entryId: string | null;
  role: ChatMessage["role"];
  content: string;
  /** The stored message (null for the summary). */
  message: ChatMessage | null;
}

/** Entries from the root to `head`, oldest first. Throws on a broken link or a cycle (corrupt data). */
export function activePath(state: Pick<SessionState, "entries" | "head" | "meta">): SessionEntry[] {
  const path: SessionEntry[] = [];
  const seen = new Set<string>();
  for (let id = state.head; id !== null; ) {
    const entry = state.entries.get(id);
    if (!entry) throw new Error(`session ${state.meta.id}: entry ${id} is missing (its child points to it)`);
    if (seen.has(id)) throw new Error(`session ${state.meta.id}: entry ${id} is its own ancestor`);
    seen.add(id);
    path.push(entry);
    id = entry.parentId;
  }
  return path.reverse();
}

export function messageEntries(path: readonly SessionEntry[]): MessageEntry[] {
  return path.filter((e): e is MessageEntry => e.kind === "message");
}

export function latestCompaction(path: readonly SessionEntry[]): CompactionEntry | null {
  for (let i = path.length - 1; i >= 0; i--) {
    const e = path[i]!;
    if (e.kind === "compaction") return e;
  }
  return null;
}

export function renderSummaryMessage(summary: string): string {
  return (
    "[Summary of the earlier conversation: it was compressed to free context. Tool results from it are gone; " +
    `call the tools again for any code you need.]\n<conversation_summary>\n${summary.trim()}\n</conversation_summary>`
  );
}

/**
 * What the model reads in place of the answer a turn never got: the part of the reply that was shown, and
 * a note saying how the turn ended. Without it the next request had the abandoned message followed
 * directly by the new one, and the model answered the old request as if nothing had happened.
 */
export function unansweredNote(u: UnansweredTurn): string {
  const reason = u.reason?.trim().replace(/\.$/, "");
  const note =
    u.how === "interrupted"
      ? "[The user interrupted this answer.]"
      : u.how === "killed"
        ? "[This answer was cut off: ipuaro stopped before it was complete.]"
        : u.how === "stopped"
          ? reason
            ? `[This answer failed: ${reason}; the turn was stopped there.]`
            : "[This turn was stopped before an answer.]"
          : `[This answer failed${reason ? `: ${reason}` : ""}; the user moved on.]`;
  const partial = u.partial?.trim();
  return partial ? `${partial}\n\n${note}` : note;
}

/**
 * A turn stored before its user message carried `unanswered` (or killed before it could): read from the
 * outcome the chat shows ("…\n[interrupted]", "The model request failed: …").
 */
function unansweredFromOutcome(outcome: string | undefined): UnansweredTurn {
  if (outcome === undefined) return { how: "killed" };
  const killedMark = draftOutcome("").trimStart();
  if (outcome.endsWith(killedMark)) return draftUnanswered(outcome.slice(0, -killedMark.length));
  // The text before the mark is the reply as the model wrote it: up to any call it was writing.
  if (/(^|\n)\[interrupted\]$/.test(outcome)) return { ...draftUnanswered(outcome.replace(/\[interrupted\]$/, "")), how: "interrupted" };
  if (outcome === "Aborted.") return { how: "stopped" };
  const failed = /^The model request failed: ([\s\S]*)$/.exec(outcome);
  return { how: "failed", reason: failed ? failed[1]! : outcome };
}

/** A turn ended with an answer when its last message is the model's, with no calls waiting on results. */
function answered(last: ChatMessage): boolean {
  return last.role === "assistant" && !(last.toolCalls?.length ?? 0);
}

/**
 * The note of each turn that ended without an answer, by the id of the turn's last message (the note
 * follows it). A turn is a typed user message and what came after it up to the next user message (or
 * rewind note). The newest turn gets one only once it is over (its message carries how it ended): during
 * a turn the view is read too (compression), and the turn is not unanswered yet.
 */
function unansweredNotes(messages: readonly MessageEntry[]): Map<string, string> {
  const notes = new Map<string, string>();
  for (let i = 0; i < messages.length; i++) {
    const start = messages[i]!.message;
    if (start.role !== "user" || start.note) continue;
    let end = i;
    while (end + 1 < messages.length && messages[end + 1]!.message.role !== "user") end++;
    const last = messages[end]!;
    const over = start.unanswered !== undefined || start.outcome !== undefined || end + 1 < messages.length;
    if (over && !answered(last.message)) notes.set(last.id, unansweredNote(start.unanswered ?? unansweredFromOutcome(start.outcome)));
    i = end;
  }
  return notes;
}

/**
 * The newest turn's user message when that turn has no answer and no record of how it ended: a run that
 * died mid-turn left it so (see LiveSession.repair). null otherwise.
 */
export function unrecordedTurn(path: readonly SessionEntry[]): MessageEntry | null {
  const messages = messageEntries(path);
  let i = messages.length - 1;
  while (i >= 0 && messages[i]!.message.role !== "user") i--;
  const start = messages[i];
  if (!start || start.message.note || start.message.unanswered || start.message.outcome !== undefined) return null;
  return answered(messages[messages.length - 1]!.message) ? null : start;
}

/** What the model sees of the active path: the latest compaction applied, every call answered. */
export function modelView(path: readonly SessionEntry[]): ViewMessage[] {
  const compaction = latestCompaction(path);
  let messages = messageEntries(path);
  const notes = unansweredNotes(messages);
  const view: ViewMessage[] = [];
  if (compaction) {
    const c: CompactionRecord = compaction.compaction;
    if (c.summarisedUntil !== null) {
      const cut = messages.findIndex((m) => m.id === c.summarisedUntil);
      if (cut >= 0) messages = messages.slice(cut + 1);
    }
    if (c.summary.trim()) view.push({ entryId: null, role: "user", content: renderSummaryMessage(c.summary), message: null });
  }
  messages.forEach((m, i) => {
    const content = compaction?.compaction.rewritten[m.id] ?? m.message.content;
    view.push({ entryId: m.id, role: m.message.role, content, message: m.message });
    // Defensive: a history whose calls lack their results (written by an older version) still replays well-formed.
    const calls = m.message.role === "assistant" ? (m.message.toolCalls ?? []) : [];
    if (calls.length > 0 && messages[i + 1]?.message.role !== "tool") {
      view.push({ entryId: null, role: "tool", content: cancelledBlocks(calls).join("\n\n"), message: null });
    }
    const note = notes.get(m.id);
    if (note !== undefined) view.push({ entryId: null, role: "assistant", content: note, message: null });
  });
  return view;
}

export function toLlmMessages(view: readonly ViewMessage[]): LlmMessage[] {
  return view.map((v) => {
    // ipuaro's protocol sends tool results as data in a user message (system-prompt.ts).
    if (v.role === "tool") return { role: "user", content: v.content };
    const native = v.message?.nativeToolCalls;
    return { role: v.role, content: v.content, ...(native && native.length > 0 ? { toolCalls: native } : {}) };
  });
}

function cancelledBlocks(calls: readonly SessionToolCall[]): string[] {
  return calls.map((c) => formatToolResult(c.name, { callId: c.id, success: false, error: CANCELLED_RESULT_ERROR }));
}

function cancelledResults(calls: readonly SessionToolCall[]): SessionToolResult[] {
  return calls.map((c) => ({ callId: c.id, name: c.name, success: false, error: CANCELLED_RESULT_ERROR, synthetic: true }));
}

export interface PathRepair {
  /** An existing tool entry completed with the missing results. */
  updated: MessageEntry | null;
  /** A new tool entry answering calls that had none, child of the current head. */
  appended: MessageEntry | null;
}

/**
 * A process killed between an assistant reply and the end of its tool round leaves calls without
 * results. Only the newest assistant message can be in that state (nothing is sent before its round
 * is complete); its calls get a synthetic "cancelled" result so the next request is well-formed.
 */
export function repairDanglingCalls(path: readonly SessionEntry[], newId: () => string, now: number): PathRepair {
  const messages = messageEntries(path);
  let lastAssistant = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.message.role === "assistant") {
      lastAssistant = i;
      break;
    }
  }
  const assistant = messages[lastAssistant];
  const calls = assistant?.message.toolCalls ?? [];
  if (!assistant || calls.length === 0) return { updated: null, appended: null };
  const next = messages[lastAssistant + 1];
  if (next && next.message.role === "tool") {
    const answered = new Set((next.message.toolResults ?? []).map((r) => r.callId));
    const missing = calls.filter((c) => !answered.has(c.id));
    if (missing.length === 0) return { updated: null, appended: null };
    const content = [next.message.content, ...cancelledBlocks(missing)].filter(Boolean).join("\n\n");
    const toolResults = [...(next.message.toolResults ?? []), ...cancelledResults(missing)];
    return { updated: { ...next, message: { ...next.message, content, toolResults } }, appended: null };
  }
  if (next) return { updated: null, appended: null }; // answered in an older shape; modelView covers it
  const parentId = path.length > 0 ? path[path.length - 1]!.id : null;
  const appended: MessageEntry = {
    kind: "message",
    id: newId(),
    parentId,
    message: { role: "tool", content: cancelledBlocks(calls).join("\n\n"), timestamp: now, toolResults: cancelledResults(calls) },
  };
  return { updated: null, appended };
}

/** Highest `call_N` used in the session, so new calls continue the sequence. */
export function lastCallNumber(entries: Iterable<SessionEntry>): number {
  let max = 0;
  for (const e of entries) {
    if (e.kind !== "message") continue;
    for (const c of e.message.toolCalls ?? []) {
      const n = /^call_(\d+)$/.exec(c.id);
      if (n) max = Math.max(max, Number(n[1]));
    }
  }
  return max;
}
