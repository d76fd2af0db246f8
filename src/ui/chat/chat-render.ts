// One chat entry as styled rows at a given width (seed 000 "Структура экрана"):
//
//    User: объясни как работает авторизация
//   Agent: [get_function src/auth/login.ts login]
//          Авторизация построена на JWT...
//          ⏱ 3.2s │ 1,247 tokens │ 1 tool call
import { formatTurnStats } from "../../main/cli/turn-format.js";
import { counted } from "../../main/plural.js";
import { DEFAULT_IDLE_TIMEOUTS } from "../../main/llm/ollama-fetch.js";
import { CODE_GUTTER_WIDTH, renderMarkdown } from "../text/markdown-render.js";
import { lineText, span, truncateStyled, wrapStyled, type StyledLine } from "../text/styled-text.js";
import type { Role } from "../theme.js";
import type { AgentBlock, ChatEntry, NoticeLevel } from "./transcript.js";

/** Width of the label column (`Agent: `), so answers line up under each other. */
export const LABEL_WIDTH = 8;
/** Before the first chunk of a request: the model reads the prompt. */
const THINKING = "⟳ thinking…";
/** While chunks come (text, or a tool call that is not shown). */
const WRITING = "⟳ writing…";
/** A stream this long without a chunk says so, with how long it has been quiet. */
export const QUIET_SHOWN_AFTER_MS = 5000;
/** While a tool of the turn runs (a command, a test run): the wait is the tool's, not the model's. */
const RUNNING = "⟳ running…";
/** While a dialog of the turn is open: the seconds counted are the user's, not the model's. */
const WAITING = "… waiting for your answer";

function duration(ms: number): string {
  const seconds = Math.floor(Math.max(0, ms) / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/**
 * How long since `from`, once it is more than a moment: a model that stopped answering looked like one
 * still at work. While a tool runs, its row says so (`[title] …`); this line counts on below it.
 */
function elapsedText(from: number | undefined): string {
  if (from === undefined || Date.now() - from < 2000) return "";
  return ` ${duration(Date.now() - from)}`;
}

/**
 * The running turn's last line. "thinking" only until the request's first chunk (counting from the
 * request); then "writing", and a stream with no chunk for QUIET_SHOWN_AFTER_MS says how long it has been
 * quiet and when ipuaro gives up on it (the stall limit): "thinking… 29 s" under half an answer read
 * as a model still at work.
 */
function activityLine(entry: Extract<ChatEntry, { kind: "agent" }>): string {
  if (entry.awaitingUser) return WAITING;
  if (entry.blocks.some((b) => b.kind === "tool" && b.status === "running")) return `${RUNNING}${elapsedText(entry.startedAt)}`;
  const a = entry.activity;
  if (a?.kind !== "writing") return `${THINKING}${elapsedText(a?.since ?? entry.startedAt)}`;
  const quiet = Date.now() - a.lastAt;
  if (quiet < QUIET_SHOWN_AFTER_MS) return WRITING;
  return `⟳ no output for ${duration(quiet)} (Esc stops it; ipuaro gives up at ${Math.round(DEFAULT_IDLE_TIMEOUTS.betweenChunksMs / 1000)} s)`;
}

function label(text: string, role: Role): StyledLine {
  return [span(text.padStart(LABEL_WIDTH - 1) + " ", role)];
}

const pad = (): StyledLine => [{ text: " ".repeat(LABEL_WIDTH) }];

/** Columns an entry's text has beside the label column when the chat draws `width` columns. */
function bodyWidth(width: number): number {
  return Math.max(8, width - LABEL_WIDTH);
}

/**
 * Columns a code block in a notice has for its text (what /analyze fits its tables to) when the chat draws
 * `width` columns: the label column and the block's gutter come off.
 */
export function noticeCodeWidth(width: number): number {
  return bodyWidth(width) - CODE_GUTTER_WIDTH;
}

/** Puts the label on the first row and the hanging indent on the others. */
function withLabel(head: StyledLine, body: StyledLine[]): StyledLine[] {
  if (body.length === 0) return [head];
  return body.map((row, i) => [...(i === 0 ? head : pad()), ...row]);
}

function toolRow(b: Extract<AgentBlock, { kind: "tool" }>, width: number): StyledLine[] {
  const line: StyledLine = [span(`[${b.title}]`, b.status === "error" ? "toolError" : "tool")];
  if (b.status === "running") line.push(span(" …", "muted"));
  else if (b.status === "error") line.push(span(` ✗ ${b.summary ?? "failed"}`, "toolError"));
  else if (b.summary) line.push(span(` ${b.summary}`, "muted"));
  // The end of a command's output, a line each, cut to the width (the model saw more; /status has none).
  const preview = (b.preview ?? []).map((text, i) => {
    // "… 2,996 more lines": the whole output is a key away.
    const more = i === 0 && b.details !== undefined && text.startsWith("… ");
    return truncateStyled([span(`  │ ${text}`, "muted"), ...(more ? [span(" (Ctrl+O shows all)", "muted")] : [])], width);
  });
  return [...wrapStyled(line, width, [{ text: "  " }]), ...preview];
}

const NOTICE_MARK: Record<NoticeLevel, string> = { info: "·", warn: "!", error: "✗" };
const noticeRole = (level: NoticeLevel): Role => (level === "error" ? "error" : level === "warn" ? "warn" : "muted");

function noticeRows(b: Extract<AgentBlock, { kind: "notice" }>, width: number): StyledLine[] {
  return b.text.split("\n").flatMap((line, i) => wrapStyled([span(`${i === 0 ? NOTICE_MARK[b.level] : " "} ${line}`, noticeRole(b.level))], width, [{ text: "  " }]));
}

function agentBody(entry: Extract<ChatEntry, { kind: "agent" }>, width: number, showStats: boolean): StyledLine[] {
  const rows: StyledLine[] = [];
  for (const b of entry.blocks) {
    if (b.kind === "tool") rows.push(...toolRow(b, width));
    else if (b.kind === "notice") rows.push(...noticeRows(b, width));
    else {
      const text = b.text.replace(/^\n+/, "").trimEnd();
      if (text.trim()) rows.push(...renderMarkdown(text, width));
    }
  }
  if (entry.outcome) rows.push(...wrapStyled([span(entry.outcome, entry.reason === "error" ? "error" : "warn")], width));
  if (entry.streaming) rows.push([span(activityLine(entry), "muted")]);
  else if (entry.stats && showStats) rows.push(truncateStyled([span(formatTurnStats(entry.stats), "stats")], width));
  return rows;
}

/** A message of more lines than this shows its first USER_LINES_SHOWN (a 3,000-line paste filled the chat). */
const USER_MAX_LINES = 20;
const USER_LINES_SHOWN = 10;
/** Rows a message's lines may wrap to before the rest is left out the same way (a line of minified code). */
const USER_MAX_ROWS = 40;

/** A user message's rows: a long one collapsed to its start and what was left out (the model has it all). */
function userBody(text: string, width: number): StyledLine[] {
  // Blank lines at the end of a pasted message showed as empty rows under it.
  const lines = text.replace(/\s+$/, "").split("\n");
  const rows: StyledLine[] = [];
  let shown = 0;
  let partial = 0;
  for (const line of lines.slice(0, lines.length > USER_MAX_LINES ? USER_LINES_SHOWN : lines.length)) {
    const wrapped = wrapStyled([{ text: line }], width);
    if (rows.length + wrapped.length > USER_MAX_ROWS) {
      const part = wrapped.slice(0, Math.max(1, USER_LINES_SHOWN - rows.length));
      rows.push(...part);
      partial = Math.max(1, line.length - part.reduce((n, r) => n + lineText(r).length, 0));
      break;
    }
    rows.push(...wrapped);
    shown++;
  }
  const more = lines.length - shown - (partial ? 1 : 0);
  const left = [...(partial ? [counted(partial, "more character")] : []), ...(more ? [counted(more, "more line")] : [])];
  if (left.length) rows.push([span(`… [${left.join(" and ")}, sent in full]`, "muted")]);
  return rows;
}

export interface ChatRenderOptions {
  showStats: boolean;
  showToolCalls: boolean;
}

export function renderEntry(entry: ChatEntry, width: number, opts: ChatRenderOptions): StyledLine[] {
  const inner = bodyWidth(width);
  switch (entry.kind) {
    case "user":
      return withLabel(label("User:", "user"), userBody(entry.text, inner));
    case "agent": {
      const visible = opts.showToolCalls ? entry : { ...entry, blocks: entry.blocks.filter((b) => b.kind !== "tool") };
      return withLabel(label("Agent:", "agent"), agentBody(visible, inner, opts.showStats));
    }
    case "notice": {
      const role = noticeRole(entry.level);
      const body = entry.level === "info" ? renderMarkdown(entry.text, inner) : wrapStyled([span(entry.text, role)], inner);
      return withLabel(label(NOTICE_MARK[entry.level], role), body);
    }
  }
}
