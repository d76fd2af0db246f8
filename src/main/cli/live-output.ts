// `ipuaro run` on a terminal: the output of a command the agent runs, a line at a time on stderr under the
// call's `[title]` line, so a build or a test run of minutes shows what it is doing. Lines are cleaned of
// colours and cursor moves (a progress bar redrawn with \r shows its last state).
import { cleanTerminalOutput } from "../exec/output-text.js";

/** A line longer than this is shown cut: a progress bar with no line break in sight must not pile up. */
const MAX_PENDING_CHARS = 64 * 1024;

export class LiveOutputLines {
  private pending = "";

  constructor(private readonly write: (line: string) => void) {}

  push(chunk: string): void {
    const text = this.pending + chunk;
    let start = 0;
    for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
      this.emit(text.slice(start, nl));
      start = nl + 1;
    }
    this.pending = text.length - start > MAX_PENDING_CHARS ? text.slice(-MAX_PENDING_CHARS) : text.slice(start);
  }

  /** The command ended: its last line, if it had no line break. */
  flush(): void {
    if (this.pending) this.emit(this.pending);
    this.pending = "";
  }

  private emit(line: string): void {
    const text = cleanTerminalOutput(line).trimEnd();
    if (text) this.write(`  │ ${text}`);
  }
}
