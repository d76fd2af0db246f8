// Ctrl+R: finds an earlier prompt by what it contains, newest first, as a shell's reverse-i-search does.
// Each typed character narrows the search from the match shown; Ctrl+R again goes to the next older
// match. The prompt shows the match; Esc gives back what was typed before the search.
import type { InputHistory } from "./input-history.js";
import type { KeyAction } from "./keymap.js";

/**
 * What a key does while the search is open: `searching` (text narrows it, Ctrl+R goes older, Backspace
 * widens it), `take` (Enter or Tab: the match goes into the prompt, not sent, so it can be edited),
 * `cancel` (Esc: back to the draft), or `take-then-act` (any other key takes the match and then acts on
 * it, ← → Home End …, as in a shell).
 */
export type SearchKeyResult = "searching" | "take" | "cancel" | "take-then-act";

const KEYS_HINT = "Ctrl+R older · Enter takes it · Esc cancels";

export interface HistorySearchState {
  query: string;
  /** The match shown, or null (nothing matched yet: the prompt keeps the draft). */
  match: string | null;
  /** The last search found nothing: the previous match stays shown. */
  failed: boolean;
}

export class HistorySearch {
  private query = "";
  private at: { index: number; text: string } | null = null;
  private failed = false;

  constructor(
    private readonly history: InputHistory,
    /** The prompt's text and cursor when the search began (Esc restores them). */
    readonly draft: { text: string; cursor: number },
  ) {}

  get state(): HistorySearchState {
    return { query: this.query, match: this.at?.text ?? null, failed: this.failed };
  }

  key(action: KeyAction): SearchKeyResult {
    switch (action.type) {
      case "searchHistory":
        this.older();
        return "searching";
      case "insert":
        this.type(action.text);
        return "searching";
      case "backspace":
        this.erase();
        return "searching";
      case "escape":
        return "cancel";
      case "submit":
      case "complete":
        return "take";
      default:
        return "take-then-act";
    }
  }

  /** The line under the prompt while searching; `warn` when the last search found nothing. */
  hint(): { text: string; warn: boolean } {
    const { query, match, failed } = this.state;
    if (failed) return { text: `search history: nothing${match === null ? "" : " older"} contains "${query}" · ${KEYS_HINT}`, warn: true };
    return { text: `search history${query ? `: "${query}"` : " (type to search)"} · ${KEYS_HINT}`, warn: false };
  }

  /** More of the query: the shown match is kept while it still contains it. */
  type(text: string): void {
    this.query += text;
    this.seek(this.at?.index);
  }

  /** One character less: the search starts again from the newest entry. */
  erase(): void {
    const chars = Array.from(this.query);
    chars.pop();
    this.query = chars.join("");
    this.seek(undefined);
  }

  /** The next older match (Ctrl+R again). */
  older(): void {
    if (!this.at) return this.seek(undefined);
    const found = this.history.find(this.query, this.at.index - 1, this.at.text);
    this.failed = found === null;
    if (found) this.at = found;
  }

  private seek(from: number | undefined): void {
    const found = this.history.find(this.query, from);
    this.failed = found === null;
    if (found) this.at = found;
  }
}
