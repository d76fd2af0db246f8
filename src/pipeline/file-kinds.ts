// Which files the index holds: by extension, and with the ignore rules by path. The scanner, the
// watcher's batch plan and the live index services ask the same questions here, so they never disagree.
import type { Stats } from "node:fs";
import path from "node:path";
import type { IgnoreRules } from "./ignore-rules.js";

export const INDEXED_EXTENSIONS = new Set([".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json", ".yaml", ".yml"]);

export type FileClass = "source" | "binary" | "unsupported";

export function classifyPath(rel: string, binaryExtensions: ReadonlySet<string>): FileClass {
  const ext = path.extname(rel).toLowerCase();
  if (INDEXED_EXTENSIONS.has(ext)) return "source";
  if (binaryExtensions.has(ext)) return "binary";
  return "unsupported";
}

/** What is at a path as the index tells entries apart (anything neither folder nor link counts as a file). */
export type EntryKind = "file" | "symlink" | "folder";

export function entryKindOf(st: Stats): EntryKind {
  return st.isDirectory() ? "folder" : st.isSymbolicLink() ? "symlink" : "file";
}

/**
 * Whether the index holds an entry of this kind at `rel`: a folder never (its files are entries), a
 * symlink whatever its name (it is recorded, never followed), a file when its type is indexed; nothing
 * the ignore rules leave out.
 */
export function isIndexedEntry(rel: string, kind: EntryKind, rules: IgnoreRules, binaryExtensions: ReadonlySet<string>): boolean {
  if (kind === "folder") return false;
  if (kind === "file" && classifyPath(rel, binaryExtensions) === "unsupported") return false;
  return !rules.isIgnored(rel, false);
}
