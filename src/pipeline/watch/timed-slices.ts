// Work on a long list in slices with the event loop turned between, each slice sized by how long the
// last one took: a slice's cost per item can vary tenfold (a file many others import brings them all
// along), so a fixed count either stalls the UI or turns the loop far more often than needed.

export interface TimedSliceOptions {
  /** Items at most in any slice. */
  maxSize: number;
  minSize: number;
  /**
   * Items in the first slice, whose cost per item is not known yet (default maxSize): a small probe when
   * a slice of maxSize costly items would itself be a stall.
   */
  firstSize?: number;
  /** What one slice should take. */
  targetMs: number;
  /** For tests: the clock, and the turn of the event loop between slices. */
  now?: () => number;
  turn?: () => Promise<void>;
}

const turnOfTheLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Calls `apply` on consecutive slices of `items`, in order, each item once; `last` is true for the final
 * slice. An empty list is applied once, as an empty last slice (what it carries beside the items then).
 */
export async function applyInTimedSlices<T>(items: readonly T[], apply: (slice: T[], last: boolean) => void, opts: TimedSliceOptions): Promise<void> {
  const now = opts.now ?? (() => performance.now());
  const turn = opts.turn ?? turnOfTheLoop;
  let size = opts.firstSize ?? opts.maxSize;
  let at = 0;
  do {
    if (at > 0) await turn();
    const slice = items.slice(at, at + size);
    at += slice.length;
    const started = now();
    apply(slice, at >= items.length);
    const took = Math.max(now() - started, 1);
    size = Math.max(opts.minSize, Math.min(opts.maxSize, Math.round((size * opts.targetMs) / took)));
  } while (at < items.length);
}
