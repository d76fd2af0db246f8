// A stat-only picture of the project's files (the index's ignore rules: .gitignore files and
// project.ignorePatterns), taken before and after a command so what the command created, changed or
// deleted can be told apart. Unlike the index scanner it keeps files of every type, so changes to files
// the index does not hold (README.md) show up too. Ignored FILES in kept folders (`.env`, `*.log` next to
// the code) are listed as well, marked `ignored`: a command that deletes one must not go unnoticed, and
// command-tracking.ts copies the small ones before each command. Ignored FOLDERS (node_modules, dist,
// .git) are still not entered: walking them around every command would cost more than the whole project.
import fs from "node:fs";
import path from "node:path";
import { IgnoreRules } from "../../pipeline/ignore-rules.js";
import { TEMP_MARKER } from "../fs/atomic-write.js";

export interface WalkEntry {
  kind: "file" | "symlink";
  size: number;
  mtimeMs: number;
  ino: number;
  mode: number;
  /** A symlink's target text (read with the walk: a command that re-points a link changes nothing else). */
  target?: string;
  /** Left out of the index by .gitignore or ignorePatterns (so Redis holds no copy of it). */
  ignored?: true;
}

export interface ProjectWalk {
  files: Map<string, WalkEntry>;
  /** Every folder entered (project-relative, "" left out): what existed before a command. */
  dirs: Set<string>;
}

export interface WalkOptions {
  ignorePatterns: string[];
  /** Give up (return null) past this many entries. */
  limit: number;
  /** Absolute folders left out (ipuaro's home when it lies inside the project). */
  exclude?: readonly string[];
  /** Also list the ignored files of kept folders, marked `ignored` (command tracking; not a file count). */
  ignoredFiles?: boolean;
}

const SLICE_MS = 8;
/** VCS internals are never the project's content (a worktree's `.git` file), ignored or not. */
const VCS_NAMES = new Set([".git", ".hg", ".svn"]);
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function linkTarget(abs: string): string | undefined {
  try {
    return fs.readlinkSync(abs);
  } catch {
    return undefined;
  }
}

export async function walkProject(root: string, opts: WalkOptions): Promise<ProjectWalk | null> {
  const rules = new IgnoreRules(root, opts.ignorePatterns);
  const excluded = new Set((opts.exclude ?? []).map((d) => path.relative(root, d).split(path.sep).join("/")).filter((r) => r && !r.startsWith("..")));
  const out = new Map<string, WalkEntry>();
  const dirs = new Set<string>();
  const stack: string[] = [""];
  let sliceStart = performance.now();
  while (stack.length) {
    const dir = stack.pop()!;
    let dirents: fs.Dirent[];
    try {
      dirents = fs.readdirSync(path.join(root, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const d of dirents) {
      const rel = dir ? `${dir}/${d.name}` : d.name;
      if (d.isDirectory()) {
        if (!excluded.has(rel) && !rules.isIgnoredChild(dir, d.name, true)) {
          stack.push(rel);
          dirs.add(rel);
        }
        continue;
      }
      if (!d.isFile() && !d.isSymbolicLink()) continue;
      // ipuaro's own atomic-write temps come and go during edits; they are never the user's.
      if (d.name.endsWith(TEMP_MARKER) || VCS_NAMES.has(d.name)) continue;
      const ignored = rules.isIgnoredChild(dir, d.name, false);
      if (ignored && !opts.ignoredFiles) continue;
      let st: fs.Stats;
      try {
        st = fs.lstatSync(path.join(root, rel));
      } catch {
        continue;
      }
      const target = st.isSymbolicLink() ? linkTarget(path.join(root, rel)) : undefined;
      out.set(rel, {
        kind: st.isSymbolicLink() ? "symlink" : "file",
        size: st.size,
        mtimeMs: st.mtimeMs,
        ino: st.ino,
        mode: st.mode & 0o7777,
        ...(target !== undefined ? { target } : {}),
        ...(ignored ? { ignored: true as const } : {}),
      });
      if (out.size > opts.limit) return null;
    }
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
  }
  return { files: out, dirs };
}

export interface WalkDiff {
  created: string[];
  changed: string[];
  deleted: string[];
}

/** Paths whose entry appeared, disappeared, or differs in size, mtime, inode, mode, kind or link target. */
export function diffWalks(before: ReadonlyMap<string, WalkEntry>, after: ReadonlyMap<string, WalkEntry>): WalkDiff {
  const out: WalkDiff = { created: [], changed: [], deleted: [] };
  for (const [rel, a] of after) {
    const b = before.get(rel);
    if (!b) out.created.push(rel);
    else if (b.kind !== a.kind || b.size !== a.size || b.mtimeMs !== a.mtimeMs || b.ino !== a.ino || b.mode !== a.mode || b.target !== a.target) out.changed.push(rel);
  }
  for (const rel of before.keys()) if (!after.has(rel)) out.deleted.push(rel);
  return out;
}
