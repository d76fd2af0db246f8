// Folders ipuaro will not treat as a project to index. `ipuaro index --yes /` walked /proc and /sys and
// stored 441 MB of fd links in Redis: the filesystem root, and a virtual filesystem itself, are refused
// wherever indexing starts. The home folder is a project only when the user says so (index-action.ts
// asks): it holds every project, cache and dotfile, config files with tokens among them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { onVirtualFilesystem } from "../../pipeline/virtual-mounts.js";
import { FatalError } from "../errors.js";

/** Why `root` (a real path) cannot be indexed at all, or null. */
export function unindexableRootProblem(root: string): string | null {
  if (path.dirname(root) === root) {
    // A repository at / (a whole system under git) makes every folder without a .git of its own part of it.
    const why = fs.existsSync(path.join(root, ".git"))
      ? ` It was chosen because ${path.join(root, ".git")} makes the whole filesystem one repository: put {"project": {"scope": "directory"}} in your project's .ipuaro.json to work on the folder itself.`
      : "";
    return `${root} is the filesystem root, not a project: its index would hold the whole system. Give a project folder instead, e.g. \`ipuaro index ~/code/my-app\`.${why}`;
  }
  if (onVirtualFilesystem(root)) return `${root} is on a virtual filesystem (kernel state, not files), not a project; give a project folder`;
  return null;
}

/** Throws the usage error (exit 2) for a folder that cannot be indexed at all. */
export function refuseUnindexableRoot(root: string): void {
  const problem = unindexableRootProblem(root);
  if (problem) throw new FatalError(problem, 2);
}

/** What indexing the home folder would do, for the question (or refusal) before its first index. */
export function homeFolderWarning(root: string): string {
  return `${root} is your home folder: indexing it reads every project, cache and dotfile under it (config files with tokens among them) into Redis.`;
}

/**
 * `run` and `tool` index before they work and have nobody to ask: a first index of the home folder is
 * refused, with the command that does it on purpose. Once indexed (that was agreed to), they go on.
 */
export async function refuseFirstIndexOfHome(root: string, store: { fileCount(): Promise<number> }): Promise<void> {
  if (!isHomeFolder(root) || (await store.fileCount()) > 0) return;
  throw new FatalError(`${homeFolderWarning(root)} Give a project folder, or index it once on purpose with \`ipuaro index --yes ${root}\`.`, 2);
}

/** Whether `root` (a real path) is the user's home folder itself ($HOME, which tests redirect). */
export function isHomeFolder(root: string, env: NodeJS.ProcessEnv = process.env): boolean {
  try {
    return fs.realpathSync(env.HOME || os.homedir()) === root;
  } catch {
    return false;
  }
}
