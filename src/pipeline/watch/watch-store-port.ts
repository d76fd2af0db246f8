// What the live index needs from storage on top of the index pipeline's port: incremental graph writes
// (set some index fields, delete others) and a way to reconnect after Redis went away.
import type { IndexStorePort } from "../index-store-port.js";

export interface WatchStorePort extends IndexStorePort {
  /** One transaction: HSET meta entries, HSET index fields, HDEL index fields. */
  writeGraphDelta(meta: [string, string][], setFields: [string, string][], deleteFields: string[]): Promise<void>;
  /** The stored mark of the index run that last wrote the index (index-run-mark.ts); null = none. */
  lastIndexRun(): Promise<string | null>;
  /** Files the index holds (HLEN of its `files` hash): 0 once the index was dropped. */
  fileCount(): Promise<number>;
  /** Whether a process holds the project's index-run lease now (an index run or a drop under way). */
  indexRunHeld(): Promise<boolean>;
  /** Re-opens a connection that gave up retrying; resolves once Redis answers again. */
  reconnect(): Promise<void>;
}
