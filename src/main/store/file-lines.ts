// A window of a text file's lines as the index stored them (ProjectStore.getLines); binary files and
// symlinks have none.
import { IpuaroError } from "../errors.js";
import type { StoredFile } from "./stored-values.js";

export interface FileLines {
  /** The requested lines, 1-based `start`..`end` inclusive, clamped to the file. */
  lines: string[];
  start: number;
  end: number;
  total: number;
}

/**
 * Lines `start`..`end` of `file` (1-based, inclusive, clamped). Throws IpuaroError('file') for binary
 * files and symlinks, which have no lines.
 */
export function fileLines(path: string, file: StoredFile, start: number, end: number): FileLines {
  if (file.kind !== "text") {
    throw new IpuaroError("file", `${path} is ${file.kind === "binary" ? "a binary file" : `a symlink to ${file.target}`}; it has no lines`, {
      recoverable: false,
    });
  }
  const total = file.lines.length;
  const from = Math.max(1, Math.floor(start));
  const to = Math.min(total, Math.floor(end));
  return { lines: from <= to ? file.lines.slice(from - 1, to) : [], start: from, end: Math.max(from - 1, to), total };
}
