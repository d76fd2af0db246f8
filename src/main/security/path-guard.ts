// Every path a tool receives is resolved here: relative to the project root, through symlinks, and
// kept inside the root. A path that does not exist yet is judged by the real location of its deepest
// existing ancestor (following dangling symlinks), so creating `link/new.txt` cannot escape either.
import fs from "node:fs";
import path from "node:path";
import { findHiddenCharacter } from "./hidden-characters.js";
import { isForbiddenWrite } from "./write-rules.js";

export type PathErrorCode = "PATH_OUTSIDE_ROOT" | "PATH_INVALID" | "PATH_NOT_FOUND" | "PATH_FORBIDDEN";

export type ResolvedPath =
  | {
      ok: true;
      /** Absolute path under the root as given (symlinks not resolved). */
      abs: string;
      /** `/`-separated path relative to the root; `.` for the root itself. */
      rel: string;
      /** Absolute path with every symlink resolved (for a missing target: its would-be location). */
      real: string;
    }
  | { ok: false; code: PathErrorCode; message: string };

export interface ResolveOptions {
  /** The target must exist (PATH_NOT_FOUND otherwise). */
  mustExist?: boolean;
  /** The path is about to be written: `.git/**`, `.ipuaro/**` and `.ipuaro.json` are PATH_FORBIDDEN. */
  forWrite?: boolean;
}

export const MAX_PATH_LENGTH = 4096;
const MAX_NAME_BYTES = 255;
const MAX_SYMLINK_HOPS = 40;

function fail(code: PathErrorCode, message: string): ResolvedPath {
  return { ok: false, code, message };
}

/** Whether `target` is `root` or lies under it (both absolute). */
export function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === "" || (!rel.startsWith(`..${path.sep}`) && rel !== ".." && !path.isAbsolute(rel));
}

/** Whether `abs` is a folder (a link to one counts); false when it is missing or unreadable. */
export function isFolder(abs: string): boolean {
  try {
    return fs.statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

function toRel(root: string, target: string): string {
  const rel = path.relative(root, target);
  return rel === "" ? "." : rel.split(path.sep).join("/");
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** Why the text cannot be a project path, or null when it may be one. */
function syntaxProblem(input: string): string | null {
  if (input.trim() === "") return "the path is empty";
  if (input.includes("\0")) return "the path contains a NUL byte";
  const hidden = findHiddenCharacter(input);
  if (hidden) return `the path contains the control or invisible character \`${hidden.escaped}\``;
  if (input.length > MAX_PATH_LENGTH) return `the path is longer than ${MAX_PATH_LENGTH} characters`;
  if (/^~/.test(input)) return "`~` is not expanded; give a path relative to the project root";
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input) || /^file:/i.test(input)) return "the path looks like a URL; give a file path relative to the project root";
  if (/^[a-z]:/i.test(input)) return "Windows drive paths are not supported; give a path relative to the project root";
  if (input.includes("\\")) return "use `/` as the path separator";
  const long = input.split("/").find((name) => Buffer.byteLength(name) > MAX_NAME_BYTES);
  if (long) return `the name \`${long.slice(0, 40)}…\` is longer than ${MAX_NAME_BYTES} bytes`;
  return null;
}

/**
 * The real location of `target`: realpath of its deepest existing ancestor plus the missing rest, with
 * dangling symlinks followed by hand (writing through one creates its target).
 */
function realLocation(target: string): { real: string; exists: boolean } | { error: string } {
  const missing: string[] = [];
  let current = target;
  for (let hops = 0; hops <= MAX_SYMLINK_HOPS; ) {
    try {
      const real = fs.realpathSync.native(current);
      return { real: path.join(real, ...missing.reverse()), exists: missing.length === 0 };
    } catch (error) {
      const code = errorCode(error);
      if (code === "ELOOP") return { error: "the path has a symlink loop" };
      if (code !== "ENOENT" && code !== "ENOTDIR") return { error: `the path cannot be read (${code ?? "unknown error"})` };
    }
    let link: string | null = null;
    try {
      if (fs.lstatSync(current).isSymbolicLink()) link = fs.readlinkSync(current);
    } catch {
      // Does not exist at all: keep climbing.
    }
    if (link !== null) {
      current = path.resolve(path.dirname(current), link);
      hops++;
      continue;
    }
    const parent = path.dirname(current);
    if (parent === current) return { real: path.join(current, ...missing.reverse()), exists: false };
    missing.push(path.basename(current));
    current = parent;
  }
  return { error: "the path goes through too many symlinks" };
}

/**
 * Resolves `input` (relative to `root`, or absolute inside it) to a path that stays inside the root
 * after following symlinks. `%2e%2e/` and similar are file names, not escapes: nothing is URL-decoded.
 */
export function resolveInsideRoot(root: string, input: string, opts: ResolveOptions = {}): ResolvedPath {
  if (typeof input !== "string") return fail("PATH_INVALID", "the path must be a string");
  const problem = syntaxProblem(input);
  if (problem) return fail("PATH_INVALID", `${problem}: \`${input.slice(0, 80)}\``);
  const lexicalRoot = path.resolve(root);
  let realRoot: string;
  try {
    realRoot = fs.realpathSync.native(lexicalRoot);
  } catch {
    return fail("PATH_NOT_FOUND", `the project root \`${lexicalRoot}\` does not exist`);
  }
  const abs = path.resolve(lexicalRoot, input);
  const base = isInside(lexicalRoot, abs) ? lexicalRoot : path.isAbsolute(input) && isInside(realRoot, abs) ? realRoot : null;
  if (base === null) {
    const why = path.isAbsolute(input) ? "is an absolute path outside the project root" : "climbs out of the project root with `..`";
    return fail("PATH_OUTSIDE_ROOT", `\`${input}\` ${why}`);
  }
  const location = realLocation(abs);
  if ("error" in location) return fail("PATH_INVALID", `${location.error}: \`${input}\``);
  if (!isInside(realRoot, location.real)) {
    return fail("PATH_OUTSIDE_ROOT", `\`${input}\` goes through a symlink that leads outside the project root`);
  }
  if (opts.mustExist && !location.exists) return fail("PATH_NOT_FOUND", `\`${input}\` does not exist`);
  const rel = toRel(base, abs);
  if (opts.forWrite && (isForbiddenWrite(rel) || isForbiddenWrite(toRel(realRoot, location.real)) || insideLinkedGitDir(realRoot, location.real))) {
    return fail("PATH_FORBIDDEN", `\`${rel}\` belongs to git or to ipuaro itself and cannot be written`);
  }
  return { ok: true, abs, rel, real: location.real };
}

/**
 * A `.git` file (a worktree, a submodule, `git init --separate-git-dir`) names the real git directory,
 * which may lie inside the project under another name: its hooks and config run code like `.git`'s.
 */
function insideLinkedGitDir(realRoot: string, real: string): boolean {
  let text: string;
  try {
    text = fs.readFileSync(path.join(realRoot, ".git"), "utf8");
  } catch {
    return false; // no .git file (a folder, or none): isForbiddenWrite covers the folder
  }
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  if (!match) return false;
  const gitDir = path.resolve(realRoot, match[1]!);
  let realGitDir = gitDir;
  try {
    realGitDir = fs.realpathSync(gitDir);
  } catch {
    // not there (yet): judged by its path
  }
  return isInside(realGitDir, real);
}
