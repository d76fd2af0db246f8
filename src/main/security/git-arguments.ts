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
