// A dialog the agent opens mid-turn while the user is still writing: the keys meant for the prompt must
// not answer it. The controller asks here whether each key that reaches a dialog was typed ahead.
import type { KeyAction } from "../input/keymap.js";
import type { Modal } from "../dialogs/dialog-box.js";

/**
 * How long a dialog the agent opens ignores keys (they were typed before it appeared); after that it
 * waits for a pause in typing of twice as long (see TypeAheadGuard.typedAhead).
 */
export const TYPE_AHEAD_GUARD_MS = 500;

/** Keys typed ahead into a dialog that still edit the message being written (see typedAhead). */
export const TYPED_AHEAD_EDITS = new Set<KeyAction["type"]>(["insert", "newline", "backspace", "delete", "left", "right", "home", "end", "wordLeft", "wordRight", "deleteWordBefore", "killLineEnd", "killLineStart"]);

export class TypeAheadGuard {
  /** When the last key came (any key, to the prompt or a dialog). */
  private lastKeyAt = -Infinity;
  /** Dialogs opened mid-turn that the user has paused at: their keys are answers now. */
  private readonly answerable = new WeakSet<Modal>();

  /** `opening`: when a dialog appeared, and whether the agent opened it mid-turn (TuiApp.modalOpening). */
  constructor(
    private readonly guardMs: number,
    private readonly opening: (modal: Modal) => { at: number; duringTurn: boolean } | null,
    private readonly now: () => number,
  ) {}

  /** A key came, `modal` being the dialog on top (if any): whether it was typed ahead of that dialog. */
  key(modal: Modal | null, action: KeyAction): boolean {
    const typedAhead = modal !== null && this.typedAhead(modal, action);
    this.lastKeyAt = this.now();
    return typedAhead;
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
    if (action.type === "escape" || this.guardMs === 0 || this.answerable.has(modal)) return false;
    const opened = this.opening(modal);
    if (opened === null || !opened.duringTurn) return false;
    const t = this.now();
    if (t - opened.at < this.guardMs || t - this.lastKeyAt < this.guardMs * 2) return true;
    this.answerable.add(modal);
    return false;
  }
}
