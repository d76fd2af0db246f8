// What the live index tells its listener (LiveIndexOptions.onEvent): each file update with who made it,
// a summary per batch, and its state around them (ready, updating, reloaded, dropped, error, recovered).
import type { BatchResult } from "./incremental-updater.js";
import type { FileUpdate } from "./record-outcome.js";

/** Who changed a file: ipuaro's own edit tools (registered beforehand) or anyone else. */
export type ChangeOrigin = "ipuaro" | "external";

export type FileUpdateEvent = Omit<FileUpdate, "since"> & {
  origin: ChangeOrigin;
  /** Work of the batch that carried it: planning, workers, graph, writes (ms). */
  ms: number;
  /** From the first file-system event for this path to its writes landing in Redis (ms). */
  latencyMs: number;
};

export interface BatchSummary {
  type: "batch";
  /** Paths changed in this batch (updates reported). */
  files: number;
  checked: number;
  parsed: number;
  removed: number;
  resolved: number;
  graphRebuilt: boolean;
  /** Total work (ms) = workMs + writeMs. */
  ms: number;
  workMs: number;
  writeMs: number;
  stages: BatchResult["stages"];
}

export type LiveIndexEvent =
  | FileUpdateEvent
  | BatchSummary
  | { type: "ready"; files: number; graphFiles: number; ms: number }
  /**
   * Another index run wrote the index: it was reloaded, and `rechecked` recently updated files re-read.
   * `rebuilt`: the run was the live index's own, after a `dropped`.
   */
  | { type: "reloaded"; files: number; rechecked: number; ms: number; rebuilt?: boolean }
  /**
   * The project's index is gone from Redis (`ipuaro index --drop` in another process, or a server that
   * lost its data) while `files` files were known: the whole project is being indexed again, and a
   * `reloaded` event with `rebuilt` follows once it is.
   */
  | { type: "dropped"; files: number }
  | { type: "error"; error: unknown; retryInMs: number }
  /** Back to normal after an error; `message` says what came back (Redis when absent). */
  | { type: "recovered"; message?: string }
  /** A batch of `paths` changed paths is being taken in (a `batch` event follows). */
  | { type: "updating"; paths: number };

/**
 * A batch's events once its writes landed (`landed`, performance.now()): each file's update, in order,
 * then the batch's summary. `origins` are the updates' origins, index for index.
 */
export function landedBatchEvents(result: BatchResult, origins: readonly ChangeOrigin[], writeMs: number, landed: number): LiveIndexEvent[] {
  const ms = result.workMs + writeMs;
  const events: LiveIndexEvent[] = result.updates.map((u, i) => {
    const { since, ...rest } = u;
    return { ...rest, origin: origins[i] ?? "external", ms, latencyMs: landed - since };
  });
  events.push({
    type: "batch",
    files: result.updates.length,
    checked: result.checked,
    parsed: result.parsed,
    removed: result.removed,
    resolved: result.resolved,
    graphRebuilt: result.graphRebuilt,
    ms,
    workMs: result.workMs,
    writeMs,
    stages: result.stages,
  });
  return events;
}
