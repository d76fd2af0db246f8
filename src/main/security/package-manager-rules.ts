// Rules for npm, pnpm, yarn and bun (and the npx family's options): options and config writes that
// change which programs they run, global installs (they write outside the project and run install
// scripts), `link` through the global folder, and registry changes. Publishing itself is on the
// blacklist (`npm publish`, `yarn npm publish` …); npm's spellings of it are resolved in blacklist.ts.
import { displayInline } from "./hidden-characters.js";
import { npmCommand } from "./npm-commands.js";
import { PNPM_NPM_PASSTHROUGH } from "./package-manager-commands.js";
import type { ShellWord } from "./shell-words.js";
import type { Finding } from "./shell-types.js";

export const NPM_FAMILY = new Set(["npm", "pnpm", "yarn", "npx", "pnpx", "bun", "bunx"]);
/** Real npm options that only look like abbreviations of dangerous ones (`--global` of `--globalconfig`). */
const EXACT_SAFE_OPTIONS = new Set(["--global"]);
const DANGEROUS_OPTIONS = ["--script-shell", "--node-options", "--userconfig", "--globalconfig", "--shell", "--git", "--editor", "--browser", "--viewer", "--init-module", "--onload-script", "--node-gyp"];

/** Options that take the next word as their value, so that word is not the subcommand. */
const VALUE_OPTIONS = new Set([
  "--workspace", "--registry", "--prefix", "-C", "--cache", "--loglevel", "--tag", "--userconfig", "--globalconfig",
  "--filter", "-F", "--dir", "--cwd", "--otp", "--access", "--location", "--scope", "--before", "--omit", "--include",
  "--install-strategy", "--script-shell", "--node-options", "--reporter",
]);
/** Options known to take no value: the word after one of them is an operand. */
const FLAG_OPTIONS = new Set([
  "--global", "--save", "--save-dev", "--save-exact", "--save-optional", "--save-peer", "--dry-run", "--force", "--silent",
  "--quiet", "--json", "--ignore-scripts", "--legacy-peer-deps", "--recursive", "--frozen-lockfile", "--production", "--dev",
  "--verbose", "--yes", "--workspaces", "--include-workspace-root", "--if-present", "--offline", "--prefer-offline",
]);

/** Subcommands that only read, even with `-g` (`npm ls -g`). npm's are canonical names (see npm-commands.ts). */
const GLOBAL_READS: Record<string, ReadonlySet<string>> = {
  npm: new Set(["ls", "ll", "root", "prefix", "outdated", "view", "explain", "help", "help-search", "search", "fund", "doctor", "query", "sbom", "config", "bugs", "docs", "repo", "ping", "whoami"]),
  pnpm: new Set(["list", "ls", "ll", "la", "root", "bin", "outdated", "why", "view", "info", "show", "help", "search", "config"]),
  yarn: new Set(["list", "info", "why", "bin", "dir", "help", "config", "outdated"]),
  bun: new Set([]),
};
const YARN_GLOBAL_READS = new Set(["list", "ls", "bin", "dir"]);

/** npm commands that change packages or the account on the registry; a read action (`ls`) is exempt. */
const NPM_REGISTRY_WRITES = new Set(["deprecate", "undeprecate", "dist-tag", "owner", "access", "team", "org", "token", "star", "unstar", "adduser", "login", "logout", "profile", "trust", "stage"]);
const REGISTRY_READ_ACTIONS = new Set(["ls", "list", "get", "view", "info"]);
/** Registry commands whose first operand is an action (`npm owner add`), not a package. */
const REGISTRY_COMMANDS_WITH_ACTIONS = new Set(["dist-tag", "owner", "access", "team", "org", "token", "profile", "trust"]);

/** npm commands that start a browser (docs, bugs, repo) or an editor (edit). */
const NPM_OPENS_PROGRAMS = new Set(["docs", "bugs", "repo", "edit"]);

const MANAGERS = new Set(["npm", "pnpm", "yarn", "bun"]);

const shown = (text: string): string => displayInline(text);

function operandsOf(args: readonly ShellWord[]): string[] {
  return args.filter((word) => !word.value.startsWith("-")).map((word) => word.value);
}

/**
 * Where the subcommand may sit. The word after an option this module does not know may be that
 * option's value or the subcommand, so both are returned (npm itself reads unknown options as flags).
 */
export function subcommandPositions(args: readonly ShellWord[]): number[] {
  const positions: number[] = [];
  let mayBeValue = false;
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.value;
    if (text === "--") break;
    if (text.startsWith("-") && text !== "-") {
      const name = text.split("=", 1)[0]!;
      if (text.includes("=")) mayBeValue = false;
      // `-w` takes a workspace for npm but is pnpm's --workspace-root flag: the next word may be either.
      else if (/^-[a-zA-Z]*w$/.test(text)) mayBeValue = true;
      else if (VALUE_OPTIONS.has(name) || /^-[a-zA-Z]*[CF]$/.test(text)) i++;
      else mayBeValue = !FLAG_OPTIONS.has(name) && !name.startsWith("--no-") && !/^-[a-zA-Z]+$/.test(text);
      continue;
    }
    positions.push(i);
    if (!mayBeValue) break;
    mayBeValue = false;
  }
  return positions;
}

/** The option that makes the command global (`-g`, `--global`, `--location=global` …), as written. */
function globalFlag(args: readonly ShellWord[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.value;
    if (text === "--") break;
    const eq = text.indexOf("=");
    const name = eq === -1 ? text : text.slice(0, eq);
    const value = eq === -1 ? null : text.slice(eq + 1);
    // npm expands unambiguous abbreviations (`--glob`); counting every prefix is the safe side.
    if (name.length >= 4 && "--global".startsWith(name) && value !== "false") return text;
    if (name === "--location" && (value ?? args[i + 1]?.value) === "global") return value === null ? `${text} global` : text;
    if (/^-[a-zA-Z]+$/.test(text) && text.includes("g")) return text;
  }
  return null;
}

function dangerousOptionFindings(name: string, args: readonly ShellWord[]): Finding[] {
  const findings: Finding[] = [];
  for (const word of args) {
    if (word.value === "--") break;
    const option = word.value.split("=", 1)[0]!;
    // npm expands any unambiguous abbreviation (`--ed` is `--editor`), so every prefix counts.
    // `--no` and `--no-…` negate (`npx --no`: do not install) and name nothing to run.
    const abbreviates = (danger: string): boolean => option.length >= 3 && !EXACT_SAFE_OPTIONS.has(option) && !/^--no(-|$)/.test(option) && danger.startsWith(option);
    const hit = option.startsWith("--config.") ? option : DANGEROUS_OPTIONS.find(abbreviates);
    if (hit) findings.push({ verdict: "deny", reason: `\`${name} ${option}\` changes which programs ${name} runs` });
    else if (option === "--registry") findings.push({ verdict: "ask", reason: `\`${name} --registry\` fetches packages from another registry` });
  }
  const [written, action] = operandsOf(args);
  // npm takes any unambiguous abbreviation (`conf`, `con`): judged by the command it means.
  const sub = name === "npm" && written !== undefined ? (npmCommand(written) ?? written) : written;
  if (sub === "set" || ((sub === "config" || sub === "c") && ["set", "delete", "rm", "edit", "fix"].includes(action ?? ""))) {
    findings.push({ verdict: "deny", reason: `\`${name} config\` writes settings that can change what ${name} runs (script-shell, node-options …)` });
  }
  return findings;
}

/** Findings for one possible subcommand position of a package manager. */
function subcommandFindings(manager: string, args: readonly ShellWord[], position: number): Finding[] {
  const findings: Finding[] = [];
  const word = args[position]!;
  if (word.dynamic || word.glob) return findings;
  const written = word.value;
  const sub = manager === "npm" ? (npmCommand(written) ?? written) : written;
  const rest = operandsOf(args.slice(position + 1));
  const flag = globalFlag(args);
  const spelled = `${manager} ${shown(written)}`;
  if (flag !== null && !GLOBAL_READS[manager]!.has(sub)) {
    findings.push({
      verdict: "ask",
      reason: `\`${spelled} ${shown(flag)}\` changes globally installed packages: it writes outside the project and runs their install scripts`,
    });
  }
  if (manager === "yarn" && sub === "global" && !YARN_GLOBAL_READS.has(rest[0] ?? "list")) {
    findings.push({
      verdict: "ask",
      reason: `\`yarn global ${shown(rest[0]!)}\` changes globally installed packages: it writes outside the project and runs their install scripts`,
    });
  }
  // Commands that run a program of someone else's choosing, or write what `npm run` will run.
  if (manager === "npm" && sub === "explore") {
    findings.push({ verdict: "ask", reason: `\`${spelled}\` runs a shell command inside an installed package` });
  }
  if ((sub === "create" || (manager === "npm" && sub === "init" && rest.length > 0)) && manager !== "bun") {
    findings.push({ verdict: "ask", reason: `\`${spelled}\` downloads and runs a package's starter program (create-…)` });
  } else if (manager === "bun" && sub === "create") {
    findings.push({ verdict: "ask", reason: "`bun create` downloads and runs a template's setup" });
  }
  if (manager === "yarn" && (sub === "node" || sub === "exec" || (sub === "plugin" && rest[0] === "import") || (sub === "dlx"))) {
    findings.push({ verdict: "ask", reason: `\`yarn ${shown(written)}\` runs code that cannot be judged here` });
  }
  if (manager === "npm" && (sub === "pkg" ? ["set", "delete"].includes(rest[0] ?? "") : sub === "set-script")) {
    findings.push({ verdict: "ask", reason: `\`${spelled}\` writes package.json, scripts included, which later \`npm run\` runs` });
  }
  // Adding a package (by name, git, URL or tarball) runs its install scripts: code from outside the project.
  const installs = manager === "npm" ? sub === "install" || sub === "install-test" : sub === "add" || (manager === "pnpm" && sub === "install" && rest.length > 0);
  if (installs && rest.length > 0 && flag === null) {
    findings.push({ verdict: "ask", reason: `\`${spelled} ${shown(rest.join(" "))}\` adds packages, whose install scripts run` });
  }
  if (manager === "npm" && sub === "cache" && rest[0] === "clean") {
    findings.push({ verdict: "ask", reason: "`npm cache clean` deletes npm's cache folder, outside the project" });
  }
  // Fetching a package spec from the registry or a git host: a git dependency's `prepare` script runs.
  const remoteSpec = (spec: string) => !/^(\.{1,2}(\/|$)|\/|file:)/.test(spec);
  if (manager === "npm" && ((sub === "pack" && rest.some(remoteSpec)) || (sub === "cache" && rest[0] === "add") || (sub === "diff" && args.some((w) => /^--diff(=|$)/.test(w.value))))) {
    findings.push({ verdict: "ask", reason: `\`${spelled}\` fetches a package from outside the project (a git package's prepare script runs)` });
  }
  if (manager === "npm" && sub === "link") {
    findings.push({ verdict: "ask", reason: `\`${spelled}\` links packages through npm's global folder, outside the project` });
  } else if ((manager === "yarn" || manager === "bun") && sub === "link" && rest.length === 0) {
    findings.push({ verdict: "ask", reason: `\`${manager} link\` registers this package in ${manager}'s global link folder, outside the project` });
  }
  // pnpm hands `pnpm login`, `pnpm docs` … to npm, which reads them as it reads its own.
  const asNpm = manager === "npm" || (manager === "pnpm" && PNPM_NPM_PASSTHROUGH.has(written));
  const npmSub = asNpm ? (npmCommand(written) ?? written) : null;
  if (npmSub !== null && NPM_REGISTRY_WRITES.has(npmSub) && !REGISTRY_READ_ACTIONS.has(rest[0] ?? "")) {
    const action = rest[0] !== undefined && REGISTRY_COMMANDS_WITH_ACTIONS.has(npmSub) ? ` ${shown(rest[0])}` : "";
    findings.push({ verdict: "ask", reason: `\`${spelled}${action}\` changes packages or your account on the npm registry` });
  }
  if (npmSub !== null && NPM_OPENS_PROGRAMS.has(npmSub)) {
    findings.push({ verdict: "ask", reason: `\`${spelled}\` opens a browser or an editor` });
  }
  findings.push(...managerStateFindings(manager, sub, rest, spelled));
  // `yarn workspace pkg publish` (yarn 1), `yarn workspace pkg npm publish`, `yarn workspaces foreach … npm publish`.
  const publishes = rest.some((operand, index) => operand === "publish" && (rest[index - 1] === "npm" || (sub === "workspace" && index === 1)));
  if (manager === "yarn" && (sub === "workspace" || sub === "workspaces") && publishes) {
    findings.push({ verdict: "deny", reason: `\`yarn ${sub} … publish\` publishes workspaces to the registry, like the blacklisted \`yarn publish\`` });
  }
  return findings;
}

/**
 * pnpm and yarn commands that change things outside the project: the package manager itself, its
 * global store or cache, your registry account and tags, and dependencies patched from a folder that
 * may lie outside (`patch-commit` applies it to every later install).
 */
function managerStateFindings(manager: string, sub: string, rest: readonly string[], spelled: string): Finding[] {
  const [action = "", detail = ""] = rest;
  const ask = (reason: string, words = 1): Finding[] => [{ verdict: "ask", reason: `\`${[spelled, ...rest.slice(0, words)].map(shown).join(" ")}\` ${reason}` }];
  if (sub === "patch-commit" && manager !== "npm") return ask("applies an edited copy of a dependency, from a folder that may lie outside the project, to every later install");
  if (manager === "pnpm") {
    if (sub === "setup") return ask("adds pnpm to your shell's startup files, outside the project", 0);
    if (sub === "self-update") return ask("replaces the pnpm installed on this machine", 0);
    if (sub === "store" && !["status", "path"].includes(action)) return ask("changes pnpm's global store, which every project shares");
    if (sub === "server") return ask("starts or stops pnpm's store server, which keeps running outside the project");
    if (sub === "env" && ["use", "add", "remove", "rm"].includes(action)) return ask("installs or removes Node.js versions for the whole machine");
    if (sub === "cache" && action === "delete") return ask("deletes entries of pnpm's metadata cache, outside the project");
  }
  if (manager === "yarn") {
    if (sub === "policies" && action === "set-version") return ask("downloads a yarn release that every later yarn command in the project runs");
    if ((sub === "npm" && ["login", "logout"].includes(action)) || ["login", "logout"].includes(sub)) return ask("changes the credentials yarn keeps for your account", sub === "npm" ? 1 : 0);
    if (sub === "npm" && action === "tag" && ["add", "remove"].includes(detail)) return ask("changes tags on the npm registry", 2);
    if ((sub === "tag" || sub === "owner") && ["add", "remove", "rm"].includes(action)) return ask("changes packages on the npm registry");
    if (sub === "cache" && action === "clean") return ask("deletes yarn's cache, outside the project");
  }
  return [];
}

/** Deny/ask findings for one npm-family argv (`name` is the program's basename). */
export function packageManagerFindings(name: string, args: readonly ShellWord[]): Finding[] {
  const findings = dangerousOptionFindings(name, args);
  if (!MANAGERS.has(name)) return findings;
  for (const position of subcommandPositions(args)) findings.push(...subcommandFindings(name, args, position));
  return findings.filter((finding, index) => findings.findIndex((other) => other.reason === finding.reason) === index);
}
