// The message sent while the agent works (as in Claude Code and Codex): one at a time, sent when the turn
// ends, back in the input when it is stopped, taken back by ↑ on an empty input. Its hints over the prompt
// go once they are out of date: "Queued: …" and "One message is already queued" stayed on screen under
// the next answer until a key was pressed, after the queue had emptied.
import type { InputLine } from "../input/input-line.js";

type Hint = (text: string | null, role?: "muted" | "warn") => void;

export class MessageQueue {
  private queued: string | null = null;
  /** The hint about the queue on screen, when it was the last one shown. */
  private shown: unknown = null;

  constructor(
    private readonly input: InputLine,
    private readonly hint: Hint,
  ) {}

  /**
   * Enter while the agent works (`turnRunning`: a turn, not /compact or /reindex): the message is queued,
   * or stays in the input with why not.
   */
  offer(text: string, turnRunning: boolean): void {
    if (this.queued !== null || !turnRunning) {
      this.input.editor.set(text);
      this.hint(turnRunning ? "One message is already queued; ↑ on an empty input takes it back to edit." : "Wait until the work is done, or Ctrl+C to stop it.", "warn");
    } else {
      this.queued = text;
      this.hint("Queued: it is sent when the agent is done (↑ on an empty input takes it back; Esc or Ctrl+C stops the turn and returns it).");
    }
    this.shown = this.input.hint;
  }

  /** ↑ on an empty input: the queued message comes back to edit. Whether there was one. */
  takeBack(): boolean {
    if (this.queued === null || this.input.editor.text) return false;
    this.input.editor.set(this.queued);
    this.queued = null;
    this.hint("Taken back from the queue.");
    return true;
  }

  /**
   * After a turn: the queued message, to send; or (the turn was `stopped`) it comes back to the input, before
   * what was typed since, and null. `why` says what stopped it.
   */
  next(stopped: boolean, why: string): string | null {
    const next = this.queued;
    if (next === null) return null;
    this.queued = null;
    this.outOfDate();
    if (!stopped) return next;
    const editor = this.input.editor;
    // The queued message was written first, so it comes first; what was typed since follows it.
    editor.set(editor.text.trim() ? `${next}\n${editor.text}` : next);
    this.hint(`${why}: your queued message is back in the input.`, "warn");
    return null;
  }

  /** The queue's hint is no longer true (the message went, the work it waited for is done): it goes. */
  outOfDate(): void {
    if (this.shown !== null && this.input.hint === this.shown) this.hint(null);
    this.shown = null;
  }
}
