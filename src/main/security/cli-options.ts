// Reads the options in front of a command's operands the way GNU getopt does for wrappers that stop at
// their first operand (env, timeout, xargs, nice …), so the wrapped command is found where it really is.
import type { ShellWord } from "./shell-words.js";

export interface OptionSyntax {
  /** Short options that take a value, attached (`-n5`) or as the next word (`-n 5`). */
  shortWithValue?: string;
  /** Short options whose value can only be attached (`-i{}`); nothing is consumed otherwise. */
  shortOptionalValue?: string;
  /** Short flags without a value. Anything not listed anywhere is reported as unknown. */
  shortFlags?: string;
  /** Long options that take a value (`--signal KILL`, `--signal=KILL`). */
  longWithValue?: readonly string[];
  /** Long options without a value, or whose value can only follow `=`. */
  longFlags?: readonly string[];
}

export interface ParsedOption {
  /** Canonical name: `-n`, `--signal` (an abbreviation is expanded when it is unambiguous). */
  name: string;
  value: ShellWord | null;
}

export interface ParsedOptions {
  options: ParsedOption[];
  /** The first operand and everything after it (`--` removed). */
  rest: ShellWord[];
  /** Options this syntax does not know, as written. */
  unknown: string[];
}

function expandLong(given: string, names: readonly string[]): string | null {
  if (names.includes(given)) return given;
  const matches = names.filter((name) => name.startsWith(given));
  return matches.length === 1 ? matches[0]! : null;
}

export function parseLeadingOptions(args: readonly ShellWord[], syntax: OptionSyntax): ParsedOptions {
  const options: ParsedOption[] = [];
  const unknown: string[] = [];
  const longWithValue = syntax.longWithValue ?? [];
  const longNames = [...longWithValue, ...(syntax.longFlags ?? [])];
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i]!;
    // A word only known at run time may be an option or the command; either way the caller stops here.
    if (word.dynamic || word.glob) break;
    const text = word.value;
    if (text === "--") {
      i++;
      break;
    }
    if (!text.startsWith("-") || text === "-") break;
    if (text.startsWith("--")) {
      const eq = text.indexOf("=");
      const given = eq === -1 ? text : text.slice(0, eq);
      const name = expandLong(given, longNames);
      if (name === null) {
        unknown.push(given);
        options.push({ name: given, value: null });
        continue;
      }
      if (eq !== -1) {
        options.push({ name, value: { ...word, value: text.slice(eq + 1), raw: word.raw } });
      } else if (longWithValue.includes(name)) {
        options.push({ name, value: args[i + 1] ?? null });
        i++;
      } else {
        options.push({ name, value: null });
      }
      continue;
    }
    // A cluster of short options: `-fdx`, `-n5`, `-k 5`.
    for (let j = 1; j < text.length; j++) {
      const char = text[j]!;
      const name = `-${char}`;
      const attached = text.slice(j + 1);
      if (syntax.shortWithValue?.includes(char)) {
        if (attached) options.push({ name, value: { ...word, value: attached } });
        else {
          options.push({ name, value: args[i + 1] ?? null });
          i++;
        }
        break;
      }
      if (syntax.shortOptionalValue?.includes(char)) {
        options.push({ name, value: attached ? { ...word, value: attached } : null });
        break;
      }
      if (!syntax.shortFlags?.includes(char)) unknown.push(name);
      options.push({ name, value: null });
    }
  }
  return { options, rest: args.slice(i), unknown };
}
