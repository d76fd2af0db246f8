// A TuiBackend whose turns are scripted by the test: each turn is an async generator that may yield
// events, wait on the test (gates), and ask the UI port questions exactly as the orchestrator would.
// Sessions, history and undo are kept in memory so commands have something real to show.
import type { TurnEvent } from "../../src/main/agent/orchestrator.js";
import type { TurnStats } from "../../src/main/agent/events.js";
import type { CompactionRun } from "../../src/main/context/compression/compact-conversation.js";
import type { UiPort } from "../../src/main/agent/ports.js";
import type { ChatMessage } from "../../src/main/session/session-types.js";
import type { UndoOutcome } from "../../src/main/session/undo-edit.js";
import type { ToolResult } from "../../src/main/tools/tool-types.js";
import type { AnalyzeRequest } from "../../src/ui/app/analyze-command.js";
import type { IndexState, ListedSession, ReindexProgress, SessionView, StatusReport, TuiBackend } from "../../src/ui/app/tui-backend.js";

export type TurnScript = (ctx: { ui: UiPort; signal: AbortSignal; text: string }) => AsyncGenerator<TurnEvent, void>;

export interface Gate {
  open(): void;
  wait: Promise<void>;
}

export function gate(): Gate {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { open, wait };
}

export function stats(over: Partial<TurnStats> = {}): TurnStats {
  return { timeMs: 3200, tokens: 1247, promptTokens: 1000, completionTokens: 247, toolCalls: 1, requests: 2, ...over };
}

export function toolResult(callId: string, name: string, title: string, over: Partial<ToolResult> = {}): ToolResult {
  return { callId, name, success: true, truncated: false, display: { title, summary: "40 lines" }, durationMs: 3, ...over };
}

interface FakeSession {
  id: string;
  createdAt: number;
  lastActivityAt: number;
  messages: ChatMessage[];
  input: string[];
  /** Another ipuaro has it open (the /sessions list says so). */
  openElsewhere?: string;
}

export class ScriptedBackend implements TuiBackend {
  readonly projectName = "acme-shop";
  readonly root = "/tmp/acme-shop";
  readonly model = "qwen2.5-coder:7b-instruct";
  ui: UiPort | null = null;
  readonly turns: TurnScript[] = [];
  readonly sent: string[] = [];
  readonly inputs: string[] = [];
  undoOutcome: UndoOutcome = { status: "empty", message: "Nothing to undo in this session." };
  undoCalls = 0;
  closed = false;
  auto = false;
  contextPct: number | null = 12;
  paths = ["packages/core/src/money.ts", "packages/core/src/logger.ts", "packages/ui/src/index.ts", "apps/api/src/main.ts"];
  symbols = ["Money", "MoneyLike", "formatMoney", "Logger"];
  private indexListeners = new Set<(s: IndexState) => void>();
  sessions: FakeSession[] = [];
  current: FakeSession;
  rewind: TuiBackend["rewind"];

  constructor(opts: { history?: string[]; messages?: ChatMessage[] } = {}) {
    this.current = { id: "20250101-100000-aaaa", createdAt: Date.now(), lastActivityAt: Date.now(), messages: opts.messages ?? [], input: opts.history ?? [] };
    this.sessions.push(this.current);
  }

  /** What `branch()` answers (a test checks out another). */
  currentBranch: string | null = "main";

  async branch(): Promise<string | null> {
    return this.currentBranch;
  }

  session(): SessionView {
    const s = this.current;
    return {
      id: s.id,
      createdAt: s.createdAt,
      messages: () => s.messages,
      inputHistory: () => s.input,
      contextPercent: () => this.contextPct,
    };
  }

  runTurn(text: string, signal: AbortSignal): AsyncIterable<TurnEvent> {
    this.sent.push(text);
    const script = this.turns.shift();
    if (!script) throw new Error(`no scripted turn left for ${JSON.stringify(text)}`);
    if (!this.ui) throw new Error("ScriptedBackend.ui is not set");
    return script({ ui: this.ui, signal, text });
  }

  evaluate(signal: AbortSignal): AsyncIterable<TurnEvent> {
    return this.runTurn("/eval", signal);
  }

  async undo(): Promise<UndoOutcome> {
    this.undoCalls++;
    return this.undoOutcome;
  }

  /** What /compact waits on (a slow summary): resolve it, or let the signal stop it. */
  compactGate: Promise<void> | null = null;
  /** What /compact reports (null: nothing to compress). */
  compactReport: CompactionRun | null = null;

  async compact(_focus: string | undefined, signal: AbortSignal): Promise<CompactionRun | null> {
    if (this.compactGate) {
      await Promise.race([this.compactGate, new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }))]);
    }
    return this.compactReport;
  }

  async addInput(text: string): Promise<void> {
    this.inputs.push(text);
    this.current.input.push(text);
  }

  async listSessions(): Promise<ListedSession[]> {
    return this.sessions.map((s) => ({
      id: s.id,
      createdAt: s.createdAt,
      lastActivityAt: s.lastActivityAt,
      messages: s.messages.length,
      title: s.messages.find((m) => m.role === "user")?.content.split("\n")[0] ?? "",
      ...(s.openElsewhere ? { openElsewhere: s.openElsewhere } : {}),
    }));
  }

  async sessionHolder(id: string): Promise<string | null> {
    return this.sessions.find((s) => s.id === id)?.openElsewhere ?? null;
  }

  async loadSession(id: string): Promise<void> {
    const s = this.sessions.find((x) => x.id === id);
    if (!s) throw new Error(`no session ${id}`);
    this.current = s;
  }

  async deleteSession(id: string): Promise<void> {
    this.sessions = this.sessions.filter((s) => s.id !== id);
  }

  async newSession(): Promise<void> {
    this.current = { id: `new-${this.sessions.length}`, createdAt: Date.now(), lastActivityAt: Date.now(), messages: [], input: [] };
    this.sessions.push(this.current);
  }

  async reindex(onProgress: (p: ReindexProgress) => void): Promise<string> {
    onProgress({ phase: "indexing", done: 1, total: 2 });
    return "indexed 2 files";
  }

  readonly analyzed: Array<[AnalyzeRequest, number | undefined]> = [];
  /** What /analyze shows for a request at a width (default: a two-row table). */
  analyzeText: (request: AnalyzeRequest, width: number | undefined) => string = () => `FILE      SCORE\nsrc/a.ts  0.91`;
  async analyze(request: AnalyzeRequest, width?: number): Promise<string> {
    this.analyzed.push([request, width]);
    return this.analyzeText(request, width);
  }

  async status(): Promise<StatusReport> {
    return { rows: [["Redis", "unix:///tmp/redis.sock (ok)"], ["Model", this.model]] };
  }

  onIndexState(listener: (s: IndexState) => void): () => void {
    this.indexListeners.add(listener);
    return () => this.indexListeners.delete(listener);
  }

  emitIndexState(s: IndexState): void {
    for (const l of this.indexListeners) l(s);
  }

  autoApply(): boolean {
    return this.auto;
  }

  setAutoApply(on: boolean): void {
    this.auto = on;
  }

  toolHelp() {
    return [
      { name: "get_lines", description: "Read lines of a file. More text." },
      { name: "edit_lines", description: "Replace lines of a file; the user confirms the diff." },
    ];
  }

  toolTitle(name: string, args: Record<string, unknown>): string {
    return `${name} ${Object.values(args).join(" ")}`.trim();
  }

  async completionPaths(): Promise<readonly string[]> {
    return this.paths;
  }

  async completionSymbols(): Promise<readonly string[]> {
    return this.symbols;
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
