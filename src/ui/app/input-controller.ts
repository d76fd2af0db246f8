// What each key does. Ctrl+C and Ctrl+D are global: Ctrl+C interrupts the running answer or command
// (closing its open question) and exits when pressed again within 2 s; Ctrl+D exits with an empty
// prompt. Other keys go to the open dialog, else to the prompt: editing, history, completion, sending.
// Esc stops a turn: one that has produced nothing yet gives its message back (ui.restoreOnCancel), one
// that has started stops where it is; Esc Esc on an idle, empty prompt opens /rewind. An Esc that closed a dialog never starts a pair.
// input.multiline: "auto" — Enter sends, Shift+Enter / Alt+Enter / Ctrl+J break the line; "always" —
// the other way round; "never" — one line: line-break keys do nothing and pasted line breaks become spaces.
import type { TurnEvent } from "../../main/agent/orchestrator.js";
import { isIpuaroError, type IpuaroError } from "../../main/errors.js";
import { complete } from "../input/completion.js";
import type { KeyAction } from "../input/keymap.js";
import type { LineEditor } from "../input/line-editor.js";
import { Transcript, type AgentEntry } from "../chat/transcript.js";
import { span } from "../text/styled-text.js";
import type { TuiApp } from "./tui-app.js";
import { playTurn } from "./turn-runner.js";
import { TYPE_AHEAD_GUARD_MS, TYPED_AHEAD_EDITS, TypeAheadGuard } from "./type-ahead-guard.js";
import { EDITS, promptAction, type MultilineMode } from "./prompt-keys.js";
import { PromptSearch } from "./prompt-search.js";
import { giveBackRefused, restoreCancelled } from "./message-give-back.js";
import { MessageQueue } from "./message-queue.js";
import { readPromptLine, unknownCommandText } from "./slash-commands.js";

export { TYPE_AHEAD_GUARD_MS } from "./type-ahead-guard.js";
export type { MultilineMode } from "./prompt-keys.js";

export const EXIT_CONFIRM_MS = 2000;
/** An answer that took longer than this rings the bell when it completes (display.bellOnComplete). */
export const BELL_AFTER_MS = 5000;
export const DOUBLE_ESCAPE_MS = 500;
const MAX_HINT_CANDIDATES = 12;

export interface InputControllerOptions {
  bellOnComplete: boolean;
  multiline: MultilineMode;
  /** Keys a dialog the agent opened ignores at first (TYPE_AHEAD_GUARD_MS; tests that answer at once use 0). */
  typeAheadGuardMs?: number;
}

export class InputController {
  private turn: AbortController | null = null;
  /** Esc Esc came while a finished turn was winding down: the rewind list opens once it has. */
  private rewindAfterTurn = false;
  /** Tells keys typed for the prompt from answers to a dialog the agent opened mid-turn. */
  private readonly typeAhead: TypeAheadGuard;
  private typedAheadHint: unknown = null;
  private readonly work = new Set<AbortController>();
  private lastInterrupt = -Infinity;
  private lastEscape = -Infinity;
  private lastDialogEscape = -Infinity;
  /** The running turn's chat entries: its user message and the agent's reply (null before it starts). */
  private turnEntries: { userId: number | null; agent: AgentEntry | null } = { userId: null, agent: null };
  /** Esc stopped the running turn before it produced anything. */
  private cancelledEmpty = false;
  /** A message sent while the agent worked: it goes when the turn ends (back to the input if it is stopped). */
  private readonly queue: MessageQueue;
  /** Ctrl+R's search through the input history. */
  private readonly search: PromptSearch;

  private readonly bellOnComplete: boolean;
  private readonly multiline: MultilineMode;

  constructor(
    private readonly app: TuiApp,
    opts: InputControllerOptions,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.bellOnComplete = opts.bellOnComplete;
    this.typeAhead = new TypeAheadGuard(opts.typeAheadGuardMs ?? TYPE_AHEAD_GUARD_MS, (modal) => app.modalOpening(modal), now);
    this.multiline = opts.multiline;
    this.search = new PromptSearch(app.input, (text, role) => this.hint(text, role));
    this.queue = new MessageQueue(app.input, (text, role) => this.hint(text, role));
  }

  /** A turn, or work Ctrl+C can stop (/compact, /reindex): a message sent now would run beside it. */
  get busy(): boolean {
    return this.turn !== null || this.work.size > 0;
  }

  private get editor(): LineEditor {
    return this.app.input.editor;
  }

  private hint(text: string | null, role: "muted" | "warn" = "muted"): void {
    this.app.input.setHint(text === null ? null : [span(` ${text}`, role)]);
  }

  handle(action: KeyAction | null, text: string | undefined): void {
    if (!action) return;
    if (action.type === "interrupt") return this.interrupt();
    if (action.type === "exit" && !this.app.topModal) {
      if (this.editor.text) this.editor.deleteForward();
      else void this.app.exit();
      return this.app.requestRender();
    }
    const modal = this.app.topModal;
    const typedAhead = this.typeAhead.key(modal, action);
    if (modal && !typedAhead) {
      if (this.app.input.hint === this.typedAheadHint) this.hint(null);
      if (action.type === "escape") this.lastDialogEscape = this.now();
      modal.handleKey(action, text);
      return this.app.requestRender();
    }
    if (modal && !TYPED_AHEAD_EDITS.has(action.type)) return;
    // The prompt's reading of a key under input.multiline (see the top of this file).
    const prompt = promptAction(this.multiline, action, (why) => this.hint(why));
    if (prompt) this.onPromptKey(prompt);
    if (modal) {
      this.hint("A question is waiting above: what you type goes to your message until you pause, then answer it.", "warn");
      this.typedAheadHint = this.app.input.hint;
    }
    this.app.requestRender();
  }

  private interrupt(): void {
    const t = this.now();
    const running = this.turn !== null || this.work.size > 0;
    if (this.search.open) {
      // As in a shell, Ctrl+C leaves the search with what was typed before it (and stops a turn as ever).
      this.search.end(false);
      if (!running) return this.app.requestRender();
    }
    // Nothing running, a dialog open (/sessions, /rewind): Ctrl+C closes it, as Esc does.
    if (!running && this.app.topModal) {
      this.app.dismissModals();
      this.lastInterrupt = -Infinity;
      this.app.requestRender();
      return;
    }
    if (t - this.lastInterrupt < EXIT_CONFIRM_MS) {
      void this.app.exit();
      return;
    }
    this.lastInterrupt = t;
    if (running) {
      this.abortAll();
      this.hint("Interrupted. Ctrl+C again within 2 s exits.", "warn");
    } else {
      // The cleared draft stays reachable with ↑ (this run only; only sent messages are saved).
      const draft = this.editor.text;
      if (draft.trim()) this.app.input.history.push(draft);
      this.editor.clear();
      this.hint(`Ctrl+C again within 2 s exits (Ctrl+D exits too).${draft.trim() ? " ↑ brings the draft back." : ""}`, "warn");
    }
    // The hint promises an exit within 2 s: it goes when that is no longer true (unless replaced).
    const shown = this.app.input.hint;
    setTimeout(() => {
      if (this.app.input.hint !== shown) return;
      this.hint(null);
      this.app.requestRender();
    }, EXIT_CONFIRM_MS).unref();
    this.app.requestRender();
  }

  abortAll(): void {
    this.turn?.abort();
    for (const w of this.work) w.abort();
    this.app.dismissModals();
  }

  private onPromptKey(action: KeyAction): void {
    if (this.search.key(action)) return;
    if (action.type !== "complete" && action.type !== "escape") this.hint(null);
    switch (action.type) {
      case "searchHistory":
        return this.search.start();
      case "insert":
        this.editor.insert(action.text);
        return;
      case "submit":
        return this.submit();
      case "up":
        if (this.queue.takeBack()) return;
        if (!this.editor.lineUp()) {
          const prev = this.app.input.history.previous(this.editor.text);
          if (prev !== null) this.editor.set(prev);
        }
        return;
      case "down":
        if (!this.editor.lineDown()) {
          const next = this.app.input.history.next(this.editor.text);
          if (next !== null) this.editor.set(next);
        }
        return;
      case "pageUp":
        return this.app.chat.pageUp();
      case "pageDown":
        return this.app.chat.pageDown();
      case "undo":
        return this.command("/undo");
      case "showOutput":
        return this.command("/output");
      case "redraw":
        this.app.screen.alloc();
        return;
      case "complete":
        return void this.complete();
      case "escape":
        return this.escape();
      default: {
        const edit = EDITS[action.type];
        if (edit) edit(this.editor);
      }
    }
  }

  private escape(): void {
    const t = this.now();
    if (this.app.input.hint) this.hint(null);
    const agent = this.turnEntries.agent;
    if (this.turn !== null && this.work.size === 0 && agent && !agent.streaming) {
      // The answer is complete on screen; only its bookkeeping (checkpoint, session) is left. Esc here is
      // no stop ("Interrupted." under a finished answer, and the rewind pair lost): a pair opens the
      // rewind list as soon as the turn has wound down.
      if (this.editor.text || t - this.lastDialogEscape < DOUBLE_ESCAPE_MS) this.lastEscape = -Infinity;
      else if (t - this.lastEscape < DOUBLE_ESCAPE_MS) {
        this.lastEscape = -Infinity;
        this.rewindAfterTurn = true;
      } else this.lastEscape = t;
      return;
    }
    if (this.busy) {
      this.lastEscape = -Infinity;
      if (this.turn === null) {
        // /compact or /reindex: stopped, no turn to give a message back from.
        this.abortAll();
        return;
      }
      if (agent && !Transcript.hasContent(agent) && !this.cancelledEmpty) {
        this.cancelledEmpty = true;
        this.turn?.abort();
      } else if (!this.cancelledEmpty) {
        // Started: stopped where it is (what streamed stays, marked interrupted), as Ctrl+C does but
        // without arming the exit — Esc is the key people press to stop an agent.
        this.abortAll();
        this.hint("Interrupted.", "warn");
      }
      return;
    }
    // A pair needs an empty prompt, and its first Esc must not be the tail of one that closed a dialog.
    if (this.editor.text || t - this.lastDialogEscape < DOUBLE_ESCAPE_MS) {
      this.lastEscape = -Infinity;
      return;
    }
    if (t - this.lastEscape < DOUBLE_ESCAPE_MS) {
      this.lastEscape = -Infinity;
      return this.command("/rewind");
    }
    this.lastEscape = t;
  }

  /** The running (or just ended) turn's chat entries. */
  private turnEntryIds(): Set<number> {
    return new Set([this.turnEntries.userId, this.turnEntries.agent?.id].filter((x): x is number => x !== null && x !== undefined));
  }

  private command(line: string): void {
    if (!this.app.hasBackend) return this.hint("The project is still being prepared…", "warn");
    void this.app.runCommand(line).then(() => this.app.requestRender());
  }

  private submit(): void {
    // A trailing backslash breaks the line only where Enter would otherwise send (input.multiline auto).
    const text = this.app.input.takeSubmission(this.multiline === "auto");
    if (text === null || !text.trim()) return;
    if (!this.app.hasBackend) {
      this.editor.set(text);
      return this.hint("The project is still being prepared…", "warn");
    }
    const line = readPromptLine(text);
    if (line.kind === "unknown") {
      // Not lost: the text stays in the input, and the notice says how to send it as a message.
      this.editor.set(text);
      this.app.notice("warn", unknownCommandText(line.name));
      return;
    }
    // As in Claude Code and Codex: sent when the agent is done. One at a time.
    if (this.busy && line.kind === "text") return this.queue.offer(text, this.turn !== null);
    this.send(text, line.kind === "command");
  }

  private send(text: string, command = false): void {
    this.app.input.history.push(text);
    this.app.backend.addInput(text).catch((e: unknown) => this.app.notice("warn", `input history not saved: ${e instanceof Error ? e.message : String(e)}`));
    if (command) return this.command(text);
    void this.play((signal) => this.app.backend.runTurn(text, signal), text);
  }

  /** After a turn: the queued message goes, or (the turn was stopped) comes back to the input. */
  private sendQueued(stopped: boolean, why = "The turn was stopped"): void {
    const next = this.queue.next(stopped, why);
    if (next !== null) this.send(next);
  }

  private async complete(): Promise<void> {
    if (!this.app.hasBackend) return;
    const backend = this.app.backend;
    const before = this.editor.text;
    const result = await complete(before, this.editor.cursor, {
      commands: () => this.app.commandNames(),
      paths: () => backend.completionPaths(),
      symbols: () => backend.completionSymbols(),
    }).catch(() => null);
    // The user kept typing while the index answered: that completion is stale.
    if (!result || this.editor.text !== before) return;
    this.editor.set(result.text, result.cursor);
    const shown = result.candidates.slice(0, MAX_HINT_CANDIDATES).join("  ");
    const more = result.candidates.length > MAX_HINT_CANDIDATES ? `  … ${result.candidates.length - MAX_HINT_CANDIDATES} more` : "";
    this.hint(result.candidates.length ? shown + more : null);
    this.app.requestRender();
  }

  /** Plays a turn; one at a time. `command`: a command's turn (/eval), with no message of the user's to give back. */
  async play(events: (signal: AbortSignal) => AsyncIterable<TurnEvent>, userText: string, command = false): Promise<void> {
    if (this.turn) return;
    const ctrl = new AbortController();
    this.turn = ctrl;
    this.cancelledEmpty = false;
    this.app.transcript.addUser(userText);
    this.turnEntries = { userId: this.app.transcript.last?.id ?? null, agent: null };
    this.app.chat.follow();
    let refused: IpuaroError | undefined;
    try {
      let stream: AsyncIterable<TurnEvent>;
      try {
        stream = events(ctrl.signal);
      } catch (error) {
        this.app.notice("error", isIpuaroError(error) ? `${error.message}${error.suggestion ? `\n${error.suggestion}` : ""}` : String(error));
        return;
      }
      const outcome = await playTurn(stream, {
        transcript: this.app.transcript,
        setActivity: (a) => (this.app.state.activity = a),
        setContextPercent: (p) => (this.app.state.contextPercent = p),
        changed: () => this.app.requestRender(),
        started: (entry) => (this.turnEntries.agent = entry),
      });
      refused = outcome.refused;
      // Abort at a failed request, before the turn kept anything but the message: given back as after Esc.
      if (outcome.takeBack) this.cancelledEmpty = true;
      if (this.bellOnComplete && outcome.reason === "answer" && outcome.timeMs >= BELL_AFTER_MS) this.app.bell();
    } finally {
      this.turn = null;
      this.app.requestRender();
    }
    if (refused) {
      // Never stored: there is nothing for restoreCancelled to take back, even if Esc came meanwhile.
      this.cancelledEmpty = false;
      giveBackRefused(this.app, this.turnEntryIds(), command ? null : userText, refused, (text, role) => this.hint(text, role));
    }
    const given = this.cancelledEmpty;
    if (this.cancelledEmpty) {
      await restoreCancelled(this.app, this.turnEntryIds(), command ? null : userText, (text, role) => this.hint(text, role));
      this.cancelledEmpty = false;
      this.app.requestRender();
    }
    if (this.rewindAfterTurn) {
      this.rewindAfterTurn = false;
      // A message queued meanwhile is not sent into a conversation about to be rewound: it goes back
      // to the input.
      this.sendQueued(true, "Rewinding");
      return this.command("/rewind");
    }
    this.sendQueued(ctrl.signal.aborted || given);
    this.app.requestRender();
  }

  /** Work Ctrl+C can stop (reindex, compact). */
  async cancellable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const ctrl = new AbortController();
    this.work.add(ctrl);
    try {
      return await work(ctrl.signal);
    } finally {
      this.work.delete(ctrl);
      // "Wait until the work is done" is out of date once it is.
      if (!this.busy) {
        this.queue.outOfDate();
        this.app.requestRender();
      }
    }
  }
}
