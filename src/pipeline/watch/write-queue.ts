// Redis writes of the live index, applied strictly in order. When one fails (Redis down) it and every
// later write stay queued, unchanged, until flush() succeeds: the in-memory graph has already moved on,
// so replaying the same writes later brings Redis to the same state as if nothing had happened.

export interface WriteOp {
  /** For error messages: what this write was doing. */
  label: string;
  run(): Promise<void>;
}

export class WriteQueue {
  private readonly ops: WriteOp[] = [];
  private draining: Promise<void> | null = null;
  private failure: unknown = null;

  /** Writes queued and not yet confirmed. */
  get pending(): number {
    return this.ops.length;
  }

  get failed(): boolean {
    return this.failure !== null;
  }

  /** Queues a write; it starts at once unless an earlier one failed (then it waits for flush()). */
  push(op: WriteOp): void {
    this.ops.push(op);
    if (this.failure === null) this.start();
  }

  private start(): void {
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
    });
  }

  private async drain(): Promise<void> {
    while (this.ops.length) {
      try {
        await (this.ops[0] as WriteOp).run();
        this.ops.shift();
      } catch (err) {
        this.failure = err;
        return;
      }
    }
  }

  /** Resolves once every queued write landed; after a failure, retries from the failed write. */
  async flush(): Promise<void> {
    if (this.failure !== null && this.ops.length) {
      this.failure = null;
      this.start();
    }
    while (this.draining) await this.draining;
    if (this.failure !== null) throw this.failure;
  }
}
