// Folds a stream of file-system events into one change per path. The batch that follows re-reads every
// path anyway (the disk is the truth), so this mostly decides what can be dropped: a file created and
// deleted within one debounce window never reaches the index.

export type ChangeKind = "create" | "update" | "delete";

export interface RawChange {
  /** Relative to the project root, `/`-separated. */
  path: string;
  type: ChangeKind;
}

export interface PendingChange {
  kind: ChangeKind;
  /** performance.now() of the first event for this path in the window: the start of its latency. */
  since: number;
}

/**
 * The kind that remains of `prev` followed by `next` (null was once "cancel out"; nothing does now). A
 * create then a delete stays a delete: @parcel/watcher reports a file replaced by a rename as created,
 * so the path may well be indexed, and a delete of a path the index lacks costs nothing.
 */
export function mergeChange(prev: ChangeKind | undefined, next: ChangeKind): ChangeKind | null {
  if (!prev) return next;
  if (prev === "create") return next === "delete" ? "delete" : "create";
  if (prev === "delete") return next === "delete" ? "delete" : "update";
  return next === "delete" ? "delete" : "update";
}

export class EventCoalescer {
  private pending = new Map<string, PendingChange>();

  get size(): number {
    return this.pending.size;
  }

  add(changes: Iterable<RawChange>, now = performance.now()): void {
    for (const c of changes) {
      const prev = this.pending.get(c.path);
      const kind = mergeChange(prev?.kind, c.type);
      if (kind === null) this.pending.delete(c.path);
      else this.pending.set(c.path, { kind, since: prev?.since ?? now });
    }
  }

  /** Hands over everything pending and starts a new window. */
  take(): Map<string, PendingChange> {
    const out = this.pending;
    this.pending = new Map();
    return out;
  }

  /** Puts back changes of a batch that could not run; events that arrived since then win. */
  restore(changes: Map<string, PendingChange>): void {
    const newer = this.pending;
    this.pending = new Map(changes);
    for (const [p, c] of newer) {
      const prev = this.pending.get(p);
      const kind = mergeChange(prev?.kind, c.kind);
      if (kind === null) this.pending.delete(p);
      else this.pending.set(p, { kind, since: prev?.since ?? c.since });
    }
  }
}
