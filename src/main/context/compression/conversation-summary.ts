// The summary that replaces the older messages. The model writes it in a dedicated request (task state:
// goal, files touched, decisions, what remains); without the model (compressionMethod "truncate", or the
// request failed) it is put together from the messages themselves. Either way the files the tool log
// shows as read or edited are listed, so that part never depends on the model's memory.
import type { LlmClient } from "../../llm/ollama-client.js";
import type { ViewMessage } from "../../session/session-tree.js";
import type { SessionToolCall } from "../../session/session-types.js";
import { callLabel, callPath, EDIT_TOOL_NAMES, splitResultBlocks } from "./tool-result-blocks.js";

export const SUMMARY_SYSTEM_PROMPT = [
  "You compress the conversation of a coding session so the work can go on in a smaller context.",
  "Write the task state with exactly these four headings and nothing else:",
  "## Goal — what the user wants, in their own terms.",
  "## Files touched — each file read or changed, with one line on what matters in it.",
  "## Decisions — what was decided or found out, with file paths and line numbers where known.",
  "## Open tasks — what remains to be done, most important first; write 'none' when nothing remains.",
  "Be factual and short (at most 300 words). Do not invent anything the conversation does not say.",
].join("\n");

/** Characters per token assumed when fitting the transcript: low, so the request never overflows. */
const CHARS_PER_TOKEN_FLOOR = 2.5;
const MAX_USER_CHARS = 2000;
const MAX_ASSISTANT_CHARS = 1500;

export interface TouchedFile {
  path: string;
  how: Touch;
}

/** What happened to a file, in the order one outranks another (created and deleted: the later one). */
const TOUCHES = ["read", "edit failed", "edited", "created", "deleted"] as const;
type Touch = (typeof TOUCHES)[number];
const RANK: Record<Touch, number> = { read: 0, "edit failed": 1, edited: 2, created: 3, deleted: 3 };

function touchOf(tool: string, ok: boolean): Touch {
  if (!EDIT_TOOL_NAMES.has(tool)) return "read";
  if (!ok) return "edit failed";
  return tool === "create_file" ? "created" : tool === "delete_file" ? "deleted" : "edited";
}

/** Records `how` for a file already known: a weightier touch replaces a lighter one. */
function touch(known: TouchedFile, how: Touch): void {
  if (RANK[how] >= RANK[known.how]) known.how = how;
}

/** Calls by id across the messages (results are matched to them by call_id). */
export function callsById(messages: readonly ViewMessage[]): Map<string, SessionToolCall> {
  const map = new Map<string, SessionToolCall>();
  for (const m of messages) for (const c of m.message?.toolCalls ?? []) map.set(c.id, c);
  return map;
}

/** Files the tool log shows as read or changed, in first-touch order (a change outranks a read). */
export function filesTouched(messages: readonly ViewMessage[], calls = callsById(messages)): TouchedFile[] {
  const out = new Map<string, TouchedFile>();
  for (const m of messages) {
    if (m.role !== "tool") continue;
    const succeeded = new Map((m.message?.toolResults ?? []).map((r) => [r.callId, r.success]));
    for (const block of splitResultBlocks(m.content)) {
      const call = block.callId ? calls.get(block.callId) : undefined;
      const p = callPath(call);
      if (!p) continue;
      const ok = block.callId ? (succeeded.get(block.callId) ?? block.ok) : block.ok;
      const how = touchOf(block.name, ok);
      const known = out.get(p);
      if (!known) out.set(p, { path: p, how });
      else touch(known, how);
    }
  }
  return [...out.values()];
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)} …[${text.length - max} more characters]`;
}

/** One message as a transcript paragraph; tool results shrink to one line each. */
function transcriptLine(m: ViewMessage, calls: Map<string, SessionToolCall>): string {
  if (m.entryId === null && m.role === "user" && m.message === null) return `Earlier summary:\n${m.content}`;
  if (m.role === "user") return `User: ${clip(m.content, MAX_USER_CHARS)}`;
  if (m.role === "assistant") return `Assistant: ${clip(m.content, MAX_ASSISTANT_CHARS)}`;
  const lines = splitResultBlocks(m.content).map((b) => {
    const call = b.callId ? calls.get(b.callId) : undefined;
    const first = b.body.split("\n", 1)[0] ?? "";
    const size = b.body.split("\n").length;
    return `  ← ${callLabel(b.name, call)}: ${b.ok ? `ok, ${size} line${size === 1 ? "" : "s"}` : `failed: ${first.slice(0, 160)}`}`;
  });
  return `Tool results:\n${lines.join("\n")}`;
}

/**
 * The messages as text that fits `budgetTokens`: the first user message (it usually states the goal)
 * and as many of the newest messages as fit; what is left out in between is marked.
 */
export function buildTranscript(messages: readonly ViewMessage[], budgetTokens: number): string {
  const calls = callsById(messages);
  const lines = messages.map((m) => transcriptLine(m, calls));
  const budget = Math.max(400, Math.floor(budgetTokens * CHARS_PER_TOKEN_FLOOR));
  const total = lines.reduce((n, l) => n + l.length + 2, 0);
  if (total <= budget) return lines.join("\n\n");
  // The earlier summary holds the goal and decisions of everything compacted before: a long session's
  // second compaction dropped it here and the model's new summary forgot them.
  const earlier = messages.findIndex((m) => m.entryId === null && m.role === "user" && m.message === null);
  const firstUser = messages.findIndex((m) => m.role === "user" && m.message !== null);
  const headIndexes = [earlier, firstUser].filter((i) => i >= 0).sort((a, b) => a - b);
  const head = headIndexes.map((i) => clip(lines[i]!, Math.floor(budget / 3)));
  let used = head.reduce((n, l) => n + l.length + 2, 0);
  const tail: string[] = [];
  for (let i = lines.length - 1; i > Math.max(...headIndexes, -1); i--) {
    const l = lines[i]!;
    if (used + l.length + 2 > budget) break;
    tail.unshift(l);
    used += l.length + 2;
  }
  const left = lines.length - head.length - tail.length;
  return [...head, `[… ${left} message${left === 1 ? "" : "s"} left out …]`, ...tail].join("\n\n");
}

const FILES_TOUCHED_PREFIX = "Files touched (from the tool log): ";

export function filesTouchedSection(files: readonly TouchedFile[]): string {
  if (files.length === 0) return "";
  return `${FILES_TOUCHED_PREFIX}${files.map((f) => `${f.path} (${f.how})`).join(", ")}`;
}

/**
 * The files an earlier summary's tool-log line lists. A second compaction sees only the messages since
 * the first (the rest is that summary), so without these the list forgot every file touched before it.
 */
export function filesTouchedInSummary(summary: string): TouchedFile[] {
  const line = summary.split("\n").findLast((l) => l.startsWith(FILES_TOUCHED_PREFIX));
  if (!line) return [];
  const out: TouchedFile[] = [];
  for (const m of line.slice(FILES_TOUCHED_PREFIX.length).matchAll(new RegExp(`(.+?) \\((${TOUCHES.join("|")})\\)(?:, |$)`, "g"))) {
    out.push({ path: m[1]!, how: m[2] as TouchedFile["how"] });
  }
  return out;
}

/** `earlier` then `later` in first-touch order; a change outranks a read. */
export function mergeTouched(earlier: readonly TouchedFile[], later: readonly TouchedFile[]): TouchedFile[] {
  const out = new Map<string, TouchedFile>();
  for (const f of [...earlier, ...later]) {
    const known = out.get(f.path);
    if (!known) out.set(f.path, { ...f });
    else touch(known, f.how);
  }
  return [...out.values()];
}

/** An earlier summary without its tool-log line (the new summary lists the merged files once). */
export function withoutFilesTouchedLine(summary: string): string {
  return summary
    .split("\n")
    .filter((l) => !l.startsWith(FILES_TOUCHED_PREFIX))
    .join("\n")
    .trim();
}

/** Asks the model for the task-state summary. Returns its text and the tokens the request used. */
export async function summariseWithModel(
  llm: LlmClient,
  input: { transcript: string; focus?: string; signal?: AbortSignal },
): Promise<{ text: string; tokens: number }> {
  const focus = input.focus?.trim() ? `\nKeep in particular everything about: ${input.focus.trim()}\n` : "";
  const user = `Conversation so far:\n\n${input.transcript}\n${focus}\nWrite the summary now.`;
  const result = await llm.chat({
    messages: [
      { role: "system", content: SUMMARY_SYSTEM_PROMPT },
      { role: "user", content: user },
    ],
    ...(input.signal ? { signal: input.signal } : {}),
  });
  return { text: result.text.trim(), tokens: (result.stats.promptTokens ?? 0) + (result.stats.completionTokens ?? 0) };
}

/** The task state without the model: the user's requests, the last answer, the files. */
export function mechanicalSummary(messages: readonly ViewMessage[], files: readonly TouchedFile[], focus?: string): string {
  const previous = messages.find((m) => m.message === null && m.role === "user");
  const requests = messages.filter((m) => m.role === "user" && m.message !== null).map((m) => m.content.trim());
  const answers = messages.filter((m) => m.role === "assistant" && !(m.message?.toolCalls?.length ?? 0));
  const last = answers.at(-1)?.content.trim();
  const out: string[] = [];
  if (previous) out.push(withoutFilesTouchedLine(previous.content.replace(/^[\s\S]*?<conversation_summary>\n?|\n?<\/conversation_summary>[\s\S]*$/g, "")));
  out.push("## Goal", ...(requests.length ? requests.slice(-5).map((r) => `- ${clip(r.replace(/\s+/g, " "), 300)}`) : ["- (see the summary above)"]));
  out.push("## Files touched", ...(files.length ? files.map((f) => `- ${f.path} (${f.how})`) : ["- none"]));
  out.push("## Decisions", last ? `- Last answer: ${clip(last.replace(/\s+/g, " "), 600)}` : "- none recorded");
  out.push("## Open tasks", focus?.trim() ? `- ${focus.trim()}` : "- unknown: the summary was made without the model; ask the user if unsure");
  return out.join("\n");
}
