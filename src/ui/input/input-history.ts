// ↑/↓ through earlier prompts (kept in the session). The text being typed is remembered as a draft and
// comes back when the user walks past the newest entry.
export class InputHistory {
  private entries: string[];
  /** entries.length = not browsing. */
  private index: number;
  private draft = "";

  constructor(entries: readonly string[] = []) {
    this.entries = [...entries];
    this.index = this.entries.length;
  }

  /** Replaces the list (another session was loaded). */
  reset(entries: readonly string[]): void {
    this.entries = [...entries];
    this.index = this.entries.length;
    this.draft = "";
  }

  push(text: string): void {
    if (text.trim() && this.entries[this.entries.length - 1] !== text) this.entries.push(text);
    this.index = this.entries.length;
    this.draft = "";
  }

  /** The older entry, or null at the oldest. `current` is saved as the draft when browsing starts. */
  previous(current: string): string | null {
    if (this.index === 0 || this.entries.length === 0) return null;
    if (this.index === this.entries.length) this.draft = current;
    this.index--;
    return this.entries[this.index]!;
  }

  /** The newer entry, the draft past the newest, or null when not browsing. */
  next(): string | null {
    if (this.index >= this.entries.length) return null;
    this.index++;
    return this.index === this.entries.length ? this.draft : this.entries[this.index]!;
  }

  get size(): number {
    return this.entries.length;
  }
}
