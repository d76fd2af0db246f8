// The paths the live index updated itself, and when their writes landed: another index run that began
// after that may have written older content over them, so they are re-checked after it (LiveIndex.reload).

/** Updated files are remembered this long: longer than an index run takes. */
const HANDLED_MEMORY_MS = 60 * 60 * 1000;

export class LandedUpdates {
  /** Paths this live index updated → Date.now() when their writes had landed. */
  private readonly handled = new Map<string, number>();

  remember(paths: Iterable<string>): void {
    const now = Date.now();
    for (const p of paths) {
      this.handled.delete(p); // re-inserted: the map stays in time order
      this.handled.set(p, now);
    }
    for (const [p, at] of this.handled) {
      if (now - at < HANDLED_MEMORY_MS) break;
      this.handled.delete(p);
    }
  }

  /** The paths whose writes landed at `since` (a Date.now() time) or later. */
  *since(since: number): Generator<string> {
    for (const [p, at] of this.handled) {
      if (at < since) continue;
      yield p;
    }
  }
}
