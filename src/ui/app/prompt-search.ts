// Ctrl+R at the prompt: the history search (input/history-search.ts) shows its match in the prompt and
// its state in the hint line, and gives the prompt back as it was when it is cancelled.
import { HistorySearch } from "../input/history-search.js";
import type { InputLine } from "../input/input-line.js";
import type { KeyAction } from "../input/keymap.js";

export class PromptSearch {
  /** Ctrl+R's search through the input history, while it is open. */
  private search: HistorySearch | null = null;

  constructor(
    private readonly input: InputLine,
    private readonly hint: (text: string | null, role?: "muted" | "warn") => void,
  ) {}

  get open(): boolean {
    return this.search !== null;
  }

  start(): void {
    this.search = new HistorySearch(this.input.history, { text: this.input.editor.text, cursor: this.input.editor.cursor });
    this.show(this.search);
  }

  /** A key while Ctrl+R searches (HistorySearch.key); returns whether the key was used up (never when closed). */
  key(action: KeyAction): boolean {
    const search = this.search;
    if (!search) return false;
    const result = search.key(action);
    if (result === "searching") {
      this.show(search);
      return true;
    }
    this.end(result !== "cancel");
    return result !== "take-then-act";
  }

  private show(search: HistorySearch): void {
    this.input.editor.set(search.state.match ?? search.draft.text);
    const hint = search.hint();
    this.hint(hint.text, hint.warn ? "warn" : "muted");
  }

  /** Leaves the search with the match in the prompt (`keep`) or with what was typed before it. */
  end(keep: boolean): void {
    const search = this.search;
    if (!search) return;
    this.search = null;
    this.hint(null);
    if (!keep) this.input.editor.set(search.draft.text, search.draft.cursor);
  }
}
