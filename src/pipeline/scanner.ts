// Walks the project root top-down, pruning ignored folders early. Directory reads are synchronous (far
// cheaper than awaiting each one; reading through libuv's pool a few at a time was no faster either, as
// the entries are still built on this thread) but the walk yields to the event loop every few
// milliseconds so a UI on the same thread keeps drawing.
import fs from "node:fs";
import path from "node:path";
import { classifyPath } from "./file-kinds.js";
import type { IgnoreRules } from "./ignore-rules.js";

/** Longest stretch of synchronous work before yielding to the event loop. */
const SCAN_SLICE_MS = 8;

export interface ScannedEntry {
  path: string;
  kind: "file" | "symlink";
}

export interface ScanResult {
  entries: ScannedEntry[];
  /** Files and folders left out by ignore rules (a pruned folder counts once). */
  ignored: number;
  /** Files with an extension the index does not hold (e.g. .md, .css). */
  unsupported: number;
  /** Folders that could not be read (permissions). */
  unreadable: string[];
}

export interface ScanOptions {
  rules: IgnoreRules;
  binaryExtensions: ReadonlySet<string>;
  /** Called as entries are found, for a progress display during long walks. */
  onProgress?: (found: number) => void;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Walks the project, or only the folder `from` (relative to the root, already known not ignored). */
export async function scanProject(root: string, opts: ScanOptions, from = ""): Promise<ScanResult> {
  const result: ScanResult = { entries: [], ignored: 0, unsupported: 0, unreadable: [] };
  const stack: string[] = [from];
  let sliceStart = performance.now();
  while (stack.length) {
    const dir = stack.pop() as string;
    let dirents: fs.Dirent[];
    try {
      dirents = fs.readdirSync(path.join(root, dir), { withFileTypes: true });
    } catch {
      result.unreadable.push(dir || ".");
      continue;
    }
    // Sorted so the order of entries (and so of batches) is stable from run to run.
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    opts.rules.noteListing(dir, dirents.some((d) => d.name === ".gitignore"));
    const subdirs: string[] = [];
    for (const d of dirents) {
      const rel = dir ? `${dir}/${d.name}` : d.name;
      if (d.isDirectory()) {
        if (opts.rules.isIgnoredChild(dir, d.name, true)) result.ignored++;
        else subdirs.push(rel);
      } else if (d.isSymbolicLink()) {
        // Never followed, so loops are safe; recorded so tools can say where it points.
        if (opts.rules.isIgnoredChild(dir, d.name, false)) result.ignored++;
        else result.entries.push({ path: rel, kind: "symlink" });
      } else if (d.isFile()) {
        if (opts.rules.isIgnoredChild(dir, d.name, false)) result.ignored++;
        else if (classifyPath(rel, opts.binaryExtensions) === "unsupported") result.unsupported++;
        else result.entries.push({ path: rel, kind: "file" });
      }
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i] as string);
    if (performance.now() - sliceStart > SCAN_SLICE_MS) {
      opts.onProgress?.(result.entries.length);
      await yieldToLoop();
      sliceStart = performance.now();
    }
  }
  opts.onProgress?.(result.entries.length);
  return result;
}
