// Coalesces redraw requests: a streamed answer asks for a frame per token, the terminal gets at most
// ~30 (STYLE 15, ink's maxFps). The first request after a quiet period is drawn at once, so typing stays
// immediate; requests inside the frame interval are merged into one trailing frame.
export const MAX_FPS = 30;

export class RenderScheduler {
  private timer: NodeJS.Timeout | null = null;
  private lastFrame = 0;
  private disposed = false;
  private readonly interval: number;

  constructor(
    private readonly draw: () => void,
    fps = MAX_FPS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.interval = 1000 / fps;
  }

  request(): void {
    if (this.disposed || this.timer) return;
    const wait = this.lastFrame + this.interval - this.now();
    if (wait <= 0) {
      // Still deferred to the end of the current tick, so a burst of synchronous changes is one frame.
      this.timer = setTimeout(() => this.frame(), 0);
      return;
    }
    this.timer = setTimeout(() => this.frame(), wait);
  }

  /** Draws now (before a dialog waits for a key, before suspending for $EDITOR). */
  flush(): void {
    if (this.disposed) return;
    if (this.timer) clearTimeout(this.timer);
    this.frame();
  }

  private frame(): void {
    this.timer = null;
    this.lastFrame = this.now();
    this.draw();
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
