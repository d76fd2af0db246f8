// `ipuaro tool` and `ipuaro run` bring the index up to date before they work. They are meant for
// scripts, so above limits.maxFilesWarning they do not ask as `ipuaro index` and the TUI do: a question
// would hang a script, and a refusal would fail one that only has a big project. A first index that big
// is said on stderr instead, with where to go to narrow it.
import { counted } from "../../plural.js";

/** A `proceed` hook for ProjectIndexer.scanAndIndex that never declines and says when a long first index starts. */
export function firstIndexNote(
  store: { fileCount(): Promise<number> },
  limit: number,
  before: string,
  write: (line: string) => void = (line) => void process.stderr.write(line),
): (found: number) => Promise<boolean> {
  return async (found) => {
    // Only a first index is long: a warm run parses what changed.
    if (found > limit && (await store.fileCount()) === 0) {
      write(
        `ipuaro: ${counted(found, "file")} to index before ${before} (more than limits.maxFilesWarning = ${limit.toLocaleString("en-US")}); ` +
          "a first index this size takes a while. `ipuaro index` asks first and can narrow it to a subfolder.\n",
      );
    }
    return true;
  };
}

/** How long the update may take before it is said: a warm run usually takes a fraction of this. */
export const SLOW_INDEX_NOTE_MS = 1500;

/**
 * Runs the index update `update`, saying on stderr once it has taken longer than SLOW_INDEX_NOTE_MS:
 * a large file changed since the last run kept `ipuaro tool get_lines` silent for tens of seconds.
 */
export async function withSlowIndexNote<T>(before: string, update: () => Promise<T>, write: (line: string) => void = (line) => void process.stderr.write(line), afterMs = SLOW_INDEX_NOTE_MS): Promise<T> {
  const timer = setTimeout(() => write(`ipuaro: updating the index before ${before} (files changed since the last run)…\n`), afterMs);
  try {
    return await update();
  } finally {
    clearTimeout(timer);
  }
}
