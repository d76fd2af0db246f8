// Arguments that name paths outside the project root: `prettier --write /etc/hosts`, `tsc --outDir=..`,
// `node ../../tmp/x.js`, `cp a ~/x`, or `src/link` when that symlink leads out. Paths are resolved
// against the root with path-guard.ts (realpath for what exists). Words that cannot be paths (URLs,
// package names, plain words, values of `-m`/`--message`) are left alone; only the words as the
// shell passes them are read, never the raw command text.
import fs from "node:fs";
import path from "node:path";
import { displayInline } from "./hidden-characters.js";
import { isInside, resolveInsideRoot } from "./path-guard.js";
import type { ShellWord } from "./shell-words.js";
import type { Finding } from "./shell-types.js";

/** Paths any program may name without leaving the project in a way that matters. */
export const HARMLESS_DEVICES = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/fd/1", "/dev/fd/2", "/dev/stdin", "/dev/fd/0"]);
/** Options whose value is prose (a commit message), never a path. */
const MESSAGE_OPTIONS = new Set(["-m", "--message"]);

const shown = (text: string): string => displayInline(text);

interface PathCandidate {
  /** The path part of the word (`/etc` of `--outDir=/etc`). */
  text: string;
  /** It expands under the home directory (`~`, `NAME=~/x`, npm's `--prefix=~/x`). */
  home: boolean;
}

function homeCandidate(text: string): PathCandidate | null {
  return /^~(\/|$)/.test(text) ? { text, home: true } : null;
}

/** The part of a word that may be a path, or null when it cannot be one. */
function pathCandidate(word: ShellWord): PathCandidate | null {
  if (word.dynamic) {
    // Only `~` and `~/…` are sure to expand to the home directory (`~+` is the working directory).
    return word.tilde && /^~(\/|$)/.test(word.raw) ? { text: word.raw, home: true } : null;
  }
  // A glob can only expand under its literal directory part (`../*.js` → `../`).
  const value = word.glob ? word.literalPrefix : word.value;
  if (value.startsWith("--")) {
    const eq = value.indexOf("=");
    if (eq === -1 || MESSAGE_OPTIONS.has(value.slice(0, eq))) return null;
    const text = value.slice(eq + 1);
    return homeCandidate(text) ?? { text, home: false };
  }
  if (value.startsWith("-") && value !== "-") {
    // An attached short-option value that is plainly a path: `-o/tmp/x`, `-o../x`, `-o~/x`.
    const text = value.slice(2);
    if (value[1] === "m" || !/^[a-zA-Z]/.test(value[1] ?? "") || !/^(\/|\.\.(\/|$)|~(\/|$))/.test(text)) return null;
    return homeCandidate(text) ?? { text, home: false };
  }
  const assignment = /^[A-Za-z_][A-Za-z0-9_]*=/.exec(value);
  if (assignment) {
    // bash expands an unquoted `~` after `=` in an argument that looks like an assignment (`PREFIX=~/x`).
    const text = value.slice(assignment[0].length);
    if (word.raw.startsWith(`${assignment[0]}~`)) return homeCandidate(text) ?? { text, home: false };
    return { text, home: false };
  }
  return value === "" ? null : { text: value, home: false };
}

function isSymlink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Why `text` lies outside the root, or null when it stays inside or is not a path at all. */
function outsideReason(root: string, given: string): string | null {
  // `file:..`, `file:///etc` (npm, git): a path all the same, whatever the scheme says.
  const text = /^file:/i.test(given) ? decodeURIComponent(given.replace(/^file:(\/\/(localhost)?(?=\/))?/i, "")) || "." : given;
  if (HARMLESS_DEVICES.has(path.posix.normalize(text))) return null;
  const plain = !text.startsWith("/") && !text.includes("/");
  // A plain word (`lodash`, `main`) can only leave the root as a symlink; skip the realpath work otherwise.
  if (plain && text !== ".." && !isSymlink(path.resolve(root, text))) return null;
  const resolved = resolveInsideRoot(root, text);
  if (resolved.ok) return null;
  if (resolved.code === "PATH_OUTSIDE_ROOT") return resolved.message;
  if (resolved.code === "PATH_NOT_FOUND") {
    // The root does not exist (a test or a mistyped --root): judge by the text alone.
    const rel = path.relative(path.resolve(root), path.resolve(root, text));
    return rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel) ? `\`${text}\` is outside the project root` : null;
  }
  return null; // PATH_INVALID: a URL, `C:` drive, backslashes … not a path the policy can place
}

/**
 * Why `text` names git's or ipuaro's own files (`.git/config`, hooks), or null. Many programs write to
 * a path given as an argument (`git mailinfo .git/config`, `git bundle create`, `--export-marks=`), and a
 * `.git/config` with `core.fsmonitor` runs code at the next git command.
 */
function forbiddenReason(root: string, text: string): string | null {
  if (!/(^|\/)\.git(\/|$)/.test(text) && !text.includes("ipuaro")) return null;
  const resolved = resolveInsideRoot(root, text, { forWrite: true });
  return !resolved.ok && resolved.code === "PATH_FORBIDDEN" ? `\`${text}\` names git's or ipuaro's own files, which a command could change to run code later` : null;
}

/** Whether `text` is an absolute path inside one of `dirs`. */
function insideAny(text: string, dirs: readonly string[]): boolean {
  return path.isAbsolute(text) && dirs.some((d) => isInside(path.resolve(d), path.resolve(text)));
}

/**
 * Ask findings for arguments that name paths outside `root` (words after the program name). `trusted`:
 * folders ipuaro made for the command itself (run_tests' report), which it may name.
 */
export function outsidePathFindings(args: readonly ShellWord[], root: string, trusted: readonly string[] = []): Finding[] {
  const findings: Finding[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (!word.dynamic && MESSAGE_OPTIONS.has(word.value)) {
      i++;
      continue;
    }
    const candidate = pathCandidate(word);
    if (!candidate) continue;
    const argument = `the argument \`${shown(word.raw)}\``;
    if (candidate.home) {
      findings.push({ verdict: "ask", reason: `${argument} is only known at run time: \`~\` expands to the home directory, outside the project` });
      continue;
    }
    if (insideAny(candidate.text, trusted)) continue;
    const why = outsideReason(root, candidate.text) ?? forbiddenReason(root, candidate.text);
    if (why === null) continue;
    findings.push({ verdict: "ask", reason: candidate.text === word.value ? `the argument ${why}` : `in ${argument}, ${why}` });
  }
  return findings;
}
