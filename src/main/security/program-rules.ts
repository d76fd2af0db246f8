// Rules for whitelisted programs whose arguments can make them run something else or lose work (or
// write where the line does not show, linked-write-programs.ts, script-writes.ts): git
// (git-rules.ts), the npm family (package-manager-rules.ts) and node/tsx (inline code, stdin). Also
// which commands execute files the model may have changed (write-then-execute taint).
import { parseGitArguments } from "./git-arguments.js";
import { linkedWriteFindings } from "./linked-write-programs.js";
import { gitFindings } from "./git-rules.js";
import { NPM_FAMILY, packageManagerFindings } from "./package-manager-rules.js";
import { READ_ONLY_PROGRAMS, readOnlyFindings } from "./read-only-programs.js";
import { scriptWriteFindings } from "./script-writes.js";
import { programName, type ShellWord } from "./shell-words.js";
import type { Finding } from "./shell-types.js";

export type { Finding } from "./shell-types.js";

const NODE_VALUE_OPTIONS = new Set([
  "-e", "--eval", "-p", "--print", "-r", "--require", "--import", "--loader", "--experimental-loader", "-C",
  "--conditions", "--input-type", "--env-file", "--title", "--tsconfig", "--test-reporter",
]);

/** A script path that is the command's input, not a file (`node /dev/stdin <<< '…'`). */
const STDIN_SCRIPT = /^(?:\/dev\/(?:stdin|tty|fd\/\d+)|\/proc\/(?:self|thread-self|\d+)\/fd\/\d+)$/;

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
    else if (/^--inspect/.test(option)) findings.push({ verdict: "ask", reason: `\`${name} ${option}\` opens a debugger port through which anyone who reaches it runs code` });
    else if (/^(--import|--require|-r|--loader|--experimental-loader|--test-reporter)$/.test(option)) {
      // Code given as a data: or remote URL instead of a file in the project cannot be judged.
      const given = value.includes("=") ? value.slice(value.indexOf("=") + 1) : (args[i + 1]?.value ?? "");
      if (/^(data|https?|file):/i.test(given) || args[i + 1]?.dynamic) findings.push({ verdict: "ask", reason: `\`${name} ${option} ${given.slice(0, 40)}\` loads code that cannot be judged` });
    }
    else if (/^(-v|--version|-h|--help|--v8-options|--test|--run|-c|--check)$/.test(option)) noScriptNeeded = true;
    if (NODE_VALUE_OPTIONS.has(value)) i++;
  }
  if (inline) findings.push({ verdict: "ask", reason: `\`${name} -e\` runs inline code that cannot be judged` });
  else if (script !== null && STDIN_SCRIPT.test(script)) {
    findings.push({ verdict: "ask", reason: `\`${name} ${script}\` runs code read from stdin or a file descriptor` });
  } else if (script === "-" || (script === null && !noScriptNeeded)) {
    findings.push({ verdict: "ask", reason: `\`${name}\` without a script runs code read from stdin` });
  }
  return findings;
}

/** vitest's servers: its API and UI listen for connections (the API has run code for whoever reached it). */
function vitestFindings(args: readonly ShellWord[]): Finding[] {
  const server = args.find((word) => /^--(api|ui|open|browser)(\.|=|$)/.test(word.value));
  return server ? [{ verdict: "ask", reason: `\`vitest ${server.value.split("=", 1)[0]}\` starts a server or a browser` }] : [];
}

/**
 * jest takes its config, and options such as `--transform` or `--projects`, as inline JSON: the module
 * paths inside (`globalSetup`, `testRunner`, `transform` …) are not words the path checks can see.
 */
function jestFindings(args: readonly ShellWord[]): Finding[] {
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.value;
    if (text === "--") break;
    const eq = text.indexOf("=");
    // `--config={…}`, or `-c {…}` / `--config {…}` (a flag's next word is taken for its value: the safe side).
    const [option, value] = text.startsWith("-") ? (eq === -1 ? [null, null] : [text.slice(0, eq), text.slice(eq + 1)]) : [args[i - 1]?.value ?? "", text];
    if (option?.startsWith("-") && /^\s*[{[]/.test(value ?? "")) {
      return [{ verdict: "ask", reason: `\`jest ${option}\` takes inline JSON, whose module paths are not checked` }];
    }
  }
  return [];
}

/** Deny/ask findings for one argv (one wrapper level); `root` is the project root. */
export function programFindings(argv: readonly ShellWord[], root: string): Finding[] {
  const program = argv[0] ? programName(argv[0]) : null;
  if (!program) return [];
  const args = argv.slice(1);
  if (program.name === "git") return gitFindings(args, root);
  if (NPM_FAMILY.has(program.name)) return [...packageManagerFindings(program.name, args), ...scriptWriteFindings(program.name, args, root)];
  if (program.name === "node" || program.name === "tsx") return nodeFindings(program.name, args);
  if (READ_ONLY_PROGRAMS.has(program.name)) return readOnlyFindings(program.name, args);
  if (program.name === "vitest") return [...vitestFindings(args), ...linkedWriteFindings("vitest", args, root)];
  if (program.name === "jest") return [...jestFindings(args), ...linkedWriteFindings("jest", args, root)];
  return linkedWriteFindings(program.name, args, root);
}

// --- write-then-execute ---------------------------------------------------------------------------

/**
 * Programs that load project config or scripts as code, or write where their config says: `tsc` runs no
 * code, but a tsconfig's `outDir`/`declarationDir` can point anywhere, outside the project too.
 */
const TAINT_RUNNERS = new Set([
  "tsc", "vitest", "jest", "eslint", "prettier", "mocha", "ava", "tap", "c8", "nyc", "playwright", "cypress", "webpack",
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
