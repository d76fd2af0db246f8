// How the package managers run programs rather than scripts, so the program is what gets judged:
// npx and `npm exec` run a package's binary, `pnpm exec`/`pnpm dlx`/`yarn exec`/`yarn dlx`/`bun x`
// likewise. pnpm and yarn also run a name that is neither one of their commands nor a package.json
// script: pnpm as `pnpm exec` would (`pnpm bash -c …`), yarn as a dependency's binary (`yarn rimraf .`,
// `yarn run rimraf .`). Prefixes that only choose where a command runs (`pnpm recursive`, `yarn
// workspace W`, `yarn workspaces foreach`) are peeled, and the command after them is judged as typed.
// Options written before the command count for it too (`pnpm -c exec 'rm -rf .'`, `npm -c '…' exec`).
import { parseLeadingOptions, type OptionSyntax, type ParsedOptions } from "./cli-options.js";
import { npmCommand } from "./npm-commands.js";
import { PNPM_COMMANDS, YARN_COMMANDS } from "./package-manager-commands.js";
import { shellPayload, unknownOptionConcerns, type PeelContext, type Peeled, type Peeler } from "./peeling.js";
import { literalWord, type ShellWord } from "./shell-words.js";
import type { WrapperLayer } from "./shell-types.js";

const NPM_VALUE_OPTIONS = [
  "--package", "--call", "--workspace", "--registry", "--cache", "--prefix", "--loglevel", "--userconfig",
  "--globalconfig", "--script-shell", "--node-options", "--filter", "--dir", "--cwd", "--allow-build",
];
export const NPX_SYNTAX: OptionSyntax = {
  shortWithValue: "pcw",
  shortFlags: "yqs",
  longWithValue: NPM_VALUE_OPTIONS,
  longFlags: [
    "--yes", "--no", "--no-install", "--ignore-existing", "--quiet", "--silent", "--prefer-offline", "--prefer-online",
    "--offline", "--workspaces", "--include-workspace-root", "--no-yes", "--bun",
  ],
};

/** `pnpm exec`, `pnpm dlx` and pnpx: `-c`/`--shell-mode` is a flag there, and the operands form the shell line. */
export const PNPM_SYNTAX: OptionSyntax = {
  shortWithValue: "pwCF",
  shortFlags: "yqsrc",
  longWithValue: NPM_VALUE_OPTIONS,
  longFlags: [...(NPX_SYNTAX.longFlags ?? []), "--shell-mode", "--recursive", "--parallel", "--workspace-root"],
};

/** Options pnpm takes before its command (`-w` is `--workspace-root` here, not npm's `--workspace`). */
export const PNPM_GLOBALS: OptionSyntax = {
  shortWithValue: "CF",
  shortFlags: "rwcsgyDPOq",
  longWithValue: [
    "--filter", "--filter-prod", "--dir", "--prefix", "--loglevel", "--reporter", "--workspace-concurrency", "--resume-from",
    "--test-pattern", "--changed-files-ignore-pattern", "--registry", "--store-dir", "--virtual-store-dir", "--modules-dir",
    "--lockfile-dir", "--cache-dir", "--config-dir", "--global-dir", "--node-linker", "--npm-path", "--use-node-version",
    "--script-shell", "--node-options", "--userconfig", "--allow-build", "--package",
  ],
  longFlags: [
    "--recursive", "--workspace-root", "--silent", "--stream", "--parallel", "--aggregate-output", "--if-present", "--bail",
    "--sort", "--reverse", "--report-summary", "--fail-if-no-match", "--include-workspace-root", "--ignore-workspace",
    "--use-stderr", "--offline", "--prefer-offline", "--frozen-lockfile", "--prod", "--production", "--dev", "--global",
    "--shell-mode", "--color", "--yes", "--force", "--ignore-scripts", "--verbose", "--json", "--parseable", "--save-dev",
    "--save-prod", "--save-optional", "--save-exact", "--save-peer", "--lockfile-only", "--fix-lockfile",
    "--shamefully-hoist", "--strict-peer-dependencies", "--workspace",
  ],
};

/** Options yarn 1 takes before its command (yarn 4 only `--cwd`). */
export const YARN_GLOBALS: OptionSyntax = {
  shortFlags: "sv",
  longWithValue: [
    "--cwd", "--registry", "--cache-folder", "--modules-folder", "--network-timeout", "--mutex", "--use-yarnrc",
    "--global-folder", "--link-folder", "--preferred-cache-folder", "--otp", "--network-concurrency", "--proxy",
    "--https-proxy", "--cafile", "--child-concurrency",
  ],
  longFlags: [
    "--verbose", "--offline", "--prefer-offline", "--silent", "--json", "--ignore-scripts", "--frozen-lockfile",
    "--production", "--non-interactive", "--ignore-engines", "--ignore-optional", "--ignore-platform", "--pure-lockfile",
    "--emoji", "--har", "--check-files", "--flat", "--force", "--focus", "--immutable", "--immutable-cache",
    "--skip-integrity-check", "--update-checksums", "--strict-semver",
  ],
};

/** `yarn workspaces foreach [options] <command> …` (yarn 4). */
const FOREACH_SYNTAX: OptionSyntax = {
  shortWithValue: "j",
  shortFlags: "ARWvpitn",
  longWithValue: ["--from", "--jobs", "--include", "--exclude"],
  longFlags: [
    "--all", "--recursive", "--worktree", "--verbose", "--parallel", "--interlaced", "--topological", "--topological-dev",
    "--no-private", "--since", "--dry-run",
  ],
};

/** `yarn run [options] <name>`; `--inspect` and `--require` stay unknown, so they are asked about. */
export const YARN_RUN_SYNTAX: OptionSyntax = { shortFlags: "TB", longFlags: ["--top-level", "--binaries-only"] };

export const PACKAGE_MANAGER_GLOBALS: OptionSyntax = {
  shortWithValue: "wCF",
  longWithValue: NPM_VALUE_OPTIONS,
};

/** `vitest@1.2` → `vitest`; `@scope/pkg@2` → `@scope/pkg`; paths, URLs and git specs → null. */
export function packageBinaryName(spec: string): string | null {
  const match = /^(@[a-z0-9][\w.-]*\/)?([a-z0-9][\w.-]*)(@[^/:\s]*)?$/i.exec(spec);
  return match ? `${match[1] ?? ""}${match[2]}` : null;
}

/** Leading options as a package manager reads them: `--no-…` only negates a flag, so it is never unknown. */
function leadingOptions(args: readonly ShellWord[], syntax: OptionSyntax): ParsedOptions {
  const parsed = parseLeadingOptions(args, syntax);
  return { ...parsed, unknown: parsed.unknown.filter((option) => !option.startsWith("--no-")) };
}

/** Options given before the command and after it, as one list (they mean the same to npm and pnpm). */
function merged(before: ParsedOptions, after: ParsedOptions): ParsedOptions {
  return { options: [...before.options, ...after.options], unknown: [...before.unknown, ...after.unknown], rest: after.rest };
}

/** `npx --no` (`--no-install`, `--yes=false`): npm's runners fail rather than fetch a missing package (the last of --yes/--no wins). */
function refusesInstall(name: string, parsed: ParsedOptions): boolean {
  if (name !== "npx" && name !== "npm exec") return false;
  let refuses = false;
  for (const option of parsed.options) {
    if (["--no", "--no-install", "--no-yes"].includes(option.name)) refuses = true;
    else if (option.name === "--yes" || option.name === "-y") refuses = option.value?.value === "false";
  }
  return refuses;
}

/**
 * A package runner: the first operand is a package spec (`npx vitest@1`) or, for `pnpm exec` and
 * `yarn exec`, a command name. Its binary becomes the program that is judged.
 */
function runPackage(name: string, parsed: ParsedOptions, operand: "package" | "command"): Peeled | null {
  const concerns = unknownOptionConcerns(name, parsed);
  const layer: WrapperLayer = { name, kind: "runner", ...(refusesInstall(name, parsed) ? { noInstall: true } : {}) };
  const call = parsed.options.find((option) => ["-c", "--call", "--shell-mode"].includes(option.name));
  if (call) {
    // npx takes the command line as the option's value; pnpm's `-c` is a flag and the operands form it.
    const words = call.value ? [call.value] : parsed.rest;
    return { layer, rest: [], concerns, payloads: [shellPayload(words, `${name} -c`, "exec-payload")] };
  }
  const installs = parsed.options.filter((option) => option.name === "-p" || option.name === "--package");
  for (const option of installs) concerns.push(`\`${name}\` installs package \`${option.value?.value ?? "?"}\` to run a binary from it`);
  const [spec, ...args] = parsed.rest;
  if (!spec) return null;
  if (spec.dynamic || spec.glob) return { layer, rest: parsed.rest, concerns };
  const binary = operand === "command" ? spec.value : packageBinaryName(spec.value);
  if (binary === null) {
    concerns.push(`\`${name}\` runs \`${spec.value}\`, a package given by path, URL or git spec`);
    return { layer, rest: parsed.rest, concerns };
  }
  return { layer, rest: [{ ...spec, value: binary }, ...args], concerns };
}

/** A prefix that only chooses where the command after it runs: `manager <command …>` is judged next. */
function prefix(name: string, manager: string, words: readonly ShellWord[], concerns: string[] = []): Peeled | null {
  return words.length > 0 ? { layer: { name, kind: "transparent" }, rest: [literalWord(manager), ...words], concerns } : null;
}

/** The command a manager runs at `rest` (after `globals`, written as `before`), or null when it is its own command or a script. */
type CommandReader = (before: readonly ShellWord[], globals: ParsedOptions, rest: readonly ShellWord[], context: PeelContext) => Peeled | null;

function pnpmCommand(before: readonly ShellWord[], globals: ParsedOptions, rest: readonly ShellWord[], context: PeelContext): Peeled | null {
  const sub = rest[0];
  if (!sub || sub.dynamic || sub.glob) return null;
  const name = sub.value;
  if (name === "exec" || name === "dlx") {
    return runPackage(`pnpm ${name}`, merged(globals, leadingOptions(rest.slice(1), PNPM_SYNTAX)), name === "exec" ? "command" : "package");
  }
  // `pnpm recursive <command>` is `pnpm -r <command>`.
  if (name === "recursive" || name === "m" || name === "multi") return prefix("pnpm recursive", "pnpm", [...before, ...rest.slice(1)]);
  if (name === "with") {
    const version = rest[1];
    const concerns = version?.value === "current" ? [] : [`\`pnpm with ${version?.raw ?? ""}\` downloads that version of pnpm and runs it`];
    return prefix("pnpm with", "pnpm", [...before, ...rest.slice(2)], concerns);
  }
  if (PNPM_COMMANDS.has(name) || context.isScript(name)) return null;
  return runPackage("pnpm exec", { ...globals, rest: [...rest] }, "command");
}

function yarnCommand(before: readonly ShellWord[], globals: ParsedOptions, rest: readonly ShellWord[], context: PeelContext): Peeled | null {
  const sub = rest[0];
  if (!sub || sub.dynamic || sub.glob) return null;
  const name = sub.value;
  if (name === "exec" || name === "dlx") {
    return runPackage(`yarn ${name}`, merged(globals, leadingOptions(rest.slice(1), NPX_SYNTAX)), name === "exec" ? "command" : "package");
  }
  if (name === "workspace") return rest[1] ? prefix("yarn workspace", "yarn", [...before, ...rest.slice(2)]) : null;
  if (name === "workspaces" && rest[1]?.value === "foreach") {
    const parsed = leadingOptions(rest.slice(2), FOREACH_SYNTAX);
    return prefix("yarn workspaces foreach", "yarn", [...before, ...parsed.rest], unknownOptionConcerns("yarn workspaces foreach", parsed));
  }
  // yarn 1: `yarn workspaces run <name>` runs `yarn run <name>` in every workspace.
  if (name === "workspaces" && rest[1]?.value === "run") return prefix("yarn workspaces", "yarn", [...before, ...rest.slice(1)]);
  if (name === "run") {
    const parsed = leadingOptions(rest.slice(1), YARN_RUN_SYNTAX);
    const target = parsed.rest[0];
    if (!target || target.dynamic || target.glob || context.isScript(target.value)) return null;
    return runPackage("yarn run", merged(globals, parsed), "command");
  }
  if (YARN_COMMANDS.has(name) || context.isScript(name)) return null;
  return runPackage("yarn run", { ...globals, rest: [...rest] }, "command");
}

function npmRunner(_before: readonly ShellWord[], globals: ParsedOptions, rest: readonly ShellWord[]): Peeled | null {
  const sub = rest[0];
  // npm reads `exe` and `x` as `exec`, as it reads any abbreviation or alias (npm-commands.ts).
  if (!sub || sub.dynamic || sub.glob || npmCommand(sub.value) !== "exec") return null;
  return runPackage("npm exec", merged(globals, leadingOptions(rest.slice(1), NPX_SYNTAX)), "package");
}

function bunCommand(_before: readonly ShellWord[], globals: ParsedOptions, rest: readonly ShellWord[]): Peeled | null {
  if (rest[0]?.value !== "x" || rest[0].dynamic) return null;
  return runPackage("bun x", merged(globals, leadingOptions(rest.slice(1), NPX_SYNTAX)), "package");
}

/**
 * A manager's leading options, then its command. When the word read as the command follows an option
 * this module does not know, that option may have taken it as its value: the word after it is tried
 * as the command too, and if that one runs something, it is judged with a concern.
 */
function peelManager(manager: string, syntax: OptionSyntax, read: CommandReader): Peeler {
  return (args, context) => {
    const globals = leadingOptions(args, syntax);
    const at = args.length - globals.rest.length;
    const primary = read(args.slice(0, at), globals, globals.rest, context);
    const previous = args[at - 1];
    const unknownValue = previous && !previous.value.includes("=") && globals.unknown.includes(previous.value);
    if (primary || !unknownValue || globals.rest.length < 2) return primary;
    const other = read(args.slice(0, at + 1), globals, globals.rest.slice(1), context);
    if (!other) return null;
    const concern = `\`${manager}\` option \`${previous.value}\` is not known: \`${globals.rest[0]!.value}\` may be its value, and \`${globals.rest[1]!.value}\` the command ${manager} runs`;
    return { ...other, concerns: [...(other.concerns ?? []), concern] };
  };
}

export const PACKAGE_RUNNERS: Record<string, Peeler> = {
  npx: (args) => runPackage("npx", parseLeadingOptions(args, NPX_SYNTAX), "package"),
  bunx: (args) => runPackage("bunx", parseLeadingOptions(args, NPX_SYNTAX), "package"),
  pnpx: (args) => runPackage("pnpx", parseLeadingOptions(args, PNPM_SYNTAX), "package"),
  npm: peelManager("npm", NPX_SYNTAX, npmRunner),
  pnpm: peelManager("pnpm", PNPM_GLOBALS, pnpmCommand),
  yarn: peelManager("yarn", YARN_GLOBALS, yarnCommand),
  bun: peelManager("bun", PACKAGE_MANAGER_GLOBALS, bunCommand),
};
