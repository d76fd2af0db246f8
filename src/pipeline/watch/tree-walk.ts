// Lists the indexable files under one folder of the project, with the scanner's rules: ignored folders
// pruned, symlinks recorded but never followed, unsupported extensions left out. Used when a folder
// appears (moved in, checked out) or a .gitignore changes what its folder holds.
import fs from "node:fs";
import path from "node:path";
import { classifyPath } from "../file-kinds.js";
import type { IgnoreRules } from "../ignore-rules.js";
import { SCAN_SLICE_MS } from "../scanner.js";

export async function walkFolder(root: string, dir: string, rules: IgnoreRules, binaryExtensions: ReadonlySet<string>): Promise<string[]> {
  const out: string[] = [];
  if (dir && rules.isIgnored(dir, true)) return out;
  const stack = [dir];
  let sliceStart = performance.now();
  while (stack.length) {
    const current = stack.pop() as string;
    let dirents: fs.Dirent[];
    try {
      dirents = fs.readdirSync(path.join(root, current), { withFileTypes: true });
    } catch {
      continue; // gone meanwhile, or unreadable: nothing to index there
    }
    for (const d of dirents) {
      const rel = current ? `${current}/${d.name}` : d.name;
      if (d.isDirectory()) {
        if (!rules.isIgnoredChild(current, d.name, true)) stack.push(rel);
      } else if (d.isSymbolicLink()) {
        if (!rules.isIgnoredChild(current, d.name, false)) out.push(rel);
      } else if (d.isFile()) {
        if (!rules.isIgnoredChild(current, d.name, false) && classifyPath(rel, binaryExtensions) !== "unsupported") out.push(rel);
      }
    }
    if (performance.now() - sliceStart > SCAN_SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return out;
}

/** true when the folder holds at least one non-ignored subfolder (the watcher cannot see into those yet). */
export function hasSubfolders(root: string, dir: string, rules: IgnoreRules): boolean {
  try {
    return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).some((d) => d.isDirectory() && !rules.isIgnoredChild(dir, d.name, true));
  } catch {
    return false;
  }
}
