// The conversation side of a rewind (seed 002 §3.3–3.5). Going back moves the session's head to the
// parent of the chosen user message: the messages after it stay in the tree as a branch of their own.
// What the model must know afterwards (files that disagree with the conversation, a summary of the part
// rewound away) is a note message appended after the landing point, never a change to what came before.
import { buildTranscript, filesTouched, filesTouchedSection, mechanicalSummary } from "../context/compression/conversation-summary.js";
import { loadedFilesOf } from "../context/compression/compact-conversation.js";
import { IpuaroError } from "../errors.js";
import type { LlmMessage } from "../llm/ollama-client.js";
import type { LiveSession } from "../session/live-session.js";
import { latestCompaction, modelView, toLlmMessages, type MessageEntry, type ViewMessage } from "../session/session-tree.js";
import type { CompactionRecord } from "../session/session-types.js";
import { forgetRead } from "../tools/read-snapshots.js";

/** Writes a summary of a transcript with the model; null (or a throw) falls back to the mechanical one. */
export type Summarise = (input: { transcript: string; focus?: string }) => Promise<string | null>;

/** Files named in a note; the rest are counted. */
export const NOTE_MAX_FILES = 20;
/** Token budget of the transcript a summary is written from. */
const SUMMARY_TRANSCRIPT_TOKENS = 6000;

export function fileList(files: readonly string[]): string {
  const shown = files.slice(0, NOTE_MAX_FILES).join(", ");
  const more = files.length - NOTE_MAX_FILES;
  return more > 0 ? `${shown} and ${more} more` : shown;
}

function quote(message: string): string {
  const line = message.replace(/\s+/g, " ").trim();
  return `"${line.length > 80 ? `${line.slice(0, 77)}…` : line}"`;
}

export function conversationOnlyNote(files: readonly string[]): string {
  return (
    "[ipuaro note] The conversation was rewound to an earlier point, but the files were not: " +
    `${fileList(files)} still ${files.length === 1 ? "has" : "have"} the changes made after that point. ` +
    "Read them again before relying on what the conversation says about them."
  );
}

/** Conversation and code rewound, but some files could not be (conflicts, failed restores): the model must know. */
export function partialCodeNote(n: number, message: string, files: readonly string[]): string {
  return (
    `[ipuaro note] The conversation and the files were rewound to before message ${n} (${quote(message)}), except ${fileList(files)}: ` +
    `${files.length === 1 ? "it was" : "they were"} changed outside ipuaro since, or could not be restored, and still ${files.length === 1 ? "has" : "have"} later changes. ` +
    "Read them again before relying on what the conversation says about them."
  );
}

export function codeOnlyNote(n: number, message: string, files: readonly string[]): string {
  return (
    `[ipuaro note] The user restored files to their state before message ${n} (${quote(message)}): ${fileList(files)}. ` +
    "What the conversation says about them after that point no longer matches the disk; read them again before editing them."
  );
}

export function branchSummaryNote(n: number, message: string, summary: string, differing: readonly string[]): string {
  const files = differing.length ? `\nThe files were not rewound: ${fileList(differing)} still ${differing.length === 1 ? "has" : "have"} the changes made in that part.` : "";
  return (
    `[ipuaro note] The conversation was rewound to before message ${n} (${quote(message)}). ` +
    `What happened from there on is no longer in the history; a summary of it:\n<rewound_summary>\n${summary.trim()}\n</rewound_summary>${files}`
  );
}

/** Appends a note for the model after the head. */
export async function addNote(session: LiveSession, text: string): Promise<void> {
  await session.appendMessage({ role: "user", content: text, timestamp: Date.now(), note: "rewind" });
}

/** The model must read files again before editing them: what it read may belong to the branch left. */
function forgetAllReads(session: LiveSession): void {
  for (const rel of [...session.toolState.readLedger.keys()]) forgetRead(session.toolState, rel);
}

/** Moves the head to before `user`; returns the message text as the draft for the input. */
export async function rewindConversation(session: LiveSession, user: MessageEntry): Promise<string> {
  await session.moveHead(user.parentId);
  forgetAllReads(session);
  session.state.context.loadedFiles = loadedFilesOf(session.view());
  await session.saveState();
  return user.message.content;
}

async function writeSummary(view: readonly ViewMessage[], summarise: Summarise | undefined, focus: string | undefined): Promise<{ text: string; method: CompactionRecord["method"] }> {
  const files = filesTouched(view);
  const transcript = buildTranscript(view, SUMMARY_TRANSCRIPT_TOKENS);
  let body: string | null = null;
  try {
    body = (await summarise?.({ transcript, ...(focus ? { focus } : {}) }))?.trim() || null;
  } catch {
    body = null;
  }
  const method = body ? "llm-summary" : "truncate";
  const text = [body ?? mechanicalSummary(view, files, focus), filesTouchedSection(files)].filter(Boolean).join("\n\n");
  return { text, method };
}

/** Summary of the active branch from `userEntryId` to the head (the part a summarize-from-here leaves). */
export async function summariseFrom(session: LiveSession, userEntryId: string, summarise?: Summarise, focus?: string): Promise<string> {
  const view = session.view();
  const from = view.findIndex((m) => m.entryId === userEntryId);
  return (await writeSummary(from >= 0 ? view.slice(from) : [], summarise, focus)).text;
}

/**
 * summarize-up-to-here: a compaction cut at the chosen user message. Everything before it becomes a
 * summary; it and everything after stay as they are, and the head does not move.
 */
export async function summariseUpTo(
  session: LiveSession,
  n: number,
  userEntryId: string,
  opts: { summarise?: Summarise; focus?: string; countTokens?: (history: LlmMessage[]) => number },
): Promise<CompactionRecord> {
  const path = session.path();
  const view = modelView(path);
  const at = view.findIndex((m) => m.entryId === userEntryId);
  if (at < 0) throw new IpuaroError("conflict", `message ${n} is already inside the conversation summary; pick a later message`, { recoverable: false });
  const before = view.slice(0, at);
  const summarised = before.filter((m) => m.entryId !== null);
  if (summarised.length === 0) throw new IpuaroError("conflict", `nothing before message ${n} to summarise`, { recoverable: false });
  const { text, method } = await writeSummary(before, opts.summarise, opts.focus);
  const kept = new Set(view.slice(at).map((m) => m.entryId));
  const rewritten: Record<string, string> = {};
  for (const [id, content] of Object.entries(latestCompaction(path)?.compaction.rewritten ?? {})) if (kept.has(id)) rewritten[id] = content;
  const count = opts.countTokens ?? ((h: LlmMessage[]) => Math.ceil(h.reduce((c, m) => c + m.content.length, 0) / 4));
  const record: CompactionRecord = {
    summary: text,
    summarisedUntil: summarised[summarised.length - 1]!.entryId,
    rewritten,
    tokensBefore: count(toLlmMessages(view)),
    tokensAfter: 0,
    tokensLimit: session.state.context.tokensLimit,
    method,
    trigger: "manual",
    ...(opts.focus ? { focus: opts.focus } : {}),
  };
  const preview = modelView([...path, { kind: "compaction", id: "", parentId: null, timestamp: Date.now(), compaction: record }]);
  record.tokensAfter = count(toLlmMessages(preview));
  await session.appendCompaction(record);
  const context = session.state.context;
  context.loadedFiles = loadedFilesOf(session.view());
  delete context.measuredMessages;
  session.state.stats.compactions++;
  await session.saveState();
  return record;
}
