// The verdict on a command line for run_command: deny, allow, or ask the user. Every simple command
// the shell would run is judged (see shell-parser.ts); the line is allowed only when each one is a
// whitelisted program with arguments known in advance, nothing writes through a redirection, and
// nothing could not be judged. A pure function: the lists come in as arguments.
import path from "node:path";
import { matchBlacklist, parseBlacklistEntry, type BlacklistEntry } from "./blacklist.js";
import { classifyEnvName } from "./env-rules.js";
import { displayInline, findHiddenCharacter } from "./hidden-characters.js";
import { DIRECTORY_CHANGERS } from "./leading-cd.js";
import { judgeFolderSpans, judgeInFolder } from "./folder-judgement.js";
import { projectScripts } from "./package-scripts.js";
import { HARMLESS_DEVICES, outsidePathFindings } from "./path-arguments.js";
import { resolveInsideRoot } from "./path-guard.js";
import { programFindings, runsProjectCode, type Finding } from "./program-rules.js";
import { READ_ONLY_PROGRAMS } from "./read-only-programs.js";
import { MAX_COMMAND_LENGTH, parseShell } from "./shell-parser.js";
import { programName } from "./shell-words.js";
import type { Redirect, ShellContext, SimpleCommand } from "./shell-types.js";
import { builtinAssignments } from "./variable-builtins.js";
import { writtenScriptsRun } from "./written-scripts.js";
import { installedBinary } from "../exec/installed-binary.js";

export type Verdict = "allow" | "ask" | "deny";

export interface SessionTaint {
  /** Project-relative files the model changed this session for which `isTaintingWrite` was true. */
  taintedFiles: readonly string[];
  /** Every project-relative file the model's edits (or commands) wrote this session (written-scripts.ts). */
  writtenFiles?: readonly string[];
}

export interface CommandPolicy {
  blacklist: readonly string[];
  /** Program names (default + user lists). */
  whitelist: readonly string[];
  projectRoot: string;
  /** When false, a program missing from the whitelist is denied instead of asked about. Default true. */
  askForUnknown?: boolean;
  sessionTaint?: SessionTaint;
  /** Folders outside the project that ipuaro itself made for the command (e.g. run_tests' report folder). */
  trustedPaths?: readonly string[];
}

export interface JudgedCommand {
  /** The simple command as written, escaped for display. */
  text: string;
  /** The program that runs after wrappers are peeled off; null when there is none or it is dynamic. */
  program: string | null;
  args: string[];
  /** Wrappers peeled off, outermost first (`env`, `timeout`, `npx` …). */
  wrappers: string[];
  context: ShellContext;
  verdict: Verdict;
  reasons: string[];
  /** Project-relative files it writes through redirections. */
  writes: string[];
}

export interface CommandJudgement {
  verdict: Verdict;
  reason: string;
  commands: JudgedCommand[];
}

/** Package runners that fetch a package from the registry when its binary is not installed. */
const DOWNLOADING_RUNNERS = new Set(["npx", "pnpx", "bunx", "npm exec", "pnpm dlx", "yarn dlx", "bun x"]);


/** Absolute program paths that name the system's own binaries, judged by basename. */
const TRUSTED_BIN_DIRS = new Set(["/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/usr/local/sbin", "/opt/homebrew/bin"]);
const MAX_REASONS_SHOWN = 3;

const blacklistCache = new WeakMap<readonly string[], BlacklistEntry[]>();

function parsedBlacklist(list: readonly string[]): BlacklistEntry[] {
  let entries = blacklistCache.get(list);
  if (!entries) {
    entries = list.map(parseBlacklistEntry).filter((entry): entry is BlacklistEntry => entry !== null);
    blacklistCache.set(list, entries);
  }
  return entries;
}

const shown = (text: string): string => displayInline(text);

function judgement(verdict: Verdict, reason: string, commands: JudgedCommand[] = []): CommandJudgement {
  return { verdict, reason, commands };
}

class SimpleCommandJudge {
  readonly denies: string[] = [];
  readonly asks: string[] = [];
  readonly writes: string[] = [];

  constructor(
    private readonly command: SimpleCommand,
    private readonly policy: CommandPolicy,
    private readonly blacklist: BlacklistEntry[],
  ) {}

  private add(finding: Finding): void {
    (finding.verdict === "deny" ? this.denies : this.asks).push(finding.reason);
  }

  judge(): JudgedCommand {
    const { invocation } = this.command;
    this.judgeAssignments();
    for (const stage of invocation.stages) {
      const entry = matchBlacklist(stage, this.blacklist);
      if (entry) this.add({ verdict: "deny", reason: `\`${shown(this.command.text)}\` matches blacklist entry \`${entry.text}\`` });
      for (const finding of programFindings(stage, this.policy.projectRoot)) this.add(finding);
    }
    for (const redirect of this.command.redirects) this.judgeRedirect(redirect);
    this.judgePrograms();
    this.judgeArguments();
    for (const concern of invocation.concerns) this.add({ verdict: "ask", reason: concern });
    this.judgeTaint();
    const program = invocation.argv[0] ? programName(invocation.argv[0]) : null;
    return {
      text: shown(this.command.text),
      program: program?.name ?? null,
      args: invocation.argv.slice(1).map((word) => word.value),
      wrappers: invocation.layers.map((layer) => layer.name),
      context: this.command.context,
      verdict: this.denies.length > 0 ? "deny" : this.asks.length > 0 ? "ask" : "allow",
      reasons: [...this.denies, ...this.asks],
      writes: this.writes,
    };
  }

  private judgeAssignments(): void {
    const { assignments, invocation } = this.command;
    const all = [...assignments, ...invocation.envAssignments, ...builtinAssignments(invocation.argv)];
    for (const assignment of all) {
      const kind = classifyEnvName(assignment.name);
      if (kind === "dangerous") {
        this.add({ verdict: "deny", reason: `\`${shown(assignment.raw)}\` sets \`${assignment.name}\`, which changes what runs or what it loads` });
      } else if (kind === "unknown" && assignment.via !== "statement" && assignment.via !== "builtin") {
        // A shell variable set in passing (`x=1`, `for f in …`, `read line`) reaches no program unless exported.
        this.add({ verdict: "ask", reason: `\`${shown(assignment.raw)}\` sets \`${assignment.name}\` for the command; ipuaro cannot tell what it changes` });
      } else if (assignment.value?.dynamic) {
        // Expansions in a value can run code hidden in other values (`${x@P}`, array subscripts).
        this.add({ verdict: "ask", reason: `the value of \`${shown(assignment.raw)}\` is only known at run time` });
      }
    }
  }

  private judgeRedirect(redirect: Redirect): void {
    if ((redirect.kind === "heredoc" || redirect.kind === "herestring") && redirect.dynamicInput) {
      this.add({ verdict: "ask", reason: `the ${redirect.kind} fed to \`${shown(this.command.text)}\` expands at run time` });
      return;
    }
    if (redirect.kind !== "write" && redirect.kind !== "read") return;
    const target = redirect.target;
    const operator = `${redirect.fd ?? ""}${redirect.operator}`;
    const verb = redirect.kind === "write" ? "writes to" : "reads";
    if (!target || target.dynamic || target.glob) {
      if (target?.tilde && redirect.kind === "write") {
        this.add({ verdict: "deny", reason: `\`${operator} ${shown(target.raw)}\` writes under the home directory, outside the project` });
      } else {
        this.add({ verdict: "ask", reason: `\`${operator} ${shown(target?.raw ?? "")}\` ${verb} a file only known at run time` });
      }
      return;
    }
    if (HARMLESS_DEVICES.has(path.posix.normalize(target.value))) return;
    const resolved = resolveInsideRoot(this.policy.projectRoot, target.value, { forWrite: redirect.kind === "write" });
    if (!resolved.ok && resolved.code === "PATH_FORBIDDEN") {
      this.add({ verdict: "deny", reason: `\`${operator} ${shown(target.raw)}\` writes into git's or ipuaro's own files` });
      return;
    }
    if (!resolved.ok) {
      const outside = resolved.code === "PATH_OUTSIDE_ROOT";
      const where = outside ? "outside the project" : resolved.message;
      this.add({
        verdict: outside && redirect.kind === "write" ? "deny" : "ask",
        reason: `\`${operator} ${shown(target.raw)}\` ${verb} a file ${outside ? where : `ipuaro cannot place (${where})`}`,
      });
      return;
    }
    if (redirect.kind === "read") return;
    this.writes.push(resolved.rel);
    this.add({ verdict: "ask", reason: `\`${operator} ${shown(target.raw)}\` writes \`${resolved.rel}\` in the project` });
  }

  private judgePrograms(): void {
    const { invocation } = this.command;
    const whitelist = this.policy.whitelist;
    for (const stage of invocation.stages) {
      if (stage.length === 0) continue;
      const program = programName(stage[0]!);
      if (!program) {
        this.add({ verdict: "ask", reason: `the program name \`${shown(stage[0]!.raw)}\` is only known at run time` });
        return;
      }
      if (program.path !== null && !TRUSTED_BIN_DIRS.has(path.posix.dirname(program.path))) {
        this.add({ verdict: "ask", reason: `\`${shown(program.path)}\` runs a program by path; only whitelisted names are trusted` });
      }
    }
    for (const layer of invocation.layers) {
      const runner = layer.name.split(" ", 1)[0]!;
      if (layer.kind === "runner" && !whitelist.includes(runner)) this.unknownProgram(runner);
    }
    const program = invocation.argv[0] ? programName(invocation.argv[0]) : null;
    if (program && DIRECTORY_CHANGERS.has(program.name)) {
      // Whitelisted or not: the paths after it would be read from a folder the policy did not judge from.
      this.add({ verdict: "ask", reason: `\`${shown(this.command.text)}\` changes the folder later commands run in; only a \`cd\` that starts the line, to a folder in the project and not another repository's, is followed` });
    } else if (program && !whitelist.includes(program.name) && !READ_ONLY_PROGRAMS.has(program.name)) this.unknownProgram(program.name);
    // `npx tsc` in a project without typescript installs and runs an unrelated package called `tsc`.
    const fetcher = invocation.layers.find((layer) => layer.kind === "runner" && DOWNLOADING_RUNNERS.has(layer.name) && !layer.noInstall);
    if (fetcher && program && program.path === null && !installedBinary(this.policy.projectRoot, program.name)) {
      this.add({ verdict: "ask", reason: `\`${shown(program.name)}\` is not installed in the project: \`${fetcher.name}\` would download a package of that name and run it` });
    }
  }

  private unknownProgram(name: string): void {
    const deny = this.policy.askForUnknown === false;
    this.add({ verdict: deny ? "deny" : "ask", reason: `\`${shown(name)}\` is not on the whitelist` });
  }

  private judgeArguments(): void {
    const args = this.command.words.slice(1);
    for (const word of args) {
      if (word.dynamic && !(word.tilde && /^~(\/|$)/.test(word.raw))) {
        this.add({ verdict: "ask", reason: `the argument \`${shown(word.raw)}\` is only known at run time` });
      } else if (word.glob && (word.literalPrefix === "" || word.literalPrefix.startsWith("-"))) {
        // `src/*.ts` can only expand to paths; `*` could expand to a file named like an option.
        this.add({ verdict: "ask", reason: `the glob \`${shown(word.raw)}\` could expand to file names that read as options` });
      }
    }
    // Paths named in arguments must stay inside the project, as paths given to the tools must.
    for (const finding of outsidePathFindings(args, this.policy.projectRoot, this.policy.trustedPaths)) this.add(finding);
    if (this.command.invocation.openEndedArgs) {
      this.add({ verdict: "ask", reason: `\`${shown(this.command.text)}\` appends arguments only known at run time` });
    }
  }

  private judgeTaint(): void {
    const written = new Set(this.policy.sessionTaint?.writtenFiles ?? []);
    for (const stage of this.command.invocation.stages) {
      for (const script of writtenScriptsRun(stage, written, this.policy.projectRoot)) {
        this.add({ verdict: "ask", reason: `\`${shown(this.command.text)}\` runs \`${shown(script)}\`, which this session wrote: code nobody has read yet` });
      }
    }
    const tainted = this.policy.sessionTaint?.taintedFiles ?? [];
    if (tainted.length === 0) return;
    if (!this.command.invocation.stages.some(runsProjectCode)) return;
    const files = tainted.slice(0, 3).map((file) => `\`${shown(file)}\``).join(", ");
    this.add({
      verdict: "ask",
      reason: `\`${shown(this.command.text)}\` runs project scripts or tool configs, and this session changed ${files}${tainted.length > 3 ? " …" : ""}`,
    });
  }
}

function summarise(reasons: readonly string[]): string {
  const unique = [...new Set(reasons)];
  const head = unique.slice(0, MAX_REASONS_SHOWN).join("; ");
  return unique.length > MAX_REASONS_SHOWN ? `${head}; and ${unique.length - MAX_REASONS_SHOWN} more` : head;
}

/** Judges a command line for run_command. Never throws for any string input. */
export function judgeCommand(command: string, policy: CommandPolicy): CommandJudgement {
  if (typeof command !== "string" || command.trim() === "") return judgement("deny", "denied: the command is empty");
  if (command.length > MAX_COMMAND_LENGTH) {
    return judgement("deny", `denied: the command is longer than ${MAX_COMMAND_LENGTH} characters, too long to judge`);
  }
  const hidden = findHiddenCharacter(command);
  if (hidden) {
    return judgement(
      "deny",
      `denied: the command contains the control or invisible character \`${hidden.escaped}\` at position ${hidden.index}, which can hide what runs`,
    );
  }
  const inFolder = judgeInFolder(command, policy, judgeCommand) ?? judgeFolderSpans(command, policy, judgeCommand);
  if (inFolder) return inFolder;
  const parsed = parseShell(command, projectScripts(policy.projectRoot));
  const cap = parsed.issues.find((issue) => issue.kind === "cap");
  const blacklist = parsedBlacklist(policy.blacklist);
  const commands = parsed.commands.map((simple) => new SimpleCommandJudge(simple, policy, blacklist).judge());
  if (cap) return judgement("deny", `denied: the command is too complex to judge (${cap.reason})`, commands);
  const denied = commands.flatMap((judged) => (judged.verdict === "deny" ? judged.reasons.slice(0, 1) : []));
  if (denied.length > 0) return judgement("deny", `denied: ${denied[0]}`, commands);
  const unjudgeable = parsed.issues.flatMap((issue) => (issue.kind === "unjudgeable" ? [`cannot judge \`${shown(issue.text)}\`: ${issue.reason}`] : []));
  const asks = [...unjudgeable, ...commands.flatMap((judged) => judged.reasons)];
  if (asks.length > 0) return judgement("ask", `ask: ${summarise(asks)}`, commands);
  if (commands.length === 0) return judgement("deny", "denied: there is no command to run", commands);
  const programs = [...new Set(commands.flatMap((judged) => (judged.program ? [`\`${judged.program}\``] : [])))];
  return judgement("allow", `allowed: every command is on the whitelist or only reads (${programs.join(", ")})`, commands);
}
