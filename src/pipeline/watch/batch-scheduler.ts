// When batches run: `debounceMs` after the last event (a burst such as a branch switch becomes one
// batch), but never later than `maxWaitMs` after the first one of a steady stream. Batches never overlap:
// events arriving during a batch wait for the next one. A failed batch is retried with backoff.
import { EventCoalescer, type PendingChange, type RawChange } from "./event-coalescer.js";

export interface BatchRunOutcome {
  /** The batch's changes were taken, but something still needs another run after a backoff (writes pending). */
  retryAfter?: { error: unknown };
}

export interface SchedulerOptions {
  debounceMs: number;
  /** Longest wait from the first event of a window to its batch. Default max(4 × debounce, 2 s). */
  maxWaitMs?: number;
  /** Runs one batch. Throwing puts its changes back for a retry. */
  run(changes: Map<string, PendingChange>): Promise<BatchRunOutcome>;
  /** A failed run; the next attempt is in `retryInMs`. */
  onRetry(error: unknown, retryInMs: number): void;
  /** A batch of `paths` paths starts (the UI says the index is updating). */
  onStart?(paths: number): void;
}

const RETRY_STEPS_MS = [500, 1000, 2000, 5000, 10_000];
const MIN_MAX_WAIT_MS = 2000;

export class BatchScheduler {
  private readonly coalescer = new EventCoalescer();
  private timer: NodeJS.Timeout | null = null;
  private firstEventAt: number | null = null;
  private running: Promise<void> | null = null;
  /** Paths of the batch that runs now. */
  private runningPaths: ReadonlySet<string> = new Set();
  private paused = true;
  private stopped = false;
  private failures = 0;
  private retryWanted = false;
  private idleWaiters: (() => void)[] = [];

  private readonly maxWaitMs: number;

  constructor(private readonly opts: SchedulerOptions) {
    // Long enough for a branch switch to finish writing, whatever the debounce.
    this.maxWaitMs = opts.maxWaitMs ?? Math.max(opts.debounceMs * 4, MIN_MAX_WAIT_MS);
  }

  get pendingPaths(): number {
    return this.coalescer.size;
  }

  /** Paths changed on disk that the index has not taken in yet: waiting, and in the batch that runs. */
  get backlog(): number {
    return this.coalescer.size + this.runningPaths.size;
  }

  /** `path` is in the batch that runs now. */
  isRunning(path: string): boolean {
    return this.runningPaths.has(path);
  }

  push(changes: RawChange[]): void {
    if (this.stopped || !changes.length) return;
    this.coalescer.add(changes);
    this.firstEventAt ??= performance.now();
    this.arm();
  }

  /** Runs a batch soon (after `delayMs`) even without new events. */
  poke(delayMs = 0): void {
    this.retryWanted = true;
    this.arm(delayMs);
  }

  /** Batches only start after resume(): the watcher collects events while the index state loads. */
  resume(): void {
    this.paused = false;
    this.arm();
  }

  private arm(delayMs?: number): void {
    if (this.paused || this.stopped || this.running) return;
    if (!this.coalescer.size && !this.retryWanted) return this.settle();
    const now = performance.now();
    let wait = delayMs ?? this.opts.debounceMs;
    if (this.failures) wait = Math.max(wait, RETRY_STEPS_MS[Math.min(this.failures, RETRY_STEPS_MS.length) - 1] as number);
    else if (this.firstEventAt !== null) wait = Math.min(wait, Math.max(0, this.firstEventAt + this.maxWaitMs - now));
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fire(), wait);
  }

  private fire(): void {
    this.timer = null;
    if (this.paused || this.stopped || this.running) return;
    const changes = this.coalescer.take();
    this.firstEventAt = null;
    this.retryWanted = false;
    this.runningPaths = new Set(changes.keys());
    if (changes.size) this.opts.onStart?.(changes.size);
    this.running = this.runOnce(changes).finally(() => {
      this.running = null;
      this.runningPaths = new Set();
      this.arm();
    });
  }

  private async runOnce(changes: Map<string, PendingChange>): Promise<void> {
    try {
      const outcome = await this.opts.run(changes);
      if (outcome.retryAfter) this.fail(outcome.retryAfter.error);
      else this.failures = 0;
    } catch (err) {
      this.coalescer.restore(changes);
      this.firstEventAt ??= performance.now();
      this.fail(err);
    }
  }

  private fail(err: unknown): void {
    this.failures++;
    this.retryWanted = true;
    const retryInMs = RETRY_STEPS_MS[Math.min(this.failures, RETRY_STEPS_MS.length) - 1] as number;
    this.opts.onRetry(err, retryInMs);
  }

  private settle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  /** Resolves when no batch runs and nothing is pending (tests and the bench wait on it). */
  idle(): Promise<void> {
    if (!this.running && !this.timer && !this.coalescer.size && !this.retryWanted) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops scheduling; waits for a running batch to finish. Pending events are dropped. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    this.settle();
  }
}
