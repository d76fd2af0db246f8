// Walks the project root top-down, pruning ignored folders early. Directory reads are synchronous (far
// cheaper than awaiting each one; reading through libuv's pool a few at a time was no faster either, as
// the entries are still built on this thread) but the walk yields to the event loop every few
// milliseconds so a UI on the same thread keeps drawing. The watcher's walks read off the thread
// (`listOffThread`): they run while other programs write into the same folders, and one read of a
// folder being filled held the thread for 40 ms.
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
  /** Their paths, with ScanOptions.listUnsupported (Tab completion offers them too). */
  unsupportedPaths?: string[];
  /** Folders that could not be read (permissions). */
  unreadable: string[];
  /** Files whose names are not valid UTF-8 (shown with U+FFFD): no string path reaches them. */
  badNames: string[];
}

export interface ScanOptions {
  rules: IgnoreRules;
  binaryExtensions: ReadonlySet<string>;
  /** Called as entries are found (every few milliseconds and at the end), e.g. for a progress display. */
  onProgress?: (found: number) => void;
  /** Stops the walk at its next turn of the event loop (the promise rejects with the signal's reason). */
  signal?: AbortSignal;
  /** Also list the files of types the index does not hold (ScanResult.unsupportedPaths). */
  listUnsupported?: boolean;
  /** Read each folder through libuv's pool, so a slow read never holds this thread (the watcher's walks). */
  listOffThread?: boolean;
}

/** A finished walk and how long it took. */
export interface TimedScan {
  scan: ScanResult;
  walkSeconds: number;
}

/**
 * A walk still going: `entries` grows as files are found (each listener hears of it every few
 * milliseconds), so indexing can start on the first files while the walk goes on.
 */
export interface RunningScan {
  readonly entries: readonly ScannedEntry[];
  onFound(listener: (found: number) => void): void;
  readonly done: Promise<TimedScan>;
}

function emptyResult(): ScanResult {
  return { entries: [], ignored: 0, unsupported: 0, unreadable: [], badNames: [] };
}

/** Starts walking the project; see RunningScan. */
export function startScan(root: string, opts: ScanOptions): RunningScan {
  const result = emptyResult();
  const listeners: ((found: number) => void)[] = opts.onProgress ? [opts.onProgress] : [];
  const started = performance.now();
  const done = scanProject(root, { ...opts, onProgress: (n) => listeners.forEach((l) => l(n)) }, "", result).then((scan) => ({
    scan,
    walkSeconds: (performance.now() - started) / 1000,
  }));
  done.catch(() => {}); // a consumer that gave up early (e.g. Redis down) must not leave it unhandled
  return { entries: result.entries, onFound: (l) => void listeners.push(l), done };
}

/** A folder's entries, or null when it cannot be read (gone meanwhile, permissions). */
function readFolder(at: string): fs.Dirent[] | null {
  try {
    return fs.readdirSync(at, { withFileTypes: true });
  } catch {
    return null;
  }
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Lists one folder into `result` and returns its kept subfolders. Apart from the walk's loop so V8
 * optimises it as a plain function (inside the async loop it was compiled again and again).
 */
function listFolder(root: string, dir: string, dirents: fs.Dirent[] | null, opts: ScanOptions, result: ScanResult): string[] {
  if (dirents === null) {
    result.unreadable.push(dir || ".");
    return [];
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
      // Node decodes names as UTF-8; a name that is not comes back with U+FFFD and names no file.
      else if (d.name.includes("\uFFFD") && !fs.existsSync(path.join(root, rel))) result.badNames.push(rel);
      else if (classifyPath(rel, opts.binaryExtensions) === "unsupported") {
        result.unsupported++;
        if (opts.listUnsupported) (result.unsupportedPaths ??= []).push(rel);
      }
      else result.entries.push({ path: rel, kind: "file" });
    }
  }
  return subdirs;
}

/**
 * Walks the project, or only the folder `from` (relative to the root, already known not ignored), into
 * `result` (a fresh one unless given: startScan passes the one whose entries it shares while walking).
 */
export async function scanProject(root: string, opts: ScanOptions, from = "", result = emptyResult()): Promise<ScanResult> {
  const stack: string[] = [from];
  let sliceStart = performance.now();
  while (stack.length) {
    const dir = stack.pop() as string;
    const at = path.join(root, dir);
    const dirents = opts.listOffThread ? await fs.promises.readdir(at, { withFileTypes: true }).catch(() => null) : readFolder(at);
    const subdirs = listFolder(root, dir, dirents, opts, result);
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i] as string);
    if (performance.now() - sliceStart > SCAN_SLICE_MS) {
      opts.onProgress?.(result.entries.length);
      await yieldToLoop();
      opts.signal?.throwIfAborted();
      sliceStart = performance.now();
    }
  }
  opts.onProgress?.(result.entries.length);
  return result;
}
