// Lists the indexable files under one folder of the project, with the scanner's rules: ignored folders
// pruned, symlinks recorded but never followed, unsupported extensions left out. Used when a folder
// appears (moved in, checked out) or a .gitignore changes what its folder holds.
import fs from "node:fs";
import path from "node:path";
import type { IgnoreRules } from "../ignore-rules.js";
import { scanProject } from "../scanner.js";

export async function walkFolder(root: string, dir: string, rules: IgnoreRules, binaryExtensions: ReadonlySet<string>): Promise<string[]> {
  if (dir && rules.isIgnored(dir, true)) return [];
  // A folder gone meanwhile, or unreadable, has nothing to index: the scan just reports it unreadable.
  return (await scanProject(root, { rules, binaryExtensions, listOffThread: true }, dir)).entries.map((e) => e.path);
}

/** true when the folder holds at least one non-ignored subfolder (the watcher cannot see into those yet). */
export function hasSubfolders(root: string, dir: string, rules: IgnoreRules): boolean {
  try {
    return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).some((d) => d.isDirectory() && !rules.isIgnoredChild(dir, d.name, true));
  } catch {
    return false;
  }
}
