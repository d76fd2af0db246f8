// Package scripts write through symlinks too: `npm run lint -- --fix` runs the project's `eslint src`
// with `--fix`, and `npm run build` its `tsc`. Scripts are the project's own code and run as such, but
// an `eslint --fix`, an emitting `tsc`, a test runner or a bundler in one is looked at as a typed one is, with
// the arguments the command line passes on and in the folder of the script's package, along with its
// pre- and post- scripts; installing, packing and versioning run lifecycle scripts (`prepare`, `version`)
// by themselves. Which package's script runs depends on the folder and on flags (`-w`,
// `--filter`, `yarn workspace W`), so every package of the project with a script of that name counts:
// the stricter reading.
import path from "node:path";
import { parseLeadingOptions, type OptionSyntax } from "./cli-options.js";
import { displayInline } from "./hidden-characters.js";
import { splitLeadingCd } from "./leading-cd.js";
import { linkedWriteFindings } from "./linked-write-programs.js";
import { npmCommand } from "./npm-commands.js";
import { NPX_SYNTAX, PACKAGE_MANAGER_GLOBALS, PNPM_GLOBALS, PNPM_SYNTAX, YARN_GLOBALS, YARN_RUN_SYNTAX } from "./package-runners.js";
import { projectScripts, scriptTable, type ScriptBody } from "./package-scripts.js";
import { isFolder, isInside } from "./path-guard.js";
import { parseShell } from "./shell-parser.js";
import { programName, type ShellWord } from "./shell-words.js";
import type { Finding } from "./shell-types.js";

/** Scripts running scripts (`"fix": "npm run lint -- --fix"`) are followed this deep. */
const MAX_SCRIPT_DEPTH = 3;

/** The script a package-manager command line runs and the words it passes on to it. */
interface ScriptRun {
  name: string;
  passed: readonly ShellWord[];
}

/** Commands that run the script of their own name (`npm test` runs `scripts.test`). */
const LIFECYCLE = new Map([
  ["test", "test"], ["t", "test"], ["tst", "test"], ["start", "start"], ["stop", "stop"], ["restart", "restart"],
]);
/** bun's own commands, which `bun NAME` runs instead of a script called NAME. */
const BUN_COMMANDS = new Set([
  "run", "test", "x", "exec", "install", "i", "add", "a", "remove", "rm", "update", "outdated", "link", "unlink",
  "publish", "pm", "build", "init", "create", "upgrade", "repl", "patch", "audit", "info", "why",
]);

const withoutLeadingDashes = (words: readonly ShellWord[]): readonly ShellWord[] => (words[0]?.value === "--" ? words.slice(1) : words);

/** The first operand as a static name, or null. */
const staticName = (word: ShellWord | undefined): string | null => (word && !word.dynamic && !word.glob ? word.value : null);

/** `npm run X …` and `npm test …`: npm passes a script its operands and what follows `--`, not options before it (npm's config). */
function npmRun(args: readonly ShellWord[]): ScriptRun | null {
  const [sub, ...rest] = parseLeadingOptions(args, NPX_SYNTAX).rest;
  const command = staticName(sub) === null ? null : npmCommand(sub!.value);
  let name: string | null = null;
  let after: readonly ShellWord[] = [];
  if (command === "run") {
    const [target, ...words] = parseLeadingOptions(rest, NPX_SYNTAX).rest;
    [name, after] = [staticName(target), words];
  } else if (command !== null && LIFECYCLE.has(command)) [name, after] = [command, rest];
  if (name === null) return null;
  const dashes = after.findIndex((word) => word.value === "--");
  const before = dashes === -1 ? after : after.slice(0, dashes);
  return { name, passed: [...before.filter((word) => !word.value.startsWith("-")), ...(dashes === -1 ? [] : after.slice(dashes + 1))] };
}

/** pnpm, yarn and bun pass a script everything after its name; `run` may be left out when a script has the name. */
function managerRun(args: readonly ShellWord[], globals: OptionSyntax, runSyntax: OptionSyntax, implicit: (name: string) => boolean): ScriptRun | null {
  const [sub, ...rest] = parseLeadingOptions(args, globals).rest;
  const first = staticName(sub);
  if (first === "run" || first === "run-script") {
    const [target, ...words] = parseLeadingOptions(rest, runSyntax).rest;
    const name = staticName(target);
    return name === null ? null : { name, passed: withoutLeadingDashes(words) };
  }
  if (first === null) return null;
  const name = LIFECYCLE.get(first) ?? first;
  return implicit(name) ? { name, passed: withoutLeadingDashes(rest) } : null;
}

function scriptRun(manager: string, args: readonly ShellWord[], hasScript: (name: string) => boolean): ScriptRun | null {
  switch (manager) {
    case "npm":
      return npmRun(args);
    case "pnpm":
      return managerRun(args, PNPM_GLOBALS, PNPM_SYNTAX, hasScript);
    case "yarn":
      return managerRun(args, YARN_GLOBALS, YARN_RUN_SYNTAX, hasScript);
    case "bun":
      return managerRun(args, PACKAGE_MANAGER_GLOBALS, NPX_SYNTAX, (name) => !BUN_COMMANDS.has(name) && hasScript(name));
    default:
      return null;
  }
}

/** Install-time scripts of the project's own packages (npm, pnpm and yarn run them after installing). */
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "preprepare", "prepare", "postprepare"];
/** Package-manager commands that run the project's lifecycle scripts, by the scripts they run. */
const LIFECYCLE_SCRIPTS: Record<string, readonly string[]> = {
  install: INSTALL_SCRIPTS, ci: INSTALL_SCRIPTS, rebuild: INSTALL_SCRIPTS,
  version: ["preversion", "version", "postversion"],
  pack: ["prepack", "prepare", "postpack"],
};

/**
 * The lifecycle scripts a command runs without naming them (`npm ci` runs `prepare`, `npm version` the
 * `version` scripts): their names, or none. A bare `yarn` installs; `--ignore-scripts` runs none.
 */
function lifecycleScripts(manager: string, args: readonly ShellWord[]): readonly string[] {
  const globals = manager === "npm" ? NPX_SYNTAX : manager === "pnpm" ? PNPM_GLOBALS : manager === "yarn" ? YARN_GLOBALS : null;
  if (!globals || args.some((word) => word.value === "--ignore-scripts")) return [];
  const sub = parseLeadingOptions(args, globals).rest[0];
  if (sub === undefined) return manager === "yarn" ? INSTALL_SCRIPTS : [];
  const name = staticName(sub);
  if (name === null) return [];
  const command = manager === "npm" ? npmCommand(name) : name === "i" || name === "add" ? "install" : name;
  return (command !== null && LIFECYCLE_SCRIPTS[command]) || [];
}

/**
 * Ask findings for a package manager (`manager`, with `args`) run in `cwd` of the project at `root`:
 * a script it runs that writes through a symlink out of the project.
 */
export function scriptWriteFindings(manager: string, args: readonly ShellWord[], root: string, cwd = root, depth = 0): Finding[] {
  if (depth >= MAX_SCRIPT_DEPTH) return [];
  // Read only for a line that may run a script (not for `npx …` or `npm install`).
  let scripts: Map<string, ScriptBody[]> | null = null;
  const table = () => (scripts ??= scriptTable(cwd));
  const run = scriptRun(manager, args, (name) => table().has(name));
  const runs: (readonly [string, readonly ShellWord[]])[] = run
    ? [[`pre${run.name}`, []], [run.name, run.passed], [`post${run.name}`, []]]
    : lifecycleScripts(manager, args).map((name) => [name, []] as const);
  const findings: Finding[] = [];
  for (const [name, passed] of runs) {
    for (const { folder, body } of table().get(name) ?? []) {
      const where = path.join(cwd, folder);
      const line = [body, ...passed.map((word) => word.raw)].join(" ");
      const manifest = path.relative(root, path.join(where, "package.json")).split(path.sep).join("/");
      for (const finding of lineFindings(line, root, where, depth)) {
        findings.push({ verdict: finding.verdict, reason: `script \`${name}\` of \`${manifest}\` runs \`${displayInline(line)}\`: ${finding.reason}` });
      }
    }
  }
  return findings;
}

/**
 * The linked-write findings of every command in a script's line, wrappers (`npx eslint`) peeled; a line
 * that starts `cd FOLDER &&` (`"lint:docs": "cd docs && eslint --fix ."`) is read in FOLDER, and also
 * where it started when the rest may run after a failed cd.
 */
function lineFindings(line: string, root: string, cwd: string, depth: number): Finding[] {
  const cd = splitLeadingCd(line);
  if (cd) {
    const folder = path.resolve(cwd, cd.folder);
    const there = isInside(root, folder) && isFolder(folder) ? lineFindings(cd.rest, root, folder, depth) : [];
    return cd.exact ? there : [...there, ...lineFindings(cd.rest, root, cwd, depth)];
  }
  const findings: Finding[] = [];
  for (const command of parseShell(line, projectScripts(cwd)).commands) {
    for (const stage of command.invocation.stages) {
      const program = stage[0] ? programName(stage[0])?.name : undefined;
      const args = stage.slice(1);
      if (program !== undefined) findings.push(...linkedWriteFindings(program, args, root, cwd), ...scriptWriteFindings(program, args, root, cwd, depth + 1));
    }
  }
  return findings;
}
