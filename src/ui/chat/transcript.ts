// What the chat pane shows, as data: user messages, agent answers (text, tool calls as they run, the
// stats line), and notices. The turn controller feeds it events; the chat view renders it. Every entry
// carries a version so the view re-wraps only what changed.
import type { FinishReason } from "../../main/agent/events.js";
import type { TurnStatsShown } from "../../main/session/session-types.js";
import { cleanTerminalOutput } from "../../main/exec/output-text.js";
import { counted } from "../../main/plural.js";
import { OUTPUT_PREVIEW_LINES } from "../../main/tools/tool-types.js";

/** Output of a running command kept for Ctrl+O (its end); the result brings all of it. */
const LIVE_OUTPUT_CHARS = 200_000;
/** The end of the live output its preview lines are taken from. */
const LIVE_PREVIEW_CHARS = 4_000;

export type ToolCallStatus = "running" | "ok" | "error";

export type NoticeLevel = "info" | "warn" | "error";

export type AgentBlock =
  | { kind: "text"; text: string }
  | {
      kind: "tool";
      callId: string;
      title: string;
      status: ToolCallStatus;
      summary?: string;
      preview?: readonly string[];
      details?: string;
      detailsHeaderLines?: number;
      /** While it runs: the output of its command so far (the end of it). */
      live?: string;
      /** `live` lost its start (it keeps the last LIVE_OUTPUT_CHARS). */
      liveCut?: boolean;
    }
  /** Something the turn reported as it went (an error and the choice made, a retry): in its place in the answer. */
  | { kind: "notice"; level: NoticeLevel; text: string };

export type ChatEntry =
  | { kind: "user"; id: number; version: number; text: string; command?: string }
  | {
      kind: "agent";
      id: number;
      version: number;
      blocks: AgentBlock[];
      streaming: boolean;
      /** Date.now() when the turn began: the "thinking…" line counts the seconds (Transcript.tick). */
      startedAt?: number;
      stats?: TurnStatsShown;
      reason?: FinishReason;
      /** The turn's closing text when it did not end with an answer (stopped, failed, interrupted). */
      outcome?: string;
      /** A dialog of the turn's waits for the user: the turn is not "thinking" meanwhile. */
      awaitingUser?: boolean;
      /**
       * What the model is doing, for the last line: reading the prompt since `since` (no chunk of the
       * request yet: "thinking"), or writing, its last chunk at `lastAt` (a stream gone quiet says so).
       * Absent: thinking since the turn began.
       */
      activity?: ModelActivity;
    }
  | { kind: "notice"; id: number; version: number; level: NoticeLevel; text: string };

export type AgentEntry = Extract<ChatEntry, { kind: "agent" }>;

type ToolBlock = Extract<AgentBlock, { kind: "tool" }>;

export type ModelActivity = { kind: "thinking"; since: number } | { kind: "writing"; lastAt: number };

/** A tool call's whole output for /output: `details`' first `headerLines` lines are the run's header. */
export interface ToolOutput {
  title: string;
  details: string;
  headerLines: number;
}

export class Transcript {
  private readonly list: ChatEntry[] = [];
  private seq = 0;
  /** Bumped on every change; the view compares it to skip work. */
  revision = 0;

  get entries(): readonly ChatEntry[] {
    return this.list;
  }

  private touch(entry: ChatEntry): void {
    entry.version++;
    this.revision++;
  }

  clear(): void {
    this.list.length = 0;
    this.revision++;
  }

  /** Removes and returns every entry (to put them back after others). */
  takeAll(): ChatEntry[] {
    const all = this.list.splice(0, this.list.length);
    this.revision++;
    return all;
  }

  append(entries: readonly ChatEntry[]): void {
    this.list.push(...entries);
    this.revision++;
  }

  addUser(text: string, command?: string): void {
    this.list.push({ kind: "user", id: ++this.seq, version: 0, text, ...(command ? { command } : {}) });
    this.revision++;
  }

  /** Takes entries out (a cancelled turn whose message went back to the input). */
  remove(ids: ReadonlySet<number>): void {
    for (let i = this.list.length - 1; i >= 0; i--) if (ids.has(this.list[i]!.id)) this.list.splice(i, 1);
    this.revision++;
  }

  /** The newest entry. */
  get last(): ChatEntry | undefined {
    return this.list[this.list.length - 1];
  }

  startAgent(): AgentEntry {
    const entry: AgentEntry = { kind: "agent", id: ++this.seq, version: 0, blocks: [], streaming: true, startedAt: Date.now() };
    this.list.push(entry);
    this.revision++;
    return entry;
  }

  /** Adds a notice; returns its entry id. */
  notice(level: NoticeLevel, text: string): number {
    const id = ++this.seq;
    this.list.push({ kind: "notice", id, version: 0, level, text });
    this.revision++;
    return id;
  }

  /** A notice of the turn itself, kept in order with its text and tool calls (see AgentBlock). */
  noticeIn(entry: AgentEntry, level: NoticeLevel, text: string): void {
    entry.blocks.push({ kind: "notice", level, text });
    this.touch(entry);
  }

  /**
   * Takes a notice out of an answer and adds it on its own after it: the answer is about to leave the chat
   * (its message goes back to the input), and what ended it should not go with it.
   */
  moveNoticeOut(entry: AgentEntry, text: string): void {
    const at = entry.blocks.findLastIndex((b) => b.kind === "notice" && b.text === text);
    if (at < 0) return;
    const [block] = entry.blocks.splice(at, 1);
    this.touch(entry);
    if (block?.kind === "notice") this.notice(block.level, block.text);
  }

  /** Whether the answer has shown anything of its own yet (text or a tool call; notices do not count). */
  static hasContent(entry: AgentEntry): boolean {
    return entry.blocks.some((b) => b.kind !== "notice");
  }

  /** Drops the text streamed since the last tool call (a request that failed and is retried); notices stay. */
  dropStreamedText(entry: AgentEntry): void {
    let lastTool = -1;
    entry.blocks.forEach((b, i) => {
      if (b.kind === "tool") lastTool = i;
    });
    const kept = entry.blocks.filter((b, i) => i <= lastTool || b.kind !== "text");
    entry.blocks.splice(0, entry.blocks.length, ...kept);
    this.touch(entry);
  }

  /** A dialog of the running turn opened (true) or closed: its last line says who is waited for. */
  awaitingUser(on: boolean): void {
    const entry = [...this.list].reverse().find((e): e is AgentEntry => e.kind === "agent" && e.streaming);
    if (!entry || !!entry.awaitingUser === on) return;
    entry.awaitingUser = on;
    this.touch(entry);
  }

  /** A second passed in a running turn: its "thinking… N s" line is drawn again. */
  tick(entry: AgentEntry): void {
    if (entry.streaming) this.touch(entry);
  }

  /** A request went out, or one ended and what comes next is ipuaro's (tools, the next request): "thinking" from now. */
  thinking(entry: AgentEntry): void {
    entry.activity = { kind: "thinking", since: Date.now() };
    this.touch(entry);
  }

  /** A chunk came, shown or not (a tool call being written): the model is writing. */
  writing(entry: AgentEntry): void {
    entry.activity = { kind: "writing", lastAt: Date.now() };
    this.touch(entry);
  }

  appendText(entry: AgentEntry, text: string): void {
    const last = entry.blocks[entry.blocks.length - 1];
    if (last?.kind === "text") last.text += text;
    else entry.blocks.push({ kind: "text", text });
    entry.activity = { kind: "writing", lastAt: Date.now() };
    this.touch(entry);
  }

  toolCall(entry: AgentEntry, callId: string, title: string): void {
    entry.blocks.push({ kind: "tool", callId, title, status: "running" });
    this.touch(entry);
  }

  /**
   * Output of the command the running turn's tool is running, as it comes: shown under its line (the last
   * few lines) and by Ctrl+O, so a long build or test run is not a silent spinner.
   */
  commandOutput(chunk: string): void {
    // Called for every chunk of output: found from the end without copying the list.
    const entry = this.list.findLast((e): e is AgentEntry => e.kind === "agent" && e.streaming);
    const block = entry?.blocks.findLast((b): b is Extract<AgentBlock, { kind: "tool" }> => b.kind === "tool" && b.status === "running");
    if (!entry || !block) return;
    const live = (block.live ?? "") + chunk;
    if (live.length > LIVE_OUTPUT_CHARS) block.liveCut = true;
    block.live = live.length > LIVE_OUTPUT_CHARS ? live.slice(-LIVE_OUTPUT_CHARS) : live;
    block.preview = cleanTerminalOutput(block.live.slice(-LIVE_PREVIEW_CHARS)).split("\n").filter((l) => l.trim()).slice(-OUTPUT_PREVIEW_LINES);
    this.touch(entry);
  }

  toolResult(entry: AgentEntry, callId: string, ok: boolean, summary: string | undefined, preview?: readonly string[], details?: string, detailsHeaderLines?: number): void {
    const block = entry.blocks.find((b): b is Extract<AgentBlock, { kind: "tool" }> => b.kind === "tool" && b.callId === callId);
    if (!block) return;
    // The result's own preview and details replace what was shown live.
    const live = block.live;
    delete block.live;
    delete block.preview;
    block.status = ok ? "ok" : "error";
    if (summary) block.summary = summary;
    if (preview?.length) block.preview = preview;
    if (details) block.details = details;
    if (details && detailsHeaderLines) block.detailsHeaderLines = detailsHeaderLines;
    // A result with no output of its own (the command cancelled, timed out) keeps what was shown live.
    if (!preview?.length && !details && live !== undefined) keepLiveOutput(block, live);
    delete block.liveCut;
    this.touch(entry);
  }

  /** The newest tool call whose whole output was kept (a command's, a test run's), for Ctrl+O. */
  lastToolOutput(): ToolOutput | null {
    for (let i = this.list.length - 1; i >= 0; i--) {
      const e = this.list[i]!;
      if (e.kind !== "agent") continue;
      for (let j = e.blocks.length - 1; j >= 0; j--) {
        const b = e.blocks[j]!;
        if (b.kind === "tool" && b.details !== undefined) return { title: b.title, details: b.details, headerLines: b.detailsHeaderLines ?? 0 };
        if (b.kind === "tool" && b.live !== undefined) return { title: `${b.title} (still running)`, details: b.live, headerLines: 0 };
      }
    }
    return null;
  }

  finish(entry: AgentEntry, reason: FinishReason, stats: TurnStatsShown | undefined, outcome?: string): void {
    entry.streaming = false;
    entry.reason = reason;
    if (stats) entry.stats = stats;
    if (outcome) entry.outcome = outcome;
    // A call still running when the turn ended never got its result; what its command printed stays.
    for (const b of entry.blocks) {
      if (b.kind !== "tool") continue;
      if (b.status === "running") {
        b.status = "error";
        if (b.live !== undefined) keepLiveOutput(b, b.live, "stopped with the turn");
      }
      delete b.live;
      delete b.liveCut;
    }
    this.touch(entry);
  }

  /** The visible text of an answer (for tests and copy). */
  static answerText(entry: AgentEntry): string {
    return entry.blocks.map((b) => (b.kind === "text" ? b.text : "")).join("");
  }
}

/**
 * A call that ended without output of its own keeps its command's output so far, as a finished one's:
 * the last lines under its row, all of it for Ctrl+O under a line saying how the call ended (Esc on a
 * slow command took the ticks it had shown off the screen, and /output had nothing).
 */
function keepLiveOutput(block: ToolBlock, live: string, ended = block.summary ?? "failed"): void {
  const output = cleanTerminalOutput(live).trimEnd();
  const lines = output.split("\n").filter((l) => l.trim());
  if (!lines.length) return;
  const shown = lines.slice(-OUTPUT_PREVIEW_LINES);
  block.preview = lines.length > shown.length ? [`… ${counted(lines.length - shown.length, "more line")}`, ...shown] : shown;
  const cut = block.liveCut ? ` (its last ${LIVE_OUTPUT_CHARS.toLocaleString("en-US")} characters)` : "";
  block.details = `✗ ${ended}: the output until then${cut}\n${output}`;
  block.detailsHeaderLines = 1;
}
