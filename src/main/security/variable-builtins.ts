// Bash builtins that assign a variable named in their arguments: `printf -v NAME`, `read NAME`,
// `read -a NAME`, `mapfile NAME`/`readarray NAME`, `getopts OPTSTRING NAME`, `let NAME=…`, `wait -p
// NAME`. They set HOME or PATH as surely as `HOME=x` does, so the rule on dangerous variables
// (env-rules.ts) must see them as assignments. (`for NAME in …` is found by the parser; declare,
// export, local, readonly and typeset are declarations it reads already.)
import { displayInline } from "./hidden-characters.js";
import { programName, type ShellWord } from "./shell-words.js";
import type { EnvAssignment } from "./shell-types.js";

/** Per builtin: short options that take a value, and the one among them whose value is a variable name. */
const OPTIONS: Record<string, { withValue: string; name?: string }> = {
  printf: { withValue: "v", name: "v" },
  read: { withValue: "adinNptu", name: "a" },
  mapfile: { withValue: "dnOsuCc" },
  readarray: { withValue: "dnOsuCc" },
  wait: { withValue: "p", name: "p" },
  getopts: { withValue: "" },
};

/** How many operands come before the variable names (`getopts OPTSTRING NAME`), and whether every later one is a name. */
const OPERAND_NAMES: Record<string, { skip: number; all: boolean } | undefined> = {
  read: { skip: 0, all: true },
  mapfile: { skip: 0, all: false },
  readarray: { skip: 0, all: false },
  getopts: { skip: 1, all: false },
};

/** `NAME=`, `NAME+=`, `NAME[i]<<=` …, `NAME++`, `--NAME` inside an arithmetic expression. */
const ARITHMETIC_ASSIGNMENT = /([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*(?:(?:[-+*/%&^|]|<<|>>)?=(?!=)|\+\+|--)|(?:\+\+|--)\s*([A-Za-z_]\w*)/g;

/** Names and attached-or-next option values, read the way bash's builtins read their options. */
function readOptions(name: string, args: readonly ShellWord[]): { names: ShellWord[]; operands: ShellWord[] } {
  const syntax = OPTIONS[name]!;
  const names: ShellWord[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const text = args[i]!.value;
    if (text === "--") {
      i++;
      break;
    }
    if (!text.startsWith("-") || text === "-" || args[i]!.dynamic) break;
    for (let j = 1; j < text.length; j++) {
      if (!syntax.withValue.includes(text[j]!)) continue;
      const attached = text.slice(j + 1);
      const value = attached ? { ...args[i]!, value: attached } : args[++i];
      if (value && text[j] === syntax.name) names.push(value);
      break;
    }
  }
  return { names, operands: args.slice(i) };
}

/** The variables `argv` (a builtin and its arguments) assigns, as assignments with no value known in advance. */
export function builtinAssignments(argv: readonly ShellWord[]): EnvAssignment[] {
  const program = argv[0] ? programName(argv[0]) : null;
  if (!program) return [];
  const args = argv.slice(1);
  const raw = displayInline(argv.map((word) => word.raw).join(" "), 60);
  const assign = (name: string): EnvAssignment => ({ name, value: null, raw, via: "builtin" });
  if (program.name === "let") {
    return args.flatMap((word) => [...word.value.matchAll(ARITHMETIC_ASSIGNMENT)].map((match) => assign(match[1] ?? match[2]!)));
  }
  if (!OPTIONS[program.name]) return [];
  const { names, operands } = readOptions(program.name, args);
  const positional = OPERAND_NAMES[program.name];
  const named = positional ? operands.slice(positional.skip, positional.all ? undefined : positional.skip + 1) : [];
  // A name only known at run time is asked about as a dynamic argument.
  return [...names, ...named].filter((word) => !word.dynamic).map((word) => assign(word.value));
}
