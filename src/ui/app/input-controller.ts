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
import { HistorySearch } from "../input/history-search.js";
import type { CommandKey, KeyAction } from "../input/keymap.js";
import type { LineEditor } from "../input/line-editor.js";
import { Transcript, type AgentEntry } from "../chat/transcript.js";
import { span } from "../text/styled-text.js";
import type { TuiApp } from "./tui-app.js";
import type { Modal } from "../dialogs/dialog-box.js";
import { playTurn } from "./turn-runner.js";

export const EXIT_CONFIRM_MS = 2000;
/**
 * How long a dialog the agent opens ignores keys (they were typed before it appeared); after that it
 * waits for a pause in typing of twice as long (see InputController.typedAhead).
 */
export const TYPE_AHEAD_GUARD_MS = 500;
/** An answer that took longer than this rings the bell when it completes (display.bellOnComplete). */
export const BELL_AFTER_MS = 5000;
export const DOUBLE_ESCAPE_MS = 500;
const MAX_HINT_CANDIDATES = 12;

type EditAction = CommandKey;

export type MultilineMode = "auto" | "always" | "never";

export interface InputControllerOptions {
  bellOnComplete: boolean;
  multiline: MultilineMode;
  /** Keys a dialog the agent opened ignores at first (TYPE_AHEAD_GUARD_MS; tests that answer at once use 0). */
  typeAheadGuardMs?: number;
}

const EDITS: Partial<Record<EditAction, (e: LineEditor) => void>> = {
  newline: (e) => e.insert("\n"),
  backspace: (e) => e.backspace(),
  delete: (e) => e.deleteForward(),
  left: (e) => e.left(),
  right: (e) => e.right(),
  home: (e) => e.home(),
  end: (e) => e.end(),
  wordLeft: (e) => e.wordLeft(),
  wordRight: (e) => e.wordRight(),
  deleteWordBefore: (e) => e.deleteWordBefore(),
  killLineEnd: (e) => e.killToLineEnd(),
  killLineStart: (e) => e.killToLineStart(),
};

/** Keys typed ahead into a dialog that still edit the message being written (see typedAhead). */
const TYPED_AHEAD_EDITS = new Set<KeyAction["type"]>(["insert", "newline", "backspace", "delete", "left", "right", "home", "end", "wordLeft", "wordRight", "deleteWordBefore", "killLineEnd", "killLineStart"]);

export class InputController {
  private turn: AbortController | null = null;
  /** Esc Esc came while a finished turn was winding down: the rewind list opens once it has. */
  private rewindAfterTurn = false;
  /** When the last key came (any key, to the prompt or a dialog). */
  private lastKeyAt = -Infinity;
  /** Dialogs opened mid-turn that the user has paused at: their keys are answers now. */
  private readonly answerable = new WeakSet<Modal>();
  private typedAheadHint: unknown = null;
  /** The hint shown when a message was queued (cleared when the message is sent). */
  private queuedHint: unknown = null;
  private readonly work = new Set<AbortController>();
  private lastInterrupt = -Infinity;
  private lastEscape = -Infinity;
  private lastDialogEscape = -Infinity;
  /** The running turn's chat entries: its user message and the agent's reply (null before it starts). */
  private turnEntries: { userId: number | null; agent: AgentEntry | null } = { userId: null, agent: null };
  /** Esc stopped the running turn before it produced anything. */
  private cancelledEmpty = false;
  /** A message sent while the agent worked: it goes when the turn ends (back to the input if it is stopped). */
  private queued: string | null = null;
  /** Ctrl+R's search through the input history, while it is open. */
  private search: HistorySearch | null = null;

  private readonly bellOnComplete: boolean;
  private readonly typeAheadGuardMs: number;
  private readonly multiline: MultilineMode;

  constructor(
    private readonly app: TuiApp,
    opts: InputControllerOptions,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.bellOnComplete = opts.bellOnComplete;
    this.typeAheadGuardMs = opts.typeAheadGuardMs ?? TYPE_AHEAD_GUARD_MS;
    this.multiline = opts.multiline;
  }

  /** The prompt's reading of a key under input.multiline (see the top of this file). */
  private promptAction(action: KeyAction): KeyAction | null {
    if (this.multiline === "always") {
      if (action.type === "submit") return { type: "newline" };
      if (action.type === "newline") return { type: "submit" };
    } else if (this.multiline === "never") {
      if (action.type === "newline") {
        this.hint("One-line input (input.multiline is \"never\"): Enter sends.");
        return null;
      }
      if (action.type === "insert" && /[\r\n]/.test(action.text)) return { type: "insert", text: action.text.replace(/\r?\n|\r/g, " ") };
    }
    return action;
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
    const typedAhead = modal !== null && this.typedAhead(modal, action);
    this.lastKeyAt = this.now();
    if (modal && !typedAhead) {
      if (this.app.input.hint === this.typedAheadHint) this.hint(null);
      if (action.type === "escape") this.lastDialogEscape = this.now();
      modal.handleKey(action, text);
      return this.app.requestRender();
    }
    if (modal && !TYPED_AHEAD_EDITS.has(action.type)) return;
    const prompt = this.promptAction(action);
    if (prompt) this.onPromptKey(prompt);
    if (modal) {
      this.hint("A question is waiting above: what you type goes to your message until you pause, then answer it.", "warn");
      this.typedAheadHint = this.app.input.hint;
    }
    this.app.requestRender();
  }

  /**
   * Whether a key that reaches a dialog the agent opened mid-turn was typed for the prompt: the user kept
   * writing while the answer streamed, and a `y`, `a` or `n` of the sentence must never apply an edit or
   * whitelist a command. Keys count as typed ahead for TYPE_AHEAD_GUARD_MS after the dialog appears, and
   * after that for as long as they come less than twice that apart; the first key after such a pause
   * answers the dialog, and so do all that follow. Typed-ahead text still goes to the message being
   * written; other keys are dropped. Esc always reaches the dialog (it only declines).
   */
  private typedAhead(modal: Modal, action: KeyAction): boolean {
    if (action.type === "escape" || this.typeAheadGuardMs === 0 || this.answerable.has(modal)) return false;
    const opened = this.app.modalOpening(modal);
    if (opened === null || !opened.duringTurn) return false;
    const t = this.now();
    if (t - opened.at < this.typeAheadGuardMs || t - this.lastKeyAt < this.typeAheadGuardMs * 2) return true;
    this.answerable.add(modal);
    return false;
  }

  private interrupt(): void {
    const t = this.now();
    const running = this.turn !== null || this.work.size > 0;
    if (this.search) {
      // As in a shell, Ctrl+C leaves the search with what was typed before it (and stops a turn as ever).
      this.endSearch(false);
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
    if (this.search && this.searchKey(this.search, action)) return;
    if (action.type !== "complete" && action.type !== "escape") this.hint(null);
    switch (action.type) {
      case "searchHistory":
        this.search = new HistorySearch(this.app.input.history, { text: this.editor.text, cursor: this.editor.cursor });
        return this.showSearch(this.search);
      case "insert":
        this.editor.insert(action.text);
        return;
      case "submit":
        return this.submit();
      case "up":
        if (this.queued !== null && !this.editor.text) {
          this.editor.set(this.queued);
          this.queued = null;
          this.hint("Taken back from the queue.");
          return;
        }
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

  /** A key while Ctrl+R searches (HistorySearch.key); returns whether the key was used up. */
  private searchKey(search: HistorySearch, action: KeyAction): boolean {
    const result = search.key(action);
    if (result === "searching") {
      this.showSearch(search);
      return true;
    }
    this.endSearch(result !== "cancel");
    return result !== "take-then-act";
  }

  private showSearch(search: HistorySearch): void {
    this.editor.set(search.state.match ?? search.draft.text);
    const hint = search.hint();
    this.hint(hint.text, hint.warn ? "warn" : "muted");
  }

  /** Leaves the search with the match in the prompt (`keep`) or with what was typed before it. */
  private endSearch(keep: boolean): void {
    const search = this.search;
    if (!search) return;
    this.search = null;
    this.hint(null);
    if (!keep) this.editor.set(search.draft.text, search.draft.cursor);
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

  /** After a turn Esc stopped before it produced anything: its message goes back to the input. */
  private async restoreCancelled(userText: string): Promise<void> {
    const backend = this.app.backend;
    const ids = new Set([this.turnEntries.userId, this.turnEntries.agent?.id].filter((x): x is number => x !== null && x !== undefined));
    // A command's turn (/eval) has no message of the user's to give back.
    if (!backend.restoreOnCancel || !backend.rewind || userText.startsWith("/")) {
      this.hint("Stopped.");
      return;
    }
    try {
      const text = await backend.rewind.restoreCancelledTurn();
      if (text === null) return this.hint("Stopped.");
      this.app.transcript.remove(ids);
      // The user may have typed meanwhile; their text is not overwritten.
      if (!this.editor.text) this.editor.set(text);
      this.hint(this.editor.text === text ? "Stopped; the message is back in the input." : "Stopped; the message was taken back.");
      this.app.refreshStatus();
    } catch (error) {
      this.app.notice("warn", `The message could not be taken back: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * A message refused before it was taken into the conversation (too large for any request): it leaves
   * the chat, the reason stays as a notice, and the text goes back to the input (unless the user typed
   * meanwhile: then ↑ has it), so nothing typed is lost.
   */
  private giveBackRefused(userText: string, error: IpuaroError): void {
    this.app.transcript.remove(new Set([this.turnEntries.userId, this.turnEntries.agent?.id].filter((x): x is number => x !== null && x !== undefined)));
    this.app.notice("error", `${error.message}${error.suggestion ? `\n${error.suggestion}` : ""}`);
    if (userText.startsWith("/")) return;
    if (!this.editor.text) this.editor.set(userText);
    this.hint(this.editor.text === userText ? "Not sent: the message is back in the input." : "Not sent: ↑ brings the message back.", "warn");
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
    const isCommand = text.startsWith("/") && !text.startsWith("//");
    if (this.busy && !isCommand) {
      // As in Claude Code and Codex: sent when the agent is done. One at a time.
      if (this.queued !== null || this.turn === null) {
        this.editor.set(text);
        return this.hint(this.turn === null ? "Wait until the work is done, or Ctrl+C to stop it." : "One message is already queued; ↑ on an empty input takes it back to edit.", "warn");
      }
      this.queued = text;
      this.hint("Queued: it is sent when the agent is done (↑ on an empty input takes it back; Esc or Ctrl+C stops the turn and returns it).");
      this.queuedHint = this.app.input.hint;
      return;
    }
    this.send(text);
  }

  private send(text: string): void {
    this.app.input.history.push(text);
    this.app.backend.addInput(text).catch((e: unknown) => this.app.notice("warn", `input history not saved: ${e instanceof Error ? e.message : String(e)}`));
    if (text.startsWith("/") && !text.startsWith("//")) return this.command(text);
    void this.play((signal) => this.app.backend.runTurn(text, signal), text);
  }

  /** After a turn: the queued message goes, or (the turn was stopped) comes back to the input. */
  private sendQueued(stopped: boolean, why = "The turn was stopped"): void {
    const next = this.queued;
    if (next === null) return;
    this.queued = null;
    // The "Queued: …" note is out of date once the message has gone (it stayed under the next answer).
    if (this.app.input.hint === this.queuedHint) this.hint(null);
    if (!stopped) return this.send(next);
    // The queued message was written first, so it comes first; what was typed since follows it.
    if (this.editor.text.trim()) this.editor.set(`${next}\n${this.editor.text}`);
    else this.editor.set(next);
    this.hint(`${why}: your queued message is back in the input.`, "warn");
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

  /** Plays a turn; one at a time. */
  async play(events: (signal: AbortSignal) => AsyncIterable<TurnEvent>, userText: string): Promise<void> {
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
      if (this.bellOnComplete && outcome.reason === "answer" && outcome.timeMs >= BELL_AFTER_MS) this.app.bell();
    } finally {
      this.turn = null;
      this.app.requestRender();
    }
    if (refused) {
      // Never stored: there is nothing for restoreCancelled to take back, even if Esc came meanwhile.
      this.cancelledEmpty = false;
      this.giveBackRefused(userText, refused);
    }
    if (this.cancelledEmpty) {
      await this.restoreCancelled(userText);
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
    this.sendQueued(ctrl.signal.aborted);
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
    }
  }
}
