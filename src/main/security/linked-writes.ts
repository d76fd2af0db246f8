// Writes through symlinks a command line does not show. `eslint --fix` rewrites every file it lints in
// place, and it lints what a symlink points at: checked with eslint 9, `eslint --fix .` (or `src`,
// or `src/x.js` naming the link) wrote the fix into a file outside the project that `src/x.js` linked
// to. `tsc` writes its output files through links just as well (checked with typescript 5.9: a
// `dist/a.js` linked out of the project had the compiled module written into its target). So each asks
// when a symlink out of the project lies where it would write: among what eslint lints; for an
// emitting tsc (no noEmit on its command line or in its tsconfig) under its outDir and declarationDir,
// or anywhere in the project without an outDir, as a link named like an output file or to a folder.
// (`prettier --write` skips the links it meets and refuses a link it is given: nothing to do.)
// Test runners write snapshots beside the tests they run (checked with vitest 4: a test reached through a
// folder link out of the project had its new snapshot written at the link's target, on a plain `vitest run`).
import fs from "node:fs";
import path from "node:path";
import { parseJsonc } from "../../pipeline/graph/jsonc.js";
import { isInside, resolveInsideRoot } from "./path-guard.js";
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
/** Folders eslint never lints unless told `--no-ignore`, and tsc never compiles into by default. */
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

/** Which links count: `name` is the link's own name, `real` its target, `toFolder` whether that is a folder. */
export type LinkFilter = (name: string, toFolder: boolean, real: string) => boolean;

/** The first symlink under `abs` (itself included) that `counts` and whose target lies outside `realRoot`. */
function linkLeadingOut(abs: string, realRoot: string, walk: Walk, skip: ReadonlySet<string>, counts: LinkFilter): void {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(abs);
  } catch {
    return; // nothing there: the program says so itself
  }
  if (st.isSymbolicLink()) {
    if (linksOut(abs, realRoot, counts)) walk.found = abs;
    return;
  }
  if (!st.isDirectory()) return;
  for (const { entry, abs: child } of folderEntries(abs, skip)) {
    if (++walk.walked > MAX_WALKED_ENTRIES) return;
    if (entry.isSymbolicLink() && linksOut(child, realRoot, counts)) {
      walk.found = child;
      return;
    }
  }
}

/**
 * Every entry under `folder`, depth first, links not followed; entries named in `skip` are left out,
 * links of that name too (a node_modules linked to a shared install is not linted or tested).
 */
function* folderEntries(folder: string, skip: ReadonlySet<string>): Generator<{ entry: fs.Dirent; abs: string }> {
  const stack = [folder];
  while (stack.length) {
    const dir = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (skip.has(entry.name)) continue;
      const abs = path.join(dir, entry.name);
      yield { entry, abs };
      if (entry.isDirectory()) stack.push(abs);
    }
  }
}

/** A link that counts and resolves outside the project; a dangling one writes nothing (it cannot be read). */
function linksOut(link: string, realRoot: string, counts: LinkFilter): boolean {
  let real: string;
  try {
    real = fs.realpathSync.native(link);
  } catch {
    return false;
  }
  if (isInside(realRoot, real)) return false;
  let toFolder = false;
  try {
    toFolder = fs.statSync(real).isDirectory();
  } catch {
    // gone meanwhile: taken as a file
  }
  return counts(path.basename(link), toFolder, real);
}

/**
 * The finding for a program writing through links under `targets` (relative to `cwd`), or none;
 * `writes` says what it writes ("writes snapshots").
 */
function linkFindings(what: string, targets: readonly string[], root: string, cwd: string, skip: ReadonlySet<string>, counts: LinkFilter, writes = "writes"): Finding[] {
  let realRoot: string;
  try {
    realRoot = fs.realpathSync.native(root);
  } catch {
    return [];
  }
  const walk: Walk = { found: null, walked: 0 };
  for (const target of targets) {
    // Paths outside the project are the path checks' to judge.
    const abs = path.resolve(cwd, target);
    if (!isInside(root, abs)) continue;
    linkLeadingOut(abs, realRoot, walk, skip, counts);
    if (walk.found !== null) {
      const shown = path.relative(root, walk.found).split(path.sep).join("/");
      return [{ verdict: "ask", reason: `\`${what}\` ${writes} through symlinks, and \`${shown}\` leads outside the project` }];
    }
  }
  if (walk.walked > MAX_WALKED_ENTRIES) {
    return [{ verdict: "ask", reason: `\`${what}\` ${writes} through symlinks, and where it writes holds too many files (over ${MAX_WALKED_ENTRIES}) to look for one that leads outside the project` }];
  }
  return [];
}

/**
 * Ask findings for `eslint …` run in `cwd` (a folder of the project at `root`): `--fix` with a symlink
 * out of the project among what it lints.
 */
export function eslintFindings(args: readonly ShellWord[], root: string, cwd = root): Finding[] {
  if (!args.some((word) => word.value === "--fix")) return [];
  const skip = args.some((word) => word.value === "--no-ignore") ? new Set([".git"]) : IGNORED_FOLDERS;
  return linkFindings("eslint --fix", eslintTargets(args) ?? ["."], root, cwd, skip, () => true);
}

/** Options after which vitest or jest runs no test, and vitest's subcommands that run none. */
const RUNS_NO_TEST = new Set(["-h", "--help", "-v", "--version", "--listTests", "--showConfig", "--init"]);
const VITEST_NO_TEST = new Set(["list", "init"]);
/** What test runners write in the project: snapshots, and the coverage report (a run or its config may ask for one). */
const RUNNER_OUTPUT = (name: string) => name === "__snapshots__" || name.endsWith(".snap") || name === "coverage";
const TEST_FILE = /\.(?:test|spec)\.[cm]?[jt]sx?$/;

/**
 * Ask findings for `vitest …` or `jest …` run in `cwd`: any run may write new snapshots into the
 * `__snapshots__` folder beside a test (`-u` rewrites them all). vitest follows links to folders and test
 * files and writes beside their targets; jest's file map skips linked tests. Either writes through a
 * linked `__snapshots__` folder or `.snap` file, and its coverage report through a linked `coverage`.
 * Where tests are looked for: `--root`/`--dir` (vitest), `--rootDir` (jest), else the folder it runs in.
 */
export function snapshotFindings(runner: "vitest" | "jest", args: readonly ShellWord[], root: string, cwd = root): Finding[] {
  if (args.some((word) => RUNS_NO_TEST.has(word.value))) return [];
  // jest takes any first word as a path pattern: `jest list` runs the tests matching "list".
  if (runner === "vitest" && VITEST_NO_TEST.has(args[0]?.value ?? "")) return [];
  const base = runner === "vitest" ? (cliValue(args, "--dir") ?? cliValue(args, "--root")) : cliValue(args, "--rootDir");
  // A folder linked in counts for vitest when tests would be found in it: a link to a shared folder of
  // sources or docs is no reason to ask on every run.
  const counts: LinkFilter =
    runner === "vitest"
      ? (name, toFolder, real) => RUNNER_OUTPUT(name) || (toFolder ? holdsTests(real) : TEST_FILE.test(name))
      : (name) => RUNNER_OUTPUT(name);
  return linkFindings(runner, [base ?? "."], root, cwd, IGNORED_FOLDERS, counts, "writes snapshots");
}

/** Entries looked at in a folder linked in from outside before taking it to hold tests (it may be a whole disk). */
const MAX_LINKED_ENTRIES = 20_000;

/** Whether a test file or `__snapshots__` folder lies under `folder` (node_modules and .git aside); true when too many entries to tell. */
function holdsTests(folder: string): boolean {
  let walked = 0;
  for (const { entry } of folderEntries(folder, IGNORED_FOLDERS)) {
    if (++walked > MAX_LINKED_ENTRIES) return true;
    if (TEST_FILE.test(entry.name) || entry.name === "__snapshots__") return true;
  }
  return false;
}

/** tsc's options after which it writes no output files. */
const TSC_NO_EMIT = new Set(["--noEmit", "-v", "--version", "-h", "--help", "--all", "--showConfig", "--listFilesOnly"]);
/** What tsc writes: JavaScript, declarations, source maps, build info. */
const TSC_OUTPUT = /\.(?:[cm]?jsx?|d\.[cm]?ts|map|tsbuildinfo)$/;

/** Ask findings for `tsc …` run in `cwd` (of the project at `root`): an emitting run with a link out of the project where output may go. */
export function tscFindings(args: readonly ShellWord[], root: string, cwd = root): Finding[] {
  if (args.some((word) => TSC_NO_EMIT.has(word.value) || word.value === "--noEmit=true")) return [];
  const config = tsconfigFile(args, cwd);
  const option = (key: string) => (config ? compilerOption(config, key, 0) : undefined);
  if (option("noEmit")?.value === true) return [];
  // With an outDir, output goes under it (and declarationDir); without, next to every source.
  const cli = (name: string) => cliValue(args, name);
  const folder = (key: string) => cli(`--${key}`) ?? folderOf(option(key));
  const outDir = folder("outDir");
  const targets = outDir === undefined ? ["."] : [outDir, folder("declarationDir")].filter((f): f is string => f !== undefined);
  return outputFolderFindings("tsc", targets, root, cwd, (name, toFolder) => toFolder || TSC_OUTPUT.test(name));
}

/**
 * Ask findings for `what` writing its output under `targets` (folders relative to `cwd`): one that is,
 * or lies under, a link out of the project, or holds a link out that `counts`.
 */
export function outputFolderFindings(what: string, targets: readonly string[], root: string, cwd: string, counts: LinkFilter = () => true): Finding[] {
  // A folder not made yet is judged by its deepest existing ancestor's real place.
  const outsideAbove = targets.find((target) => !resolveInsideRoot(root, path.resolve(cwd, target)).ok);
  if (outsideAbove !== undefined) {
    const shown = shownInProject(root, path.resolve(cwd, outsideAbove));
    return [{ verdict: "ask", reason: `\`${what}\` writes its output under \`${shown}\`, which leads outside the project` }];
  }
  return linkFindings(what, targets, root, cwd, IGNORED_FOLDERS, counts);
}

/** A path as a finding shows it: relative to the project (with `/`) when inside it, else absolute. */
export function shownInProject(root: string, abs: string): string {
  return isInside(root, abs) ? path.relative(root, abs).split(path.sep).join("/") : abs;
}

/** The value of `--name X` or `--name=X` on a command line (static words only). */
export function cliValue(args: readonly ShellWord[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word.value === name && args[i + 1] && !args[i + 1]!.dynamic) return args[i + 1]!.value;
    if (word.value.startsWith(`${name}=`) && !word.dynamic) return word.value.slice(name.length + 1);
  }
  return undefined;
}

/** The tsconfig tsc reads: `-p X` (a file, or a folder's tsconfig.json), else ./tsconfig.json; null for several. */
function tsconfigFile(args: readonly ShellWord[], cwd: string): string | null {
  const at = args.findIndex((word) => word.value === "-p" || word.value === "--project" || word.value === "-b" || word.value === "--build");
  const named = at === -1 ? [] : args.slice(at + 1).filter((word) => !word.value.startsWith("-"));
  if (named.length > 1 || named.some((word) => word.dynamic)) return null;
  const file = path.resolve(cwd, named[0]?.value ?? ".");
  return file.endsWith(".json") ? file : path.join(file, "tsconfig.json");
}

interface SetOption {
  value: unknown;
  /** The folder of the config that set it: relative paths in it are relative to that. */
  dir: string;
}

const folderOf = (option: SetOption | undefined): string | undefined =>
  typeof option?.value === "string" ? path.resolve(option.dir, option.value) : undefined;

/**
 * `compilerOptions[key]` as `file` and what it `extends` set it (the nearest setting wins); undefined
 * when no config sets it or one it extends cannot be read (a package: the caller takes the safe side).
 */
function compilerOption(file: string, key: string, depth: number): SetOption | undefined {
  if (depth > 10) return undefined;
  let json: unknown;
  try {
    json = parseJsonc(fs.readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
  if (!json || typeof json !== "object") return undefined;
  const { compilerOptions, extends: parents } = json as { compilerOptions?: Record<string, unknown>; extends?: unknown };
  if (compilerOptions && key in compilerOptions) return { value: compilerOptions[key], dir: path.dirname(file) };
  // Later entries of an `extends` list override earlier ones.
  const list = (Array.isArray(parents) ? parents : parents === undefined ? [] : [parents]).reverse();
  for (const parent of list) {
    if (typeof parent !== "string" || !parent.startsWith(".")) return undefined;
    const target = path.resolve(path.dirname(file), parent);
    const found = compilerOption(target.endsWith(".json") ? target : `${target}.json`, key, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
