// Blacklist entries are data ("rm -rf", "git push --force"): a program, the subcommand words that must
// lead its operands, and flags that must all be present. Flags are compared after normalising how they
// were written: clusters split (`-fr` = `-f -r`), long aliases mapped (`--recursive` = `-r`),
// abbreviations expanded (`--forc` = `--force`), in any order and position. npm's first operand is
// compared the way npm reads it, so the entry `npm publish` also stops `npm pub` and `npm publ`.
import { npmCommand } from "./npm-commands.js";
import { programName, type ShellWord } from "./shell-words.js";

export interface BlacklistEntry {
  /** The entry as configured, for messages. */
  text: string;
  /** Lower-cased program basename. */
  program: string;
  /** Words that must lead the operands (`push` for `git push --force`). */
  subcommands: string[];
  /** Canonical flags that must all be present. */
  flags: string[];
}

// Per program (and subcommand): alias → canonical flag. A long alias also matches its abbreviations.
const FLAG_ALIASES: Record<string, Record<string, string>> = {
  rm: { "-R": "-r", "--recursive": "-r", "--force": "-f", "--dir": "-d" },
  "git push": { "-f": "--force", "--force": "--force", "--force-with-lease": "--force", "--mirror": "--force" },
  "git clean": { "--force": "-f" },
  "git reset": { "--hard": "--hard" },
  chmod: { "--recursive": "-R" },
  chown: { "--recursive": "-R" },
};

/** The subcommand a word names for `program`: npm's aliases and abbreviations resolved, else the word. */
function canonicalSubcommand(program: string, word: string): string {
  return program === "npm" ? (npmCommand(word) ?? word) : word;
}

function aliasKey(program: string, subcommands: readonly string[]): string {
  return subcommands.length > 0 ? `${program} ${subcommands[0]}` : program;
}

/** The canonical flags one argument stands for (empty when it is not an option). */
export function canonicalFlags(arg: string, key: string, extraLong: readonly string[] = []): string[] {
  const aliases = FLAG_ALIASES[key] ?? {};
  if (arg.startsWith("--") && arg.length > 2) {
    const name = arg.split("=", 1)[0]!;
    const found = new Set([aliases[name] ?? name]);
    // getopt_long and git accept any unambiguous abbreviation; counting every candidate is the safe side.
    for (const [alias, canonical] of Object.entries(aliases)) if (alias.startsWith("--") && alias.startsWith(name)) found.add(canonical);
    for (const long of extraLong) if (long.startsWith(name)) found.add(long);
    return [...found];
  }
  if (arg.startsWith("-") && arg.length > 1) return [...arg.slice(1)].map((char) => aliases[`-${char}`] ?? `-${char}`);
  return [];
}

/** Parses an entry such as `git clean -fd`; null for an empty one. */
export function parseBlacklistEntry(text: string): BlacklistEntry | null {
  const [first, ...tokens] = text.trim().split(/\s+/).filter(Boolean);
  if (!first) return null;
  const program = first.slice(first.lastIndexOf("/") + 1).toLowerCase();
  const subcommands = tokens.filter((token) => !token.startsWith("-"));
  if (subcommands[0] !== undefined) subcommands[0] = canonicalSubcommand(program, subcommands[0]);
  const key = aliasKey(program, subcommands);
  const flags = [...new Set(tokens.filter((token) => token.startsWith("-")).flatMap((token) => canonicalFlags(token, key)))];
  return { text: text.trim(), program, subcommands, flags };
}

/**
 * Whether the subcommand words lead the operands. An option written without `=` may or may not take the
 * next word as its value (`git -C dir push`), so such a word is tried both as a value and as the
 * subcommand; the search stops at the first word that can only be an operand.
 */
function subcommandsMatch(program: string, args: readonly ShellWord[], subcommands: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word.value === "--") return false;
    if (word.value.startsWith("-")) continue;
    const operands = args.slice(i).filter((arg) => !arg.value.startsWith("-"));
    const written = (index: number): string => (index === 0 ? canonicalSubcommand(program, operands[0]!.value) : operands[index]!.value);
    if (subcommands.every((sub, index) => operands[index] !== undefined && !operands[index].dynamic && written(index) === sub)) return true;
    const previous = args[i - 1]?.value ?? "";
    const mayBeValue = previous.startsWith("-") && !previous.includes("=");
    if (!mayBeValue) return false;
  }
  return false;
}

function presentFlags(args: readonly ShellWord[], key: string, entry: BlacklistEntry): Set<string> {
  const present = new Set<string>();
  const longFlags = entry.flags.filter((flag) => flag.startsWith("--"));
  for (const arg of args) {
    if (arg.value === "--") break;
    if (arg.dynamic) continue;
    for (const flag of canonicalFlags(arg.value, key, longFlags)) present.add(flag);
    // `git push origin +main` force-pushes main.
    if (key === "git push" && arg.value.startsWith("+")) present.add("--force");
  }
  return present;
}

/** The first entry `argv` matches, or null. */
export function matchBlacklist(argv: readonly ShellWord[], entries: readonly BlacklistEntry[]): BlacklistEntry | null {
  const program = argv[0] ? programName(argv[0]) : null;
  if (!program) return null;
  const name = program.name.toLowerCase();
  const args = argv.slice(1);
  for (const entry of entries) {
    if (entry.program !== name) continue;
    if (entry.subcommands.length > 0 && !subcommandsMatch(name, args, entry.subcommands)) continue;
    const present = presentFlags(args, aliasKey(entry.program, entry.subcommands), entry);
    if (entry.flags.every((flag) => present.has(flag))) return entry;
  }
  return null;
}
