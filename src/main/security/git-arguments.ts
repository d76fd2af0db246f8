// Splits a git command line into its global options (`-C dir`, `-c k=v`, `--git-dir=…`) and the
// subcommand with its arguments, so rules about `push --force` hold wherever the global options sit.
import type { ShellWord } from "./shell-words.js";

export interface GitGlobalOption {
  name: string;
  value: ShellWord | null;
}

export interface GitArguments {
  globals: GitGlobalOption[];
  /** The subcommand word (`push`), or null when there is none or it is only known at run time. */
  subcommand: string | null;
  subcommandDynamic: boolean;
  /** Words after the subcommand. */
  args: ShellWord[];
}

const GLOBALS_WITH_VALUE = ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env"];
// These take a value only after `=`; bare `--exec-path` prints the path.
const GLOBALS_EQUALS_ONLY = ["--exec-path", "--attr-source", "--list-cmds"];

export function parseGitArguments(args: readonly ShellWord[]): GitArguments {
  const globals: GitGlobalOption[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word.dynamic || word.glob) {
      return { globals, subcommand: null, subcommandDynamic: true, args: args.slice(i + 1) };
    }
    const text = word.value;
    if (!text.startsWith("-") || text === "-") {
      return { globals, subcommand: text, subcommandDynamic: false, args: args.slice(i + 1) };
    }
    const eq = text.indexOf("=");
    const name = eq === -1 ? text : text.slice(0, eq);
    if (text.startsWith("--") && eq !== -1) {
      globals.push({ name, value: { ...word, value: text.slice(eq + 1) } });
    } else if (GLOBALS_WITH_VALUE.includes(text)) {
      globals.push({ name: text, value: args[i + 1] ?? null });
      i++;
    } else if (/^-[cC]./.test(text)) {
      // git wants `-c name=value` as two words; treat the glued form as the same option, to be safe.
      globals.push({ name: text.slice(0, 2), value: { ...word, value: text.slice(2) } });
    } else {
      globals.push({ name: GLOBALS_EQUALS_ONLY.includes(name) ? name : text, value: null });
    }
  }
  return { globals, subcommand: null, subcommandDynamic: false, args: [] };
}

/**
 * Whether a word is the long option `full`, written whole or abbreviated: git's subcommands take any
 * unambiguous prefix (`--conf` is `--config`, `--unsafe-pat` is `--unsafe-paths`), so every prefix
 * of two letters or more counts. `--name=value` is judged by its name.
 */
export function isGitLong(word: ShellWord, full: string): boolean {
  const text = word.value;
  if (!text.startsWith("--")) return false;
  const name = text.split("=", 1)[0]!;
  return name.length >= 4 && full.startsWith(name);
}

/**
 * Values of an option in subcommand arguments: `--name VALUE`, `--name=VALUE`, an unambiguous-looking
 * abbreviation (`--exe=…`), and the short letter anywhere in a cluster (`-x VALUE`, `-xVALUE`, `-ix VALUE`).
 */
export function findOptionValues(args: readonly ShellWord[], long: readonly string[], shortLetter: string | null): ShellWord[] {
  const values: ShellWord[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const text = word.value;
    if (text === "--") break;
    if (text.startsWith("--")) {
      const eq = text.indexOf("=");
      const name = eq === -1 ? text : text.slice(0, eq);
      if (name.length <= 2 || !long.some((option) => option.startsWith(name))) continue;
      if (eq !== -1) values.push({ ...word, value: text.slice(eq + 1) });
      else if (args[i + 1]) values.push(args[++i]!);
    } else if (shortLetter && text.startsWith("-") && text.includes(shortLetter, 1)) {
      const attached = text.slice(text.indexOf(shortLetter, 1) + 1);
      if (attached) values.push({ ...word, value: attached });
      else if (args[i + 1]) values.push(args[++i]!);
    }
  }
  return values;
}

export interface GitOptionSyntax {
  /** Short options that take a value, attached (`-bname`) or as the next word (`-b name`). */
  shortWithValue?: string;
  /** The subcommand's long options; an unambiguous prefix (`--for`) is expanded, as git does. */
  long?: readonly string[];
  /** Long options among `long` that take the next word as their value when written without `=`. */
  longWithValue?: readonly string[];
}

export interface ScannedGitArguments {
  /** Options present, canonical: `--force` for `--for`; one `-x` per letter of a short cluster. */
  options: Set<string>;
  /** Operands before `--`, wherever options sit between them (git reads them in any order). */
  operands: ShellWord[];
  /** Words after `--`: always pathspecs. */
  pathspecs: ShellWord[];
}

/** Reads a subcommand's arguments the way git's parse-options does: options and operands intermixed. */
export function scanGitOptions(args: readonly ShellWord[], syntax: GitOptionSyntax): ScannedGitArguments {
  const options = new Set<string>();
  const operands: ShellWord[] = [];
  const long = syntax.long ?? [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const text = word.value;
    if (text === "--" && !word.dynamic) return { options, operands, pathspecs: args.slice(i + 1) };
    if (word.dynamic || !text.startsWith("-") || text === "-") {
      operands.push(word);
    } else if (text.startsWith("--")) {
      const given = text.split("=", 1)[0]!;
      const matches = long.filter((name) => name.startsWith(given));
      const name = long.includes(given) ? given : matches.length === 1 ? matches[0]! : given;
      options.add(name);
      if (!text.includes("=") && syntax.longWithValue?.includes(name)) i++;
    } else {
      for (let j = 1; j < text.length; j++) {
        options.add(`-${text[j]}`);
        if (syntax.shortWithValue?.includes(text[j]!)) {
          if (j === text.length - 1) i++;
          break;
        }
      }
    }
  }
  return { options, operands, pathspecs: [] };
}
