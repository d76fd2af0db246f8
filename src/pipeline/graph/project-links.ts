// The project's symlinks as the import resolver sees them. The walk records a link and never follows
// it; an import that names one (`./alias` → src/alias.ts → a/a.ts) means the file it points to, so the
// graph's edges go to that file. Only the link's text is used: the disk is not read again.
import path from "node:path";

/** Link path → the project path it points to, or null when it points outside the project. */
export type ProjectLinks = ReadonlyMap<string, string | null>;

/**
 * The project path a symlink at `linkRel` points to, given its target as readlink returns it (relative
 * to the link's folder, or absolute); null when that is outside the project `root`.
 */
export function linkTargetPath(root: string, linkRel: string, target: string): string | null {
  const rel = path.isAbsolute(target)
    ? path.relative(root, target).split(path.sep).join("/")
    : path.posix.normalize(path.posix.join(path.posix.dirname(linkRel), target));
  if (rel === "" || rel === "." || rel === ".." || rel.startsWith("../") || path.isAbsolute(rel)) return null;
  return rel.replace(/\/+$/, "");
}
