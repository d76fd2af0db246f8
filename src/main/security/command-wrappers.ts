// Peels wrappers off a simple command (`env`, `timeout 5`, `nice -n 5`, `xargs`, and the package
// runners of package-runners.ts: `npx`, `npm exec`, `pnpm <program>` …) so the program that really runs
// is judged, and finds command strings hidden in arguments (`bash -c`, `eval`, `find -exec`, `git
// rebase --exec` …) for the parser to judge in turn.
import { parseLeadingOptions, type OptionSyntax } from "./cli-options.js";
import { findOptionValues, parseGitArguments } from "./git-arguments.js";
import { PACKAGE_RUNNERS } from "./package-runners.js";
import { NO_PROJECT, shellPayload, unknownOptionConcerns, type Payload, type PeelContext, type Peeled, type Peeler } from "./peeling.js";
import { literalWord, programName, type ShellWord } from "./shell-words.js";
import type { EnvAssignment, Invocation } from "./shell-types.js";

export type { Payload, PeelContext } from "./peeling.js";

/** `env env env … cmd` deeper than this is a cap hit, judged as deny. */
export const MAX_WRAPPER_DEPTH = 8;

export interface ResolvedInvocation {
  invocation: Invocation;
  payloads: Payload[];
  capHit: boolean;
}

const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "yash", "posh", "fish"]);

function transparent(name: string, syntax: OptionSyntax, skipOperands = 0): (args: ShellWord[]) => Peeled | null {
  return (args) => {
    const parsed = parseLeadingOptions(args, syntax);
    const rest = parsed.rest.slice(skipOperands);
    if (rest.length === 0) return null;
    return { layer: { name, kind: "transparent" }, rest, concerns: unknownOptionConcerns(name, parsed) };
  };
}

function peelEnv(args: ShellWord[]): Peeled | null {
  const parsed = parseLeadingOptions(args, {
    shortWithValue: "uCS",
    shortFlags: "i0v",
    longWithValue: ["--unset", "--chdir", "--split-string"],
    longFlags: ["--ignore-environment", "--null", "--debug", "--block-signal", "--default-signal", "--ignore-signal", "--list-signal-handling"],
  });
  const concerns = unknownOptionConcerns("env", parsed);
  if (parsed.options.some((option) => option.name === "-C" || option.name === "--chdir")) {
    concerns.push("`env -C` runs the command in another directory");
  }
  let rest = parsed.rest;
  if (rest[0]?.value === "-" && !rest[0].dynamic) rest = rest.slice(1); // `env -` is `env -i`
  const env: EnvAssignment[] = [];
  while (rest.length > 0 && !rest[0]!.dynamic && /^[^=]+=/.test(rest[0]!.value)) {
    const word = rest[0]!;
    const eq = word.value.indexOf("=");
    env.push({ name: word.value.slice(0, eq), value: { ...word, value: word.value.slice(eq + 1) }, raw: word.raw, via: "env" });
    rest = rest.slice(1);
  }
  const split = parsed.options.find((option) => option.name === "-S" || option.name === "--split-string");
  if (split) {
    // env -S splits its string into words and runs them with the remaining operands appended.
    const words = [split.value, ...rest].filter((word): word is ShellWord => word !== null);
    return {
      layer: { name: "env", kind: "transparent" },
      rest: [],
      env,
      concerns,
      payloads: [shellPayload(words, "env -S", "exec-payload")],
    };
  }
  if (rest.length === 0) return null; // prints the environment; env itself is the program
  return { layer: { name: "env", kind: "transparent" }, rest, env, concerns };
}

function peelXargs(args: ShellWord[]): Peeled | null {
  const parsed = parseLeadingOptions(args, {
    shortWithValue: "aEILnPsd",
    shortOptionalValue: "eil",
    shortFlags: "0prtxo",
    longWithValue: ["--arg-file", "--delimiter", "--max-args", "--max-lines", "--max-procs", "--max-chars", "--process-slot-var"],
    longFlags: ["--null", "--no-run-if-empty", "--verbose", "--interactive", "--exit", "--open-tty", "--show-limits", "--eof", "--replace"],
  });
  // With no command xargs runs echo.
  const rest = parsed.rest.length > 0 ? parsed.rest : [literalWord("echo")];
  return { layer: { name: "xargs", kind: "transparent" }, rest, openEnded: true, concerns: unknownOptionConcerns("xargs", parsed) };
}

function peelNice(args: ShellWord[]): Peeled | null {
  // Old-style `nice -10 cmd` gives the adjustment as the option itself.
  const start = args[0] && !args[0].dynamic && /^-\d+$/.test(args[0].value) ? 1 : 0;
  return transparent("nice", { shortWithValue: "n", longWithValue: ["--adjustment"] })(args.slice(start));
}

function peelTime(args: ShellWord[]): Peeled | null {
  const parsed = parseLeadingOptions(args, {
    shortWithValue: "fo",
    shortFlags: "pvqa",
    longWithValue: ["--format", "--output"],
    longFlags: ["--portability", "--verbose", "--quiet", "--append"],
  });
  if (parsed.rest.length === 0) return null;
  const concerns = unknownOptionConcerns("time", parsed);
  if (parsed.options.some((option) => option.name === "-o" || option.name === "--output")) {
    concerns.push("`time -o` writes a file");
  }
  return { layer: { name: "time", kind: "transparent" }, rest: parsed.rest, concerns };
}

function peelCommand(args: ShellWord[]): Peeled | null {
  const parsed = parseLeadingOptions(args, { shortFlags: "pvV" });
  // `command -v x` only looks x up; nothing runs.
  if (parsed.options.some((option) => option.name === "-v" || option.name === "-V")) return null;
  if (parsed.rest.length === 0) return null;
  return { layer: { name: "command", kind: "transparent" }, rest: parsed.rest, concerns: unknownOptionConcerns("command", parsed) };
}

function peelIonice(args: ShellWord[]): Peeled | null {
  const parsed = parseLeadingOptions(args, { shortWithValue: "cnpPu", shortFlags: "t" });
  if (parsed.options.some((option) => ["-p", "-P", "-u"].includes(option.name)) || parsed.rest.length === 0) return null;
  return { layer: { name: "ionice", kind: "transparent" }, rest: parsed.rest, concerns: unknownOptionConcerns("ionice", parsed) };
}

const PEELERS: Record<string, Peeler> = {
  env: peelEnv,
  xargs: peelXargs,
  timeout: transparent(
    "timeout",
    { shortWithValue: "ks", shortFlags: "v", longWithValue: ["--kill-after", "--signal"], longFlags: ["--preserve-status", "--foreground", "--verbose"] },
    1,
  ),
  nice: peelNice,
  nohup: transparent("nohup", {}),
  stdbuf: transparent("stdbuf", { shortWithValue: "ioe", longWithValue: ["--input", "--output", "--error"] }),
  time: peelTime,
  command: peelCommand,
  builtin: transparent("builtin", {}),
  exec: transparent("exec", { shortWithValue: "a", shortFlags: "cl" }),
  setsid: transparent("setsid", { shortFlags: "cfw", longFlags: ["--ctty", "--fork", "--wait"] }),
  coproc: transparent("coproc", {}),
  ionice: peelIonice,
  // npx, npm exec, pnpm exec / dlx and the names pnpm and yarn run as programs (package-runners.ts).
  ...PACKAGE_RUNNERS,
};

// --- command strings inside arguments -------------------------------------------------------------

function shellCommandString(args: readonly ShellWord[]): ShellWord | null | undefined {
  let hasC = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word.dynamic) return hasC ? word : undefined;
    const text = word.value;
    if (text === "--" || text === "-") return hasC ? args[i + 1] ?? null : undefined;
    if (/^[-+][oO]$/.test(text) || text === "--rcfile" || text === "--init-file") {
      i++;
      continue;
    }
    if (text.startsWith("--")) continue;
    if (/^[-+]/.test(text)) {
      if (text.startsWith("-") && text.includes("c")) hasC = true;
      continue;
    }
    return hasC ? word : undefined;
  }
  return hasC ? null : undefined;
}

function findExecPayloads(args: readonly ShellWord[]): Payload[] {
  const payloads: Payload[] = [];
  for (let i = 0; i < args.length; i++) {
    const action = args[i]!.value;
    if (!["-exec", "-execdir", "-ok", "-okdir"].includes(action)) continue;
    const words: ShellWord[] = [];
    for (i++; i < args.length && args[i]!.value !== ";" && args[i]!.value !== "+"; i++) {
      const word = args[i]!;
      words.push(word.value.includes("{}") ? { ...word, dynamic: true } : word);
    }
    if (words.length > 0) payloads.push({ kind: "argv", words, openEnded: true, origin: `find ${action}`, context: "exec-payload" });
  }
  return payloads;
}

const GIT_TRANSPORT_COMMANDS = new Set(["clone", "fetch", "pull", "push", "ls-remote", "archive", "fetch-pack", "send-pack", "remote"]);
const FILTER_BRANCH_OPTIONS = ["--env-filter", "--tree-filter", "--index-filter", "--parent-filter", "--msg-filter", "--commit-filter", "--tag-name-filter"];

function findGitPayloads(args: readonly ShellWord[]): Payload[] {
  const git = parseGitArguments(args);
  const sub = git.subcommand;
  const asShell = (values: ShellWord[], origin: string): Payload[] => values.map((value) => shellPayload([value], origin, "exec-payload"));
  if (sub === "rebase") return asShell(findOptionValues(git.args, ["--exec"], "x"), "git rebase --exec");
  if (sub === "difftool") return asShell(findOptionValues(git.args, ["--extcmd"], "x"), "git difftool --extcmd");
  if (sub === "filter-branch") return asShell(findOptionValues(git.args, FILTER_BRANCH_OPTIONS, null), "git filter-branch");
  if (sub === "grep") {
    const values = git.args
      .filter((word) => /^(-O.|--open-files-in-pager=)/.test(word.value))
      .map((word) => ({ ...word, value: word.value.replace(/^(-O|--open-files-in-pager=)/, "") }));
    return asShell(values, "git grep -O");
  }
  if (sub !== null && GIT_TRANSPORT_COMMANDS.has(sub)) {
    const values = findOptionValues(git.args, ["--upload-pack", "--receive-pack", "--exec"], sub === "clone" ? "u" : null);
    return asShell(values, `git ${sub} --upload-pack`);
  }
  if (sub === "submodule") {
    const foreach = git.args.findIndex((word) => word.value === "foreach");
    if (foreach === -1) return [];
    let command = git.args.slice(foreach + 1);
    while (command[0] && /^(--recursive|-q|--quiet)$/.test(command[0].value)) command = command.slice(1);
    return command.length > 0 ? [shellPayload(command, "git submodule foreach", "exec-payload")] : [];
  }
  if (sub === "bisect" && git.args[0]?.value === "run" && git.args.length > 1) {
    return [{ kind: "argv", words: git.args.slice(1), openEnded: false, origin: "git bisect run", context: "exec-payload" }];
  }
  return [];
}

function findPayloads(argv: readonly ShellWord[]): Payload[] {
  const program = argv[0] ? programName(argv[0]) : null;
  if (!program) return [];
  let name = program.name;
  let args = argv.slice(1);
  if (name === "busybox" && args[0] && SHELLS.has(args[0].value)) {
    name = args[0].value;
    args = args.slice(1);
  }
  if (SHELLS.has(name)) {
    const command = shellCommandString(args);
    if (command === undefined) return [];
    if (command === null) return [{ kind: "shell", source: "", dynamic: false, origin: `${name} -c`, context: "shell-payload" }];
    return [shellPayload([command], `${name} -c`, "shell-payload")];
  }
  if (name === "eval") {
    const words = args[0]?.value === "--" ? args.slice(1) : args;
    return words.length > 0 ? [shellPayload(words, "eval", "eval")] : [];
  }
  if (name === "find") return findExecPayloads(args);
  if (name === "git") return findGitPayloads(args);
  return [];
}

/**
 * Peels wrappers off `words` and collects the command strings to judge separately. `context` tells
 * package.json scripts from programs (`pnpm build`); without it every such name is judged as a program.
 */
export function resolveInvocation(words: readonly ShellWord[], context: PeelContext = NO_PROJECT): ResolvedInvocation {
  const invocation: Invocation = { argv: [...words], stages: [[...words]], layers: [], envAssignments: [], openEndedArgs: false, concerns: [] };
  const payloads: Payload[] = [];
  for (let depth = 0; ; depth++) {
    const program = invocation.argv[0] ? programName(invocation.argv[0]) : null;
    const peel = program ? PEELERS[program.name] : undefined;
    const peeled = peel?.(invocation.argv.slice(1), context);
    if (!peeled) break;
    if (depth >= MAX_WRAPPER_DEPTH) return { invocation, payloads, capHit: true };
    invocation.layers.push(peeled.layer);
    invocation.argv = peeled.rest;
    if (peeled.rest.length > 0) invocation.stages.push(peeled.rest);
    invocation.envAssignments.push(...(peeled.env ?? []));
    invocation.concerns.push(...(peeled.concerns ?? []));
    if (peeled.openEnded) invocation.openEndedArgs = true;
    payloads.push(...(peeled.payloads ?? []));
  }
  payloads.push(...findPayloads(invocation.argv));
  return { invocation, payloads, capHit: false };
}
