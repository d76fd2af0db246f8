// Which index run last wrote a project's index, kept in its config hash. A live index (the TUI's
// watcher, `index --watch`) loaded the index into memory when it started; when another run writes it
// meanwhile (`ipuaro index` in a second terminal), the mark changes, and the live index reloads what
// that run stored and re-checks the files it updated itself while the run went on: either side may
// have written a file's older content last.
import { randomUUID } from "node:crypto";

export const INDEX_RUN_FIELD = "index_run";

export interface IndexRunMark {
  id: string;
  /** Date.now() when the run began: files the run read were read after it. */
  startedAt: number;
}

export function newIndexRunMark(startedAt = Date.now()): IndexRunMark {
  return { id: randomUUID(), startedAt };
}

export function encodeIndexRunMark(mark: IndexRunMark): string {
  return JSON.stringify(mark);
}

/** The mark in a stored value; null when there is none or it is damaged. */
export function parseIndexRunMark(raw: string | null): IndexRunMark | null {
  if (raw === null) return null;
  try {
    const value = JSON.parse(raw) as Partial<IndexRunMark>;
    return typeof value.id === "string" && typeof value.startedAt === "number" ? { id: value.id, startedAt: value.startedAt } : null;
  } catch {
    return null;
  }
}
