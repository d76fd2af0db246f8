// The full-screen app: status bar, chat, progress row and prompt laid out on the screen, dialogs on a
// modal stack, every key routed from one place, frames coalesced to ~30 fps. It talks to the core only
// through TuiBackend (commands, turns) and TuiUiPort (the core's questions).
import type { Widgets } from "blessed";
import type { TurnEvent } from "../../main/agent/orchestrator.js";
import { ChatView } from "../chat/chat-view.js";
import { replaySession } from "../chat/session-replay.js";
import { Transcript, type NoticeLevel, type ToolOutput } from "../chat/transcript.js";
import type { ModalHost } from "../dialogs/choice-dialog.js";
import type { ContentEditor } from "../dialogs/diff-dialog.js";
import type { Modal } from "../dialogs/dialog-box.js";
import { editExternally, editorCommand } from "../dialogs/external-editor.js";
import { editInline } from "../dialogs/inline-editor.js";
import { InputLine } from "../input/input-line.js";
import { KeyDecoder, type BlessedKey } from "../input/keymap.js";
import { BRACKETED_PASTE_OFF } from "../input/terminal-input.js";
import { RenderScheduler } from "../render-scheduler.js";
import { createTheme, noColorRequested, type ThemeName } from "../theme.js";
import { Painter } from "../widgets/paint.js";
import { ProgressPanel, type ProgressState } from "../widgets/progress-panel.js";
import { StatusBar, type StatusState } from "../widgets/status-bar.js";
import { InputController } from "./input-controller.js";
import { createScreen, type ScreenHandle, type TerminalStreams } from "./screen-setup.js";
import { noticeCodeWidth } from "../chat/chat-render.js";
import { SLASH_COMMANDS, runSlashCommand, type CommandHost } from "./slash-commands.js";
import type { IndexState, TuiBackend } from "./tui-backend.js";
import { TuiUiPort } from "./tui-ui-port.js";
import type { MultilineMode } from "./input-controller.js";

const STATUS_TICK_MS = 30_000;

/** Below this many rows between the status bar and the prompt, a dialog takes the status bar's row too. */
const DIALOG_MIN_ROWS = 7;

/** How often the status bar's git branch is read again. */
export const BRANCH_POLL_MS = 4000;

export interface TuiAppOptions {
  streams: TerminalStreams;
  env?: NodeJS.ProcessEnv;
  theme: ThemeName;
  project: string;
  display: { showStats: boolean; showToolCalls: boolean; bellOnComplete: boolean };
  edit: { syntaxHighlight: boolean; inlineHighlights: boolean; showDescription: boolean; showDiff?: boolean; wrapLongLines?: boolean };
  /** input.multiline: auto (Enter sends), always (Enter breaks the line), never (one line). */
  multiline?: MultilineMode;
  /** For [E] edit; default: $VISUAL/$EDITOR through screen.spawn, else the inline editor. */
  editContent?: ContentEditor;
  /** Where problems after the screen is gone are written (default stderr). */
  reportError?: (text: string) => void;
  /** See TypeAheadGuard (type-ahead-guard.ts) (default TYPE_AHEAD_GUARD_MS). */
  typeAheadGuardMs?: number;
  /** How often the git branch is read again (default BRANCH_POLL_MS; tests use less). */
  branchPollMs?: number;
}

export class TuiApp implements ModalHost, CommandHost {
  readonly screen: Widgets.Screen;
  readonly painter: Painter;
  readonly transcript = new Transcript();
  readonly uiPort: TuiUiPort;
  readonly chat: ChatView;
  readonly input: InputLine;
  readonly progress: ProgressPanel;
  readonly state: StatusState;
  private readonly handle: ScreenHandle;
  private readonly scheduler: RenderScheduler;
  private readonly keys = new KeyDecoder();
  private readonly controller: InputController;
  private readonly modalStack: Modal[] = [];
  /** When each open dialog appeared (performance.now()), and whether a turn was running then. */
  private readonly modalOpened = new WeakMap<Modal, { at: number; duringTurn: boolean }>();
  private backendRef: TuiBackend | null = null;
  private offIndexState: (() => void) | null = null;
  /** Re-reads the git branch for the status bar (a checkout in another terminal changes it). */
  private branchTimer: NodeJS.Timeout | null = null;
  private watchState: IndexState | null = null;
  private readonly tick: NodeJS.Timeout;
  private finished: ((code: number) => void) | null = null;
  /** Resolves with the exit code once the user has left and everything is closed. */
  readonly done: Promise<number>;
  private closing = false;

  constructor(private readonly opts: TuiAppOptions) {
    const env = opts.env ?? process.env;
    this.handle = createScreen(opts.streams, env);
    this.screen = this.handle.screen;
    this.painter = new Painter(createTheme(opts.theme, { noColor: noColorRequested(env) }));
    this.state = { project: opts.project, branch: null, startedAt: Date.now(), contextPercent: null, activity: "ready", index: null, autoApply: false };
    this.scheduler = new RenderScheduler(() => this.draw());
    new StatusBar(this.screen, this.painter, () => this.state); // draws itself on every frame
    this.chat = new ChatView(this.screen, this.painter, this.transcript, opts.display, () => this.requestRender());
    this.progress = new ProgressPanel(this.screen, this.painter);
    this.input = new InputLine(this.screen, this.painter);
    const editContent = opts.editContent ?? this.defaultEditor(env);
    this.uiPort = new TuiUiPort({
      host: this,
      transcript: this.transcript,
      editContent,
      diff: {
        syntax: opts.edit.syntaxHighlight,
        inline: opts.edit.inlineHighlights,
        showDescription: opts.edit.showDescription,
        showDiff: opts.edit.showDiff ?? true,
        wrap: opts.edit.wrapLongLines ?? true,
      },
      changed: () => this.requestRender(),
      // As restoreCancelled gives a message back (message-give-back.ts).
      givesMessageBack: () => this.hasBackend && !!this.backend.restoreOnCancel && !!this.backend.rewind,
    });
    this.controller = new InputController(this, { bellOnComplete: opts.display.bellOnComplete, multiline: opts.multiline ?? "auto", ...(opts.typeAheadGuardMs !== undefined ? { typeAheadGuardMs: opts.typeAheadGuardMs } : {}) });
    this.done = new Promise((resolve) => (this.finished = resolve));
    this.screen.program.on("keypress", (ch: string | undefined, key: BlessedKey | undefined) => this.onKey(ch, key));
    this.screen.on("resize", () => this.requestRender());
    this.tick = setInterval(() => this.requestRender(), STATUS_TICK_MS);
    this.tick.unref();
    this.transcript.notice("info", "ipuaro — ask about the code in your own words. **/help** lists commands and keys.");
    this.requestRender();
  }

  private defaultEditor(env: NodeJS.ProcessEnv): ContentEditor {
    return async (content, path) => {
      const command = editorCommand(env);
      if (!command) return editInline(this, content, path);
      this.scheduler.flush();
      return editExternally(this.screen, { command, content, path, afterResume: () => this.handle.enablePaste() });
    };
  }

  get backend(): TuiBackend {
    if (!this.backendRef) throw new Error("the project is still being prepared");
    return this.backendRef;
  }

  get hasBackend(): boolean {
    return this.backendRef !== null;
  }

  get modals(): ModalHost {
    return this;
  }

  /** Connects the core once the project is indexed and the session open. */
  attach(backend: TuiBackend): void {
    this.backendRef = backend;
    let saidError: string | null = null;
    this.offIndexState = backend.onIndexState((s) => {
      // An error is said once in full (the project folder deleted, the watcher gone); its end too.
      if (s.level === "error" && s.detail && s.detail !== saidError) this.notice("warn", (saidError = s.detail));
      else if (s.level !== "error" && saidError !== null) {
        saidError = null;
        this.notice("info", `The watcher is back: ${s.text ?? "watching"}.`);
      }
      this.watchState = s;
      this.showIndexState();
    });
    const readBranch = () =>
      void backend.branch().then((b) => {
        if (b === this.state.branch || this.closing) return;
        this.state.branch = b;
        this.requestRender();
      });
    readBranch();
    this.branchTimer = setInterval(readBranch, this.opts.branchPollMs ?? BRANCH_POLL_MS);
    this.branchTimer.unref();
    // The continued session's conversation goes first; the start-up notices stay below it.
    const notices = this.transcript.takeAll();
    this.sessionChanged();
    this.transcript.append(notices);
  }

  /** Shows the backend's current session: its conversation (into a cleared chat), history, context. */
  sessionChanged(): void {
    const b = this.backend;
    replaySession(this.transcript, b.session().messages(), (n, a) => b.toolTitle(n, a));
    this.input.history.reset(b.session().inputHistory());
    this.refreshStatus();
    this.chat.follow();
  }

  refreshStatus(): void {
    const b = this.backend;
    this.state.autoApply = b.autoApply();
    this.state.contextPercent = b.session().contextPercent();
    this.requestRender();
  }

  setDraft(text: string): void {
    this.input.editor.set(text);
    this.input.setHint(null);
    this.requestRender();
  }

  noticeTextWidth(): number {
    // What the chat really draws a notice's code block in: it keeps a column free on the right, which
    // the screen's width less the label and gutter did not, so /analyze tables came out a column too wide.
    return Math.max(20, noticeCodeWidth(this.chat.rowWidth()));
  }

  lastToolOutput(): ToolOutput | null {
    return this.transcript.lastToolOutput();
  }

  clearChat(): void {
    this.transcript.clear();
    this.requestRender();
  }

  notice(level: NoticeLevel, text: string): void {
    const id = this.transcript.notice(level, text);
    // While an answer streams, the chat keeps following it; otherwise a long notice shows from its top.
    if (this.controller.busy) this.chat.follow();
    else this.chat.reveal(id);
    this.requestRender();
  }

  showProgress(state: ProgressState | null): void {
    this.progress.state = state;
    this.showIndexState();
  }

  /** The status bar's index part: progress while indexing, else the watcher's state. */
  private showIndexState(): void {
    const p = this.progress.state;
    if (p) {
      this.state.index = p.total > 0 ? `indexing ${Math.floor((p.done / p.total) * 100)}%` : (p.status ?? "indexing…");
      delete this.state.indexRole;
    } else {
      this.state.index = this.watchState?.text ?? null;
      if (this.watchState?.level === "error") this.state.indexRole = "error";
      else delete this.state.indexRole;
    }
    this.requestRender();
  }

  // --- ModalHost ---

  open(modal: Modal): void {
    this.modalStack.push(modal);
    this.modalOpened.set(modal, { at: performance.now(), duringTurn: this.state.activity === "thinking" });
    this.requestRender();
  }

  /** When a dialog appeared, and whether the agent opened it mid-turn (see TypeAheadGuard). */
  modalOpening(modal: Modal): { at: number; duringTurn: boolean } | null {
    return this.modalOpened.get(modal) ?? null;
  }

  close(modal: Modal): void {
    const i = this.modalStack.indexOf(modal);
    if (i !== -1) this.modalStack.splice(i, 1);
    modal.destroy();
    this.requestRender();
  }

  /** Gives every open dialog its Esc answer (Ctrl+C during a question). */
  dismissModals(): void {
    for (const m of [...this.modalStack].reverse()) m.handleKey({ type: "escape" }, undefined);
  }

  get topModal(): Modal | null {
    return this.modalStack[this.modalStack.length - 1] ?? null;
  }

  requestRender(): void {
    this.scheduler.request();
  }

  /** Draws now (tests; before handing the terminal to another program). */
  flush(): void {
    this.scheduler.flush();
  }

  // --- CommandHost ---

  playEvents(events: (signal: AbortSignal) => AsyncIterable<TurnEvent>, userText: string): Promise<void> {
    return this.controller.play(events, userText, true);
  }

  cancellable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return this.controller.cancellable(work);
  }

  runCommand(line: string): Promise<void> {
    return runSlashCommand(this, line, this.controller.busy);
  }

  commandNames(): string[] {
    return SLASH_COMMANDS.map((c) => c.name);
  }

  bell(): void {
    this.screen.program.bell();
  }

  private onKey(ch: string | undefined, key: BlessedKey | undefined): void {
    if (this.closing) return;
    const pasting = this.handle.input.pasting;
    const action = this.keys.decode(ch, key, pasting);
    this.controller.handle(action, action?.type === "insert" ? action.text : ch);
    // Two Esc presses read together (a quick double press, a laggy link) come as one "Alt+Esc" key:
    // the second one counts too, or Esc Esc would not open the rewind list.
    if (action?.type === "escape" && key?.sequence === "\x1b\x1b" && !this.closing) this.controller.handle(action, ch);
  }

  private layout(): void {
    const width = this.screen.width as number;
    const height = this.screen.height as number;
    const inputHeight = Math.min(Math.max(2, height - 3), this.input.desiredHeight(width));
    const progressHeight = this.progress.visible ? 1 : 0;
    this.input.box.height = inputHeight;
    this.progress.box.bottom = inputHeight;
    if (progressHeight) this.progress.box.show();
    else this.progress.box.hide();
    this.chat.box.top = 1;
    this.chat.box.height = Math.max(1, height - 1 - inputHeight - progressHeight);
    // Dialogs keep off the prompt (what is typed ahead shows there) and, when there are rows enough,
    // off the status bar.
    const above = Math.max(1, height - inputHeight);
    const area = above - 1 >= DIALOG_MIN_ROWS ? { top: 1, height: above - 1 } : { top: 0, height: above };
    for (const m of this.modalStack) m.layout(area);
  }

  private draw(): void {
    if (this.closing) return;
    if (this.backendRef) this.state.autoApply = this.backendRef.autoApply();
    this.layout();
    this.screen.render();
    const modal = this.topModal;
    if (modal) {
      const at = modal.cursor();
      if (at) {
        this.screen.program.cup(at.y, at.x);
        this.screen.program.showCursor();
      } else this.input.hideCursor();
    } else this.input.showCursor();
  }

  /** Leaves: closes the backend (the session is saved), restores the terminal, resolves `done`. */
  async exit(code = 0): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.controller.abortAll();
    this.scheduler.dispose();
    clearInterval(this.tick);
    if (this.branchTimer) clearInterval(this.branchTimer);
    this.offIndexState?.();
    let failure: unknown = null;
    try {
      await this.backendRef?.close();
    } catch (error) {
      failure = error;
    }
    this.destroy();
    // Reported on the normal screen, after the terminal is back.
    if (failure) (this.opts.reportError ?? ((t: string) => process.stderr.write(t)))(`ipuaro: while closing: ${failure instanceof Error ? failure.message : String(failure)}\n`);
    this.finished?.(failure ? 1 : code);
  }

  /** Restores the terminal (idempotent; the terminal guard calls it on crashes and signals too). */
  destroy(): void {
    this.closing = true;
    this.scheduler.dispose();
    clearInterval(this.tick);
    if (this.branchTimer) clearInterval(this.branchTimer);
    if (!(this.screen as unknown as { destroyed?: boolean }).destroyed) {
      this.opts.streams.output.write(BRACKETED_PASTE_OFF);
      this.screen.destroy();
    }
    this.handle.input.detach();
  }
}
