// Takes back the newest applied edit: the file gets its previous content again (a created file is
// deleted, a deleted one recreated) through the atomic writer, and Redis is refreshed. When the file
// changed after ipuaro's edit, nothing is touched: the user sees what changed instead.
import fsp from "node:fs/promises";
import path from "node:path";
import { createTwoFilesPatch } from "diff";
import { hashContent } from "../../pipeline/watch/content-hash.js";
import { AtomicWriteError, deleteFileAtomic, writeFileAtomic } from "../fs/atomic-write.js";
import type { UndoEntry } from "./session-types.js";
import type { UndoStack } from "./undo-stack.js";

export interface UndoDeps {
  stack: UndoStack;
  root: string;
  /** Brings Redis up to date for the restored paths. */
  refreshIndex(paths: string[]): Promise<void>;
  /** Tells the watcher the write is ipuaro's own (hash of the restored content; null for a delete). */
  registerOwnWrite?(path: string, hash: string | null): void;
}

export type UndoOutcome =
  | { status: "undone"; entry: UndoEntry; action: "restored" | "deleted" | "recreated"; message: string }
  | { status: "already-undone"; entry: UndoEntry; message: string }
  | { status: "refused"; entry: UndoEntry; message: string; diff: string }
  | { status: "empty"; message: string };

/** The exact text an undo entry's lines stand for (edit-support.ts stores `split("\n")`, BOM included). */
export function textOf(lines: readonly string[] | null): string | null {
  return lines === null ? null : lines.join("\n");
}

async function currentText(abs: string): Promise<string | null | { notAFile: true }> {
  try {
    const st = await fsp.lstat(abs);
    if (!st.isFile()) return { notAFile: true };
    return (await fsp.readFile(abs)).toString("utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw error;
  }
}

/** Folders from `dir` up to `top` that the undone create made, while they are empty (rmdir stops at the first that is not). */
async function removeEmptyFolders(dir: string, top: string): Promise<void> {
  for (let current = dir; current.length >= top.length && current.startsWith(top); current = path.dirname(current)) {
    try {
      await fsp.rmdir(current);
    } catch {
      return;
    }
  }
}

function resolveInside(root: string, filePath: string): string {
  const abs = path.resolve(root, filePath);
  const rel = path.relative(root, abs);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) {
    throw new Error(`undo entry path ${JSON.stringify(filePath)} is outside the project root ${root}`);
  }
  return abs;
}

/** "edit_lines src/a.ts 9-11 (14:05:12)"; the tool's name is added when the description lacks it. */
function describe(entry: UndoEntry): string {
  const at = new Date(entry.timestamp);
  const today = at.toDateString() === new Date().toDateString();
  const when = today ? at.toLocaleTimeString("en-GB") : at.toISOString().replace("T", " ").slice(0, 19);
  const tool = entry.description.startsWith(entry.tool) ? "" : `${entry.tool}, `;
  return `${entry.description} (${tool}${when})`;
}

export function changedSinceDiff(rel: string, expected: string | null, actual: string | null): string {
  const withEnd = (t: string | null) => (t === null || t === "" || t.endsWith("\n") ? (t ?? "") : `${t}\n`);
  return createTwoFilesPatch(
    expected === null ? "/dev/null" : `a/${rel}`,
    actual === null ? "/dev/null" : `b/${rel}`,
    withEnd(expected),
    withEnd(actual),
    "after ipuaro's edit",
    "on disk now",
    { context: 3 },
  ).trimEnd();
}

export async function undoLastEdit(deps: UndoDeps): Promise<UndoOutcome> {
  const entry = await deps.stack.peek();
  if (!entry) {
    // Older edits may still be applied: the stack keeps the newest undo.stackSize; rewind reaches further.
    return { status: "empty", message: `Nothing to undo: this session has no applied edits left on its undo stack (it keeps the newest ${deps.stack.stackSize}, undo.stackSize). Earlier edits can be taken back with rewind.` };
  }
  const rel = entry.filePath;
  const abs = resolveInside(deps.root, rel);
  const previous = textOf(entry.previousContent);
  const expected = textOf(entry.newContent);
  const current = await currentText(abs);
  if (typeof current === "object" && current !== null) {
    return { status: "refused", entry, message: `Cannot undo ${describe(entry)}: ${rel} is no longer a regular file.`, diff: "" };
  }
  if (current === previous) {
    // The edit never reached the disk (the entry is written first) or it was already taken back.
    await deps.stack.drop(entry.id);
    return { status: "already-undone", entry, message: `${rel} already has its content from before ${describe(entry)}; removed the entry.` };
  }
  if (current !== expected) {
    const what = expected === null ? "was created again" : current === null ? "was deleted" : "was changed";
    return {
      status: "refused",
      entry,
      message: `Cannot undo ${describe(entry)}: ${rel} ${what} after that edit. Nothing was touched; undo your own change first or edit the file by hand.`,
      diff: changedSinceDiff(rel, expected, current),
    };
  }
  const bytes = previous === null ? null : Buffer.from(previous, "utf8");
  deps.registerOwnWrite?.(rel, bytes ? await hashContent(bytes) : null);
  try {
    if (bytes === null) {
      await deleteFileAtomic(abs);
      if (entry.createdFolder) await removeEmptyFolders(path.dirname(abs), resolveInside(deps.root, entry.createdFolder));
    }
    else await writeFileAtomic(abs, bytes, { createParents: expected === null, ...(entry.previousMode !== undefined ? { mode: entry.previousMode } : {}) });
  } catch (error) {
    if (error instanceof AtomicWriteError) {
      return { status: "refused", entry, message: `Cannot undo ${describe(entry)}: ${error.message}. The file was left as it is.`, diff: "" };
    }
    throw error;
  }
  // Dropped only after the write: a crash in between leaves the entry, and the next undo sees it is done.
  await deps.stack.drop(entry.id);
  await deps.refreshIndex([rel]);
  const action = previous === null ? "deleted" : expected === null ? "recreated" : "restored";
  const verb = action === "deleted" ? `deleted ${rel} (it was created by that edit)` : action === "recreated" ? `recreated ${rel}` : `restored ${rel}`;
  return { status: "undone", entry, action, message: `Undid ${describe(entry)}: ${verb}.` };
}
