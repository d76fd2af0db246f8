// Writes through symlinks a command line does not show. `eslint --fix` rewrites every file it lints in
// place, and it lints what a symlink points at: checked with eslint 9, `eslint --fix .` (or `src`,
// or `src/x.js` naming the link) wrote the fix into a file outside the project that `src/x.js` linked
// to. So `eslint --fix` asks when a folder or file it would lint holds a symlink that leads out of the
// project. (`prettier --write` skips the links it meets and refuses a link it is given: nothing to do.)
import fs from "node:fs";
import path from "node:path";
import { isInside } from "./path-guard.js";
import type { ShellWord } from "./shell-words.js";
import type { Finding } from "./shell-types.js";

/** eslint's options that take a value as the next word (eslint 9 and 8). */
const ESLINT_WITH_VALUE = new Set([
  "-c", "--config", "--env", "--ext", "--global", "--parser", "--parser-options", "--resolve-plugins-relative-to",
  "--rulesdir", "--plugin", "--rule", "--ignore-path", "--ignore-pattern", "-o", "--output-file", "-f", "--format",
  "--max-warnings", "--cache-location", "--cache-strategy", "--stdin-filename", "--fix-type",
  "--report-unused-disable-directives-severity", "--flag", "--concurrency", "--inspect-config",
]);

/** Entries looked at before giving up on a walk (a monorepo's sources are far fewer, node_modules aside). */
export const MAX_WALKED_ENTRIES = 200_000;
/** Folders eslint never lints unless told `--no-ignore`. */
const IGNORED_FOLDERS = new Set(["node_modules", ".git"]);

const GLOB_CHARS = /[*?[\]{}!]/;

/** What eslint would lint: its operands, each cut at its first glob part; the project for none or a dynamic one. */
function eslintTargets(args: readonly ShellWord[]): string[] | null {
  const targets: string[] = [];
  let operandsOnly = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (!operandsOnly && word.value === "--") operandsOnly = true;
    else if (!operandsOnly && word.value.startsWith("-")) {
      if (ESLINT_WITH_VALUE.has(word.value)) i++;
    } else if (word.dynamic) return null;
    else targets.push(word.value);
  }
  return targets.length ? targets.map(staticPart) : ["."];
}

/** `src/**\/*.js` → `src`: the folder a glob's matches lie under. */
function staticPart(pattern: string): string {
  const parts = pattern.split("/");
  const glob = parts.findIndex((part) => GLOB_CHARS.test(part));
  if (glob === -1) return pattern;
  return parts.slice(0, glob).join("/") || ".";
}

type Walk = { found: string | null; walked: number };

/** The first symlink under `abs` (itself included) whose target lies outside `realRoot`. */
function linkLeadingOut(abs: string, realRoot: string, walk: Walk, skip: ReadonlySet<string>): void {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(abs);
  } catch {
    return; // nothing there: eslint says so itself
  }
  if (st.isSymbolicLink()) {
    if (!leadsInside(abs, realRoot)) walk.found = abs;
    return;
  }
  if (!st.isDirectory()) return;
  const stack = [abs];
  while (stack.length && walk.found === null && walk.walked <= MAX_WALKED_ENTRIES) {
    const dir = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      walk.walked++;
      const child = path.join(dir, entry.name);
      if (entry.isDirectory() && !skip.has(entry.name)) stack.push(child);
      else if (entry.isSymbolicLink() && !leadsInside(child, realRoot)) {
        walk.found = child;
        return;
      }
    }
  }
}

/** A link that resolves inside the project; a dangling one writes nothing (eslint cannot read it). */
function leadsInside(link: string, realRoot: string): boolean {
  try {
    return isInside(realRoot, fs.realpathSync.native(link));
  } catch {
    return true;
  }
}

/** Ask findings for `eslint …` run in `root`: `--fix` with a symlink out of the project among what it lints. */
export function eslintFindings(args: readonly ShellWord[], root: string): Finding[] {
  if (!args.some((word) => word.value === "--fix")) return [];
  let realRoot: string;
  try {
    realRoot = fs.realpathSync.native(root);
  } catch {
    return [];
  }
  const skip = args.some((word) => word.value === "--no-ignore") ? new Set([".git"]) : IGNORED_FOLDERS;
  const walk: Walk = { found: null, walked: 0 };
  for (const target of eslintTargets(args) ?? ["."]) {
    // Paths outside the project are the path checks' to judge.
    const abs = path.resolve(root, target);
    if (!isInside(root, abs)) continue;
    linkLeadingOut(abs, realRoot, walk, skip);
    if (walk.found !== null) {
      const shown = path.relative(root, walk.found).split(path.sep).join("/");
      return [{ verdict: "ask", reason: `\`eslint --fix\` writes through symlinks, and \`${shown}\` leads outside the project` }];
    }
  }
  if (walk.walked > MAX_WALKED_ENTRIES) {
    return [{ verdict: "ask", reason: `\`eslint --fix\` writes through symlinks, and what it lints holds too many files (over ${MAX_WALKED_ENTRIES}) to look for one that leads outside the project` }];
  }
  return [];
}
