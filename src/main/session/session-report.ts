// How `ipuaro sessions` shows sessions: the list, and one session's conversation (the active branch,
// with calls an interrupted run left unanswered shown as cancelled, as the next run will see them).
import { newEntryId, type SessionSummary } from "./session-store.js";
import { activePath, repairDanglingCalls } from "./session-tree.js";
import { draftOutcome, type ChatMessage, type CompactionRecord, type SessionEntry, type SessionState, type UndoEntry } from "./session-types.js";
import { formatTurnStats } from "../cli/turn-format.js";
import { counted } from "../plural.js";

function localTime(ms: number, withSeconds = false): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  const date = `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
  return withSeconds ? `${date}:${p(d.getSeconds())}` : date;
}

export function formatSessionList(projectName: string, sessions: ReadonlyArray<SessionSummary & { openIn?: string }>): string {
  if (sessions.length === 0) return `No sessions in project ${projectName} yet. \`ipuaro run -p …\` starts one.`;
  // A session with no messages holds only `ipuaro tool` edits (kept for undo) or was opened and left.
  const rows = sessions.map((s) => {
    const title = s.title || (s.messages === 0 ? "(no messages: opened, or edits by ipuaro tool)" : "");
    return [s.id, localTime(s.createdAt), localTime(s.lastActivityAt), String(s.messages), s.openIn ? `${title}  [open in ${s.openIn}]` : title];
  });
  const head = ["ID", "CREATED", "LAST ACTIVITY", "MESSAGES", "FIRST MESSAGE"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join("  ");
  return [line(head), ...rows.map(line)].join("\n");
}

/** The active path as the next run will see it (dangling calls answered in memory, nothing written). */
export function displayedPath(state: SessionState): { path: SessionEntry[]; repairedCalls: number } {
  const path = activePath(state);
  const fix = repairDanglingCalls(path, newEntryId, state.lastActivityAt);
  if (fix.updated) {
    const before = path.find((e) => e.id === fix.updated!.id);
    const had = before?.kind === "message" ? (before.message.toolResults?.length ?? 0) : 0;
    return { path: path.map((e) => (e.id === fix.updated!.id ? fix.updated! : e)), repairedCalls: (fix.updated.message.toolResults?.length ?? 0) - had };
  }
  if (fix.appended) return { path: [...path, fix.appended], repairedCalls: fix.appended.message.toolResults?.length ?? 0 };
  return { path, repairedCalls: 0 };
}

export interface SessionJson {
  id: string;
  projectName: string;
  root: string;
  createdAt: number;
  lastActivityAt: number;
  stats: SessionState["stats"];
  context: SessionState["context"];
  inputHistory: string[];
  /** Messages of the active branch, oldest first. */
  history: Array<ChatMessage & { id: string; parentId: string | null }>;
  compactions: Array<CompactionRecord & { id: string; afterEntry: string | null; timestamp: number }>;
  undoStack: UndoEntry[];
  /** Entries in the whole tree (other branches included). */
  entries: number;
  repairedCalls: number;
}

export function sessionJson(state: SessionState, undoStack: UndoEntry[]): SessionJson {
  const { path, repairedCalls } = displayedPath(state);
  const history: SessionJson["history"] = [];
  const compactions: SessionJson["compactions"] = [];
  // A reply a dead run left streaming: shown on its question as the next run will store it.
  const draft = state.draft;
  for (const e of path) {
    if (e.kind === "message" && draft?.entryId === e.id && !e.message.outcome && draft.text.trim()) {
      history.push({ id: e.id, parentId: e.parentId, ...e.message, outcome: draftOutcome(draft.text) });
    } else if (e.kind === "message") history.push({ id: e.id, parentId: e.parentId, ...e.message });
    else compactions.push({ id: e.id, afterEntry: e.parentId, timestamp: e.timestamp, ...e.compaction });
  }
  return {
    id: state.meta.id,
    projectName: state.meta.projectName,
    root: state.meta.root,
    createdAt: state.meta.createdAt,
    lastActivityAt: state.lastActivityAt,
    stats: state.stats,
    context: state.context,
    inputHistory: state.inputHistory,
    history,
    compactions,
    undoStack,
    entries: state.entries.size,
    repairedCalls,
  };
}

/** Whether the turn opened by history[at] (a user message) ends with a reply that calls no tool: its answer. */
function turnAnswered(history: readonly ChatMessage[], at: number): boolean {
  let last: ChatMessage | undefined;
  for (let i = at + 1; i < history.length && history[i]!.role !== "user"; i++) if (history[i]!.role === "assistant") last = history[i];
  return !!last && !last.toolCalls?.length && last.content.trim().length > 0;
}

function formatMessage(m: ChatMessage, answered = false): string[] {
  const when = localTime(m.timestamp, true);
  if (m.role === "tool") {
    const lines = (m.toolResults ?? []).map(
      (r) => `  ${r.success ? "✓" : "✗"} ${r.name} (${r.callId})${r.error ? `: ${r.error.split("\n", 1)[0]!.slice(0, 160)}` : ""}${r.synthetic ? " [added on load]" : ""}`,
    );
    return [`── tool results · ${when}`, ...lines];
  }
  const calls = (m.toolCalls ?? []).map((c) => `${c.name}${c.malformed ? " (malformed)" : ""}`);
  // A user message heads its turn: the turn's stats line goes there (sessions from before kept none).
  const stats = m.turnStats ? ` · ${formatTurnStats(m.turnStats)}` : "";
  const head = `── ${m.role}${m.command ? ` (/${m.command})` : ""} · ${when}${stats}${calls.length ? ` · calls: ${calls.join(", ")}` : ""}`;
  // A turn that ended other than by answering: how (kept on its message, never sent to the model). A loop
  // guard's stop still ends with the answer the model gave once its tools were taken away.
  if (!m.outcome) return [head, m.content.trim()];
  return [head, m.content.trim(), `── (${answered ? "" : "no answer: "}${m.outcome.trim()})`];
}

export function formatSession(json: SessionJson): string {
  const s = json.stats;
  const { tokensUsed, tokensLimit } = json.context;
  // A session no model request was made in (opened, or edits by `ipuaro tool`) has no measured context.
  const context = tokensLimit > 0 ? `context ${Math.round((tokensUsed / tokensLimit) * 100)}% (${tokensUsed.toLocaleString("en-US")} / ${tokensLimit.toLocaleString("en-US")} tokens)` : "context not measured yet (no model request)";
  const out = [
    `session ${json.id} · project ${json.projectName}`,
    `created ${localTime(json.createdAt)} · last activity ${localTime(json.lastActivityAt)} · ${counted(json.history.length, "message")}`,
    `${counted(s.turns, "turn")} │ ${s.totalTokens.toLocaleString("en-US")} tokens │ ${(s.totalTime / 1000).toFixed(1)}s │ ${counted(s.toolCalls, "tool call")} │ edits ${s.editsApplied} applied, ${s.editsRejected} rejected, ${s.undos} undone`,
    `${context} · undo stack ${json.undoStack.length}`,
  ];
  if (json.repairedCalls > 0) out.push(`${json.repairedCalls} call(s) were left unfinished by an interrupted run; shown as cancelled`);
  const compactionAfter = new Map(json.compactions.map((c) => [c.afterEntry, c]));
  out.push("");
  for (const [i, m] of json.history.entries()) {
    out.push(...formatMessage(m, m.outcome !== undefined && turnAnswered(json.history, i)));
    const c = compactionAfter.get(m.id);
    if (c) {
      const before = Math.round((c.tokensBefore / c.tokensLimit) * 100);
      const after = Math.round((c.tokensAfter / c.tokensLimit) * 100);
      out.push(`── context compressed (${c.trigger}, ${c.method}): ${before}% → ${after}%${c.focus ? ` · focus: ${c.focus}` : ""}`);
    }
  }
  const last = json.history[json.history.length - 1];
  if (last?.role === "user" && !last.outcome) out.push("── (no reply: the run was interrupted or is still going)");
  return out.join("\n");
}
