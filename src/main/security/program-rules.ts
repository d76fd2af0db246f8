// Rules for whitelisted programs whose arguments can make them run something else: git (config,
// -c, -C, hooks), the npm family (script-shell, node-options, config writes) and node/tsx (inline
// code). Also which commands execute files the model may have changed (write-then-execute taint).
import { parseGitArguments } from "./git-arguments.js";
import { programName, type ShellWord } from "./shell-words.js";

export interface Finding {
  verdict: "deny" | "ask";
  reason: string;
}

const GIT_CONFIG_WRITE_OPTIONS = new Set(["--add", "--replace-all", "--unset", "--unset-all", "--rename-section", "--remove-section", "-e", "--edit"]);
const GIT_CONFIG_READ_OPTIONS = new Set(["--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "-l", "--list"]);
const GIT_CONFIG_VALUE_OPTIONS = new Set(["-f", "--file", "--blob", "--type", "--default", "--comment", "--value"]);
const GIT_CONFIG_WRITE_SUBCOMMANDS = new Set(["set", "unset", "rename-section", "remove-section", "edit"]);

/** `git config` that only reads (`--get`, `--list`, `get`, a lone key); anything else may write. */
function isReadOnlyGitConfig(args: readonly ShellWord[]): boolean {
  if (args.some((word) => word.dynamic || word.glob)) return false;
  const values = args.map((word) => word.value);
  const operands: string[] = [];
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    const name = value.split("=", 1)[0]!;
    if (GIT_CONFIG_WRITE_OPTIONS.has(name)) return false;
    if (GIT_CONFIG_VALUE_OPTIONS.has(value)) i++;
    else if (!value.startsWith("-")) operands.push(value);
  }
  if (operands[0] === "get" || operands[0] === "list") return true;
  if (operands[0] !== undefined && GIT_CONFIG_WRITE_SUBCOMMANDS.has(operands[0])) return false;
  return values.some((value) => GIT_CONFIG_READ_OPTIONS.has(value.split("=", 1)[0]!)) || operands.length <= 1;
}

// Subcommands that run programs, serve or send data, or touch credentials.
const GIT_ASK_SUBCOMMANDS = new Set([
  "send-email", "daemon", "instaweb", "web--browse", "imap-send", "credential", "credential-store", "credential-cache",
  "upload-pack", "receive-pack", "shell", "p4", "svn", "cvsimport", "cvsserver", "archimport", "quiltimport",
  "http-backend", "http-push", "remote-ext", "remote-fd", "hook", "filter-branch", "mergetool", "difftool",
]);

function gitFindings(args: readonly ShellWord[]): Finding[] {
  const findings: Finding[] = [];
  const git = parseGitArguments(args);
  for (const option of git.globals) {
    if (option.name === "-c" || option.name === "--config-env") {
      findings.push({ verdict: "deny", reason: `\`git ${option.name}\` sets configuration that can make git run commands (core.pager, core.fsmonitor, alias.* …)` });
    } else if (option.name === "--exec-path" && option.value) {
      findings.push({ verdict: "deny", reason: "`git --exec-path=…` changes where git finds the programs it runs" });
    } else if (["-C", "--git-dir", "--work-tree"].includes(option.name)) {
      findings.push({ verdict: "ask", reason: `\`git ${option.name}\` points git at another repository, whose config could run commands` });
    }
  }
  if (git.subcommand === "config" && !isReadOnlyGitConfig(git.args)) {
    findings.push({ verdict: "deny", reason: "`git config` can set keys that make git run commands (core.fsmonitor, core.pager, alias.* …)" });
  }
  if (git.subcommand !== null && GIT_ASK_SUBCOMMANDS.has(git.subcommand)) {
    findings.push({ verdict: "ask", reason: `\`git ${git.subcommand}\` can run other programs or send data` });
  }
  const writesFile =
    git.args.some((word) => /^--output(-directory)?(=|$)/.test(word.value)) ||
    ((git.subcommand === "archive" || git.subcommand === "format-patch") && git.args.some((word) => /^-o/.test(word.value)));
  if (writesFile) findings.push({ verdict: "ask", reason: `\`git ${git.subcommand}\` writes a file named on the command line` });
  if ((git.subcommand === "clone" || git.subcommand === "init") && git.args.some((word) => /^--template(=|$)/.test(word.value))) {
    findings.push({ verdict: "ask", reason: "`--template` installs hooks from a directory into the new repository" });
  }
  return findings;
}

const NPM_FAMILY = new Set(["npm", "pnpm", "yarn", "npx", "pnpx", "bun", "bunx"]);
const NPM_DANGEROUS_OPTIONS = ["--script-shell", "--node-options", "--userconfig", "--globalconfig", "--shell", "--git", "--editor", "--browser", "--viewer", "--init-module", "--onload-script"];

function operandsOf(args: readonly ShellWord[]): string[] {
  return args.filter((word) => !word.value.startsWith("-")).map((word) => word.value);
}

function npmFindings(name: string, args: readonly ShellWord[]): Finding[] {
  const findings: Finding[] = [];
  for (const word of args) {
    if (word.value === "--") break;
    const option = word.value.split("=", 1)[0]!;
    // npm expands abbreviations (`--script-sh`), so a long enough prefix counts.
    const hit = option.startsWith("--config.") ? option : NPM_DANGEROUS_OPTIONS.find((danger) => option.length >= 5 && danger.startsWith(option));
    if (hit) findings.push({ verdict: "deny", reason: `\`${name} ${option}\` changes which programs ${name} runs` });
  }
  const [sub, action] = operandsOf(args);
  if (sub === "set" || ((sub === "config" || sub === "c") && ["set", "delete", "rm", "edit", "fix"].includes(action ?? ""))) {
    findings.push({ verdict: "deny", reason: `\`${name} config\` writes settings that can change what ${name} runs (script-shell, node-options …)` });
  }
  return findings;
}

const NODE_VALUE_OPTIONS = new Set([
  "-e", "--eval", "-p", "--print", "-r", "--require", "--import", "--loader", "--experimental-loader", "-C",
  "--conditions", "--input-type", "--env-file", "--title", "--tsconfig",
]);

function nodeFindings(name: string, args: readonly ShellWord[]): Finding[] {
  const findings: Finding[] = [];
  let script: string | null = null;
  let inline = false;
  let noScriptNeeded = false;
  for (let i = 0; i < args.length && script === null; i++) {
    const value = args[i]!.value;
    const option = value.split("=", 1)[0]!;
    if (!value.startsWith("-") || value === "-") script = value;
    else if (option === "--eval" || option === "--print" || (/^-[a-zA-Z]+$/.test(value) && /[ep]/.test(value))) inline = true;
    else if (/^--env-file/.test(option)) findings.push({ verdict: "ask", reason: `\`${name} --env-file\` loads environment variables (NODE_OPTIONS among them) from a file` });
    else if (/^(-v|--version|-h|--help|--v8-options|--test|--run|-c|--check)$/.test(option)) noScriptNeeded = true;
    if (NODE_VALUE_OPTIONS.has(value)) i++;
  }
  if (inline) findings.push({ verdict: "ask", reason: `\`${name} -e\` runs inline code that cannot be judged` });
  else if (script === "-" || (script === null && !noScriptNeeded)) {
    findings.push({ verdict: "ask", reason: `\`${name}\` without a script runs code read from stdin` });
  }
  return findings;
}

/** Deny/ask findings for one argv (one wrapper level). */
export function programFindings(argv: readonly ShellWord[]): Finding[] {
  const program = argv[0] ? programName(argv[0]) : null;
  if (!program) return [];
  const args = argv.slice(1);
  if (program.name === "git") return gitFindings(args);
  if (NPM_FAMILY.has(program.name)) return npmFindings(program.name, args);
  if (program.name === "node" || program.name === "tsx") return nodeFindings(program.name, args);
  return [];
}

// --- write-then-execute ---------------------------------------------------------------------------

/** Programs that load project config or scripts as code. `tsc` is not one: tsconfig cannot run code. */
const TAINT_RUNNERS = new Set([
  "vitest", "jest", "eslint", "prettier", "mocha", "ava", "tap", "c8", "nyc", "playwright", "cypress", "webpack",
  "vite", "rollup", "babel", "next", "nuxt", "astro", "turbo", "nx", "lerna", "lint-staged", "husky", "stylelint",
  "commitlint", "tsup", "make", "gmake", "ts-node", "npx", "pnpx", "bunx", "gulp", "grunt", "karma", "storybook",
  "react-scripts", "vue-cli-service",
]);
const PACKAGE_MANAGERS = new Set(["npm", "pnpm", "yarn", "bun"]);
/** Package-manager subcommands that only read and run no scripts. */
const PACKAGE_MANAGER_READS = new Set(["view", "info", "show", "v", "ls", "list", "ll", "la", "outdated", "why", "explain", "help", "search", "ping", "whoami", "root", "prefix", "-v", "--version", "-h", "--help"]);
/** git subcommands that run hooks (core.hooksPath may point at `.husky/`). */
const GIT_HOOK_SUBCOMMANDS = new Set(["commit", "merge", "rebase", "pull", "push", "am", "checkout", "switch", "cherry-pick", "revert", "clone", "worktree", "gc", "hook"]);

/** Whether this argv runs package.json scripts, tool configs or hooks. */
export function runsProjectCode(argv: readonly ShellWord[]): boolean {
  const program = argv[0] ? programName(argv[0]) : null;
  if (!program) return false;
  const args = argv.slice(1);
  if (TAINT_RUNNERS.has(program.name)) return true;
  if (PACKAGE_MANAGERS.has(program.name)) {
    const first = args.find((word) => !word.value.startsWith("-")) ?? args[0];
    // A bare `yarn` / `bun` installs, which runs lifecycle scripts.
    if (first === undefined) return program.name === "yarn" || program.name === "bun";
    return !PACKAGE_MANAGER_READS.has(first.value);
  }
  if (program.name === "git") {
    const sub = parseGitArguments(args).subcommand;
    return sub !== null && GIT_HOOK_SUBCOMMANDS.has(sub);
  }
  if (program.name === "node") return args.some((word) => /^--(test|run)(=|$)/.test(word.value));
  return false;
}
