// Ctrl+R: finds an earlier prompt by what it contains, newest first, as a shell's reverse-i-search does.
// Each typed character narrows the search from the match shown; Ctrl+R again goes to the next older
// match. The prompt shows the match; Esc gives back what was typed before the search.
import type { InputHistory } from "./input-history.js";

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
