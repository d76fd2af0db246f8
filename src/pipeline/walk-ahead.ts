// Parsing while the walk is still going: tasks start on the files found so far, so cores the walk does
// not use are not left idle through it (~0.15 s of a 12K-file monorepo; on two cores that the parser
// threads keep busy anyway it measured neutral, with more cores it is time saved).
//
// What the walk has not finished cannot be known yet: the full file list (imports resolve against it)
// and every package.json / tsconfig.json (workers type `@acme/core` or a `paths` alias as internal). So
// early tasks run with the layout predicted from the root package.json's workspaces, and their results
// are held, not stored, until the walk ends (a caller may still decline the run then, e.g. when the
// user is asked about a very large folder). If the walk's layout types an import of an early file
// differently, that task runs again. So early tasks only keep the pool busy, no more of them at once
// than it runs: queued in bulk, a whole small project went through with the predicted layout and
// most of it was parsed twice (a copy of node_modules, whose package.json files the walk finds: 1.9×
// the parse-only time instead of 1.3×).
import { isInternalSpecifier, type IndexTaskResult, type InternalSpecifiers } from "../workers/protocol.js";
import { sameSpecifiers } from "./graph/project-layout.js";
import { factsOf } from "./record-facts.js";
import type { RunningScan } from "./scanner.js";

/** Files parsed ahead at most while the walk runs: bounds what is held in memory until it ends. */
const WALK_AHEAD_FILES = 4096;

export type RunTask = (group: string[], internal: InternalSpecifiers, signal?: AbortSignal) => Promise<IndexTaskResult>;

interface HeldTask {
  group: string[];
  result: Promise<IndexTaskResult>;
}

/** Whether any file of the result imports a specifier the two layouts type differently. */
export function typedDifferently(result: IndexTaskResult, a: InternalSpecifiers, b: InternalSpecifiers): boolean {
  for (const r of result.records) {
    if (r.kind !== "text") continue;
    for (const imp of factsOf(r).facts.imports) if (isInternalSpecifier(imp.from, a) !== isInternalSpecifier(imp.from, b)) return true;
  }
  return false;
}

export class WalkAhead {
  private held: HeldTask[] = [];
  /** Entries of the walk handed to tasks so far (always whole groups, from the start). */
  private taken = 0;
  /** Drops the early tasks still queued when the run is declined (the user should not wait for them). */
  private readonly dropping = new AbortController();
  private readonly signal: AbortSignal;
  private inFlight = 0;
  /** The walk ended or the tasks were handed over: the final layout is known, no early task starts. */
  private closed = false;

  /** `maxInFlight`: early tasks running or waiting at a thread at once (what the pool runs at once). */
  constructor(
    private readonly walk: RunningScan,
    private readonly groupSize: number,
    private readonly predicted: InternalSpecifiers,
    private readonly run: RunTask,
    private readonly maxInFlight: number,
    runSignal?: AbortSignal,
  ) {
    this.signal = runSignal ? AbortSignal.any([runSignal, this.dropping.signal]) : this.dropping.signal;
  }

  /** Starts tasks on the files found so far, and on more as the walk finds them and the pool frees up. */
  start(): void {
    this.walk.onFound(() => this.takeFound());
    this.walk.done.then(
      () => void (this.closed = true),
      () => void (this.closed = true),
    );
    this.takeFound();
  }

  /** How many of the walk's entries early tasks took; the rest are the caller's. */
  get entriesTaken(): number {
    return this.taken;
  }

  private takeFound(): void {
    const entries = this.walk.entries;
    while (!this.closed && this.inFlight < this.maxInFlight && entries.length - this.taken >= this.groupSize && this.taken < WALK_AHEAD_FILES) {
      const group = entries.slice(this.taken, this.taken + this.groupSize).map((e) => e.path);
      this.taken += group.length;
      this.inFlight++;
      const result = this.run(group, this.predicted, this.signal);
      const next = () => {
        this.inFlight--;
        this.takeFound();
      };
      // Observed by settle(); never an unhandled rejection meanwhile.
      result.then(next, next);
      this.held.push({ group, result });
    }
  }

  /**
   * After the walk: every early task's result, run again where the walk's layout types it differently.
   * The tasks are handed over, not kept: a result holds a task's framed values until it is stored.
   */
  settle(final: InternalSpecifiers): HeldTask[] {
    this.closed = true;
    const held = this.held;
    this.held = [];
    if (sameSpecifiers(this.predicted, final)) return held;
    return held.map(({ group, result }) => ({
      group,
      result: result.then((r) => (typedDifferently(r, this.predicted, final) ? this.run(group, final) : r)),
    }));
  }

  /**
   * The run was declined or failed: drops the early tasks not started yet and waits for the others, so no
   * thread is still busy with them.
   */
  async drop(): Promise<void> {
    this.dropping.abort(new Error("indexing declined"));
    await Promise.allSettled(this.held.map((h) => h.result));
  }
}
