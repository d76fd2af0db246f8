// The flat model of a shell command that the policy judges: every simple command bash would run,
// wherever it sits, with the words, assignments and redirections that are known before it runs.
import type { ShellWord } from "./shell-words.js";

export type { ShellWord } from "./shell-words.js";

/** Where a simple command sits. `nesting` lists these outermost first. */
export type ShellContext =
  | "top-level"
  | "pipeline"
  | "command-substitution"
  | "backticks"
  | "subshell"
  | "process-substitution"
  | "shell-payload" // bash -c / sh -c / zsh -c STRING
  | "eval"
  | "heredoc"
  | "function-body"
  | "exec-payload"; // find -exec, env -S, npx -c, git rebase --exec …

export interface EnvAssignment {
  name: string;
  /** Null for `export NAME` without a value. */
  value: ShellWord | null;
  raw: string;
  /**
   * `prefix`: `NAME=v cmd`; `env`: `env NAME=v cmd`; `statement`: `NAME=v` alone; `declaration`: export/declare/local;
   * `builtin`: a builtin or loop that assigns the variable it names (`printf -v NAME`, `read NAME`, `for NAME in …`).
   */
  via: "prefix" | "env" | "statement" | "declaration" | "builtin";
}

export type RedirectKind = "write" | "read" | "duplicate" | "close" | "heredoc" | "herestring";

export interface Redirect {
  /** The operator as written: `>`, `>>`, `&>`, `>|`, `<`, `<>`, `>&`, `<<`, `<<<`, … */
  operator: string;
  /** The explicit file descriptor (`2>`), or null. */
  fd: number | null;
  kind: RedirectKind;
  /** The file (write/read), the fd (duplicate) or the string (herestring); null for close and heredoc. */
  target: ShellWord | null;
  /** Heredoc body or herestring holds expansions, so what the program reads on stdin is only known at run time. */
  dynamicInput: boolean;
}

export interface WrapperLayer {
  /** Normalised program name of the wrapper (`env`, `timeout`, `npx`, `npm exec`, …). */
  name: string;
  /** `transparent` wrappers only change how the payload runs; `runner`s (npx …) must be whitelisted too. */
  kind: "transparent" | "runner";
  /** A runner told never to download (`npx --no`): a missing package fails instead of being fetched. */
  noInstall?: boolean;
}

export interface Invocation {
  /** The program that finally runs and its arguments, after every wrapper is peeled off. */
  argv: ShellWord[];
  /** argv at each wrapper level, outermost (the command as written) first; the last one is `argv`. */
  stages: ShellWord[][];
  layers: WrapperLayer[];
  /** `env NAME=v` assignments met while peeling. */
  envAssignments: EnvAssignment[];
  /** A wrapper appends arguments only known at run time (xargs, find -exec … {}). */
  openEndedArgs: boolean;
  /** Reasons the invocation cannot be allowed without asking (env -C, npx -p, unknown wrapper option …). */
  concerns: string[];
}

export interface SimpleCommand {
  /** Source text of the command (for a payload: of the payload). */
  text: string;
  /** argv as written, quotes removed. Empty for bare assignments and redirect-only statements. */
  words: ShellWord[];
  assignments: EnvAssignment[];
  redirects: Redirect[];
  context: ShellContext;
  nesting: ShellContext[];
  invocation: Invocation;
}

export type ShellIssue =
  | { kind: "unjudgeable"; reason: string; text: string }
  | { kind: "cap"; reason: string };

export interface ParsedShell {
  commands: SimpleCommand[];
  issues: ShellIssue[];
}

/** What a rule found wrong with a command: deny outright, or ask the user first. */
export interface Finding {
  verdict: "deny" | "ask";
  reason: string;
}
