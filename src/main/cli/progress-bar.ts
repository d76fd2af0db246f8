// `[=====>    ] 45% (120/267 files)` on a TTY, redrawn in place at most ~15 times a second.
const WIDTH = 30;
const MIN_REDRAW_MS = 66;

export function formatProgressBar(done: number, total: number, label = "files"): string {
  const ratio = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.floor(ratio * WIDTH);
  const bar = filled >= WIDTH ? "=".repeat(WIDTH) : `${"=".repeat(filled)}>${" ".repeat(WIDTH - filled - 1)}`;
  return `[${bar}] ${Math.floor(ratio * 100)}% (${done}/${total} ${label})`;
}

export class TtyProgress {
  private last = 0;
  private shown = false;
  constructor(private readonly stream: NodeJS.WriteStream) {}

  update(prefix: string, done: number, total: number, label?: string): void {
    const now = Date.now();
    if (done < total && now - this.last < MIN_REDRAW_MS) return;
    this.last = now;
    this.stream.write(`\r\x1b[2K${prefix} ${formatProgressBar(done, total, label)}`);
    this.shown = true;
  }

  text(line: string): void {
    this.stream.write(`\r\x1b[2K${line}`);
    this.shown = true;
  }

  end(): void {
    if (this.shown) this.stream.write("\r\x1b[2K");
    this.shown = false;
  }
}
