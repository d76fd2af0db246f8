// Command security and path guard: the public surface for tools and the check-command CLI.
export {
  judgeCommand,
  type CommandJudgement,
  type CommandPolicy,
  type JudgedCommand,
  type SessionTaint,
  type Verdict,
} from "./command-policy.js";
export { DIRECTORY_CHANGERS } from "./leading-cd.js";
export { escapeForDisplay, findHiddenCharacter, type HiddenCharacter } from "./hidden-characters.js";
export {
  MAX_PATH_LENGTH,
  resolveInsideRoot,
  type PathErrorCode,
  type ResolvedPath,
  type ResolveOptions,
} from "./path-guard.js";
export { MAX_COMMAND_LENGTH, MAX_NESTING_DEPTH, MAX_SIMPLE_COMMANDS, MAX_SYNTAX_DEPTH, parseShell } from "./shell-parser.js";
export { MAX_WRAPPER_DEPTH } from "./command-wrappers.js";
export type { EnvAssignment, Invocation, ParsedShell, Redirect, ShellContext, ShellIssue, ShellWord, SimpleCommand } from "./shell-types.js";
export { isForbiddenWrite, isTaintingWrite } from "./write-rules.js";
