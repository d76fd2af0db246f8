// Programs that only read and print — `ls`, `cat`, `grep`, `find`, `jq` — are allowed without being on
// the whitelist: asking about every `ls -la src` or `cat package.json | jq .scripts` taught people to
// press "yes" without reading. They are still judged like any command: paths named must stay inside
// the project, writes through redirections ask, and the few options that make one of them run a
// program, delete or write (`find -exec`, `sort -o`, `rg --pre`) ask.
import type { ShellWord } from "./shell-words.js";
import type { Finding } from "./shell-types.js";

export const READ_ONLY_PROGRAMS: ReadonlySet<string> = new Set([
  "ls", "cat", "head", "tail", "wc", "grep", "egrep", "fgrep", "rg", "find", "pwd", "echo", "printf", "sort", "cut",
  "tr", "comm", "cmp", "diff", "jq", "basename", "dirname", "realpath", "true", "false", "which", "du", "nl",
]);

/** find's actions that run a program, delete, or write a file. */
const FIND_ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"]);

/** Whether a word is the long option `full` or an abbreviation of it (GNU getopt takes any unambiguous prefix). */
function isLong(word: ShellWord, full: string): boolean {
  const name = word.value.split("=", 1)[0]!;
  return name.startsWith("--") && name.length >= 4 && full.startsWith(name);
}

export function readOnlyFindings(name: string, args: readonly ShellWord[]): Finding[] {
  const ask = (reason: string): Finding[] => [{ verdict: "ask", reason }];
  if (name === "find") {
    const action = args.find((word) => FIND_ACTIONS.has(word.value));
    return action ? ask(`\`find ${action.value}\` runs a program, deletes or writes files`) : [];
  }
  if (name === "sort") {
    const writes = args.some((word) => /^-[a-zA-Z]*o/.test(word.value) || isLong(word, "--output") || isLong(word, "--compress-program"));
    return writes ? ask("`sort -o` writes a file (and `--compress-program` runs one)") : [];
  }
  if (name === "rg") {
    return args.some((word) => isLong(word, "--pre") || isLong(word, "--pre-glob")) ? ask("`rg --pre` runs a program on every file it searches") : [];
  }
  return [];
}
