// Folders a code rewind leaves empty. A file the model or a command created in new folders
// (`src/features/deep/nested/x.ts`) is deleted by a rewind; its folders, which did not exist at the
// checkpoint either, would stay behind empty. Each deletion names the folders from the file's own up to
// the topmost one that was new when the file was recorded (FileRecord `newDir`); once every file is
// done they are removed deepest first, each only if empty (rmdir refuses anything else), so a folder
// that holds anything — a file the user added, one the rewind did not delete, an ignored `.DS_Store` —
// stays, and so does every folder above it. Never the project root, never through a symlink.
import fsp from "node:fs/promises";
import path from "node:path";
import { realDir } from "./disk-file.js";

/** The folders of `rel` from its own up to `newDir` (inclusive), deepest first; none when `newDir` is not one of them. */
export function newFoldersOf(rel: string, newDir: string | undefined): string[] {
  if (!newDir || newDir === "." || newDir.startsWith("/") || newDir.split("/").includes("..") || !rel.startsWith(`${newDir}/`)) return [];
  const out: string[] = [];
  for (let dir = path.posix.dirname(rel); dir !== "." && dir.length >= newDir.length; dir = path.posix.dirname(dir)) out.push(dir);
  return out;
}

/** Removes those of `folders` (project-relative) that are empty, deepest first; returns the ones removed. */
export async function removeEmptyFolders(realRoot: string, folders: Iterable<string>): Promise<string[]> {
  const depth = (d: string) => d.split("/").length;
  const unique = [...new Set(folders)].filter((d) => d && d !== ".");
  unique.sort((a, b) => depth(b) - depth(a) || (a < b ? -1 : a > b ? 1 : 0));
  const removed: string[] = [];
  for (const dir of unique) {
    const want = path.join(realRoot, ...dir.split("/"));
    try {
      // Where the project's own folders put it: not a symlink, not under a folder swapped for one.
      if ((await realDir(want)) !== want) continue;
      await fsp.rmdir(want);
      removed.push(dir);
    } catch {
      // Not empty (ENOTEMPTY), gone, or not removable: it stays.
    }
  }
  return removed.sort();
}
