// ↑/↓ through earlier prompts (kept in the session). The text being typed is remembered as a draft and
// comes back when the user walks past the newest entry; an entry edited while browsing keeps its edit
// until a message is sent (as readline does), so walking on and back loses nothing typed.
export class InputHistory {
  private entries: string[];
  /** entries.length = not browsing (the draft's place). */
  private index: number;
  /** What was typed over an entry (or, at entries.length, the draft), by index. */
  private edits = new Map<number, string>();

  constructor(entries: readonly string[] = []) {
    this.entries = [...entries];
    this.index = this.entries.length;
  }

  /** Replaces the list (another session was loaded). */
  reset(entries: readonly string[]): void {
    this.entries = [...entries];
    this.index = this.entries.length;
    this.edits.clear();
  }

  push(text: string): void {
    if (text.trim() && this.entries[this.entries.length - 1] !== text) this.entries.push(text);
    this.index = this.entries.length;
    this.edits.clear();
  }

  /** The older entry, or null at the oldest. `current` (the text shown now) is kept for its place. */
  previous(current: string): string | null {
    if (this.index === 0 || this.entries.length === 0) return null;
    this.keep(current);
    this.index--;
    return this.shown();
  }

  /** The newer entry, the draft past the newest, or null when not browsing. */
  next(current?: string): string | null {
    if (this.index >= this.entries.length) return null;
    if (current !== undefined) this.keep(current);
    this.index++;
    return this.shown();
  }

  /**
   * The newest entry at or before `from` that contains `query` (case does not matter), skipping entries
   * equal to `skip` (a prompt typed in several sessions is found once); null when none does.
   */
  find(query: string, from = this.entries.length - 1, skip?: string): { index: number; text: string } | null {
    const q = query.toLocaleLowerCase();
    for (let i = Math.min(from, this.entries.length - 1); i >= 0; i--) {
      const text = this.entries[i] as string;
      if (text !== skip && text.toLocaleLowerCase().includes(q)) return { index: i, text };
    }
    return null;
  }

  get size(): number {
    return this.entries.length;
  }

  private keep(current: string): void {
    if (this.index === this.entries.length || current !== this.entries[this.index]) this.edits.set(this.index, current);
    else this.edits.delete(this.index);
  }

  private shown(): string {
    return this.edits.get(this.index) ?? this.entries[this.index] ?? "";
  }
}
