// Programs that only read and print — `ls`, `cat`, `grep`, `find`, `jq` — are allowed without being on
// the whitelist: asking about every `ls -la src` or `cat package.json | jq .scripts` taught people to
// press "yes" without reading. They are still judged like any command: paths named must stay inside
// the project, writes through redirections ask, and the few options that make one of them run a
// program, delete or write (`find -exec`, `sort -o`, `rg --pre`), read through symlinks to files the
// command line does not name (`grep -R`, see following-reads.ts) or print the environment (`jq env`) ask.
import { followingReadFindings, isLong, shortFlags } from "./following-reads.js";
import { sedFindings } from "./sed-scripts.js";
import type { ShellWord } from "./shell-words.js";
import type { Finding } from "./shell-types.js";

export const READ_ONLY_PROGRAMS: ReadonlySet<string> = new Set([
  "ls", "cat", "head", "tail", "wc", "grep", "egrep", "fgrep", "rg", "find", "pwd", "echo", "printf", "sort", "cut",
  "tr", "comm", "cmp", "diff", "jq", "basename", "dirname", "realpath", "true", "false", "which", "du", "nl",
  "tree", "stat", "file", "uniq", "uname", "seq", "md5sum", "sha1sum", "sha256sum", "sha512sum", "sed",
]);

/** Options of uniq that take the next word as their value (`-f 2`). */
const UNIQ_VALUE_OPTIONS = new Set(["-f", "-s", "-w"]);

/** `uniq INPUT OUTPUT` writes OUTPUT: the operands after the options. */
function uniqOperands(args: readonly ShellWord[]): number {
  let operands = 0;
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.value;
    if (options && text === "--") options = false;
    else if (options && UNIQ_VALUE_OPTIONS.has(text)) i++;
    else if (!options || !text.startsWith("-") || text === "-") operands++;
  }
  return operands;
}

/** find's actions that run a program, delete, or write a file. */
const FIND_ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"]);

/** jq options followed by two values (`--arg NAME VALUE`) or one. */
const JQ_TWO_VALUES = new Set(["--arg", "--argjson", "--slurpfile", "--rawfile"]);
const JQ_ONE_VALUE = new Set(["--indent", "-L"]);
/** The builtin `env` and `$ENV` print the environment (as bare `env` does); modules load files from jq's library path. */
const JQ_ENVIRONMENT = /\$ENV\b|(?<![\w.$])env\b/;
const JQ_MODULES = /(?<![\w.$])(import|include)\b/;

/** jq's filter: the first operand, unless `-f`/`--from-file` reads it from a file the command line does not show. */
function jqFindings(args: readonly ShellWord[]): Finding[] {
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const text = word.value;
    if (JQ_TWO_VALUES.has(text)) i += 2;
    else if (JQ_ONE_VALUE.has(text)) i++;
    else if (text === "--from-file" || /^-[a-zA-Z]*f[a-zA-Z]*$/.test(text)) {
      return [{ verdict: "ask", reason: "`jq -f` reads its filter from a file, which may print the environment (`env`, `$ENV`)" }];
    } else if (text === "--" || !text.startsWith("-") || text === "-") {
      const filter = text === "--" ? args[i + 1] : word;
      if (filter && JQ_ENVIRONMENT.test(filter.value)) return [{ verdict: "ask", reason: "`jq` with `env` or `$ENV` prints the environment, as `env` does" }];
      if (filter && JQ_MODULES.test(filter.value)) return [{ verdict: "ask", reason: "`jq` `import`/`include` loads modules or data from jq's library path, outside the project" }];
      return [];
    }
  }
  return [];
}

function programOptionFindings(name: string, args: readonly ShellWord[]): Finding[] {
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
  if (name === "jq") return jqFindings(args);
  if (name === "sed") return sedFindings(args);
  if (name === "tree") {
    // `-o FILE` writes the listing, `-R` writes a 00Tree.html in every folder.
    const flags = shortFlags(name, args);
    return flags.has("o") || flags.has("R") ? ask("`tree -o`/`-R` writes files") : [];
  }
  if (name === "file") {
    return shortFlags(name, args).has("C") || args.some((word) => isLong(word, "--compile")) ? ask("`file -C` compiles a magic file and writes it") : [];
  }
  if (name === "uniq") return uniqOperands(args) > 1 ? ask("`uniq INPUT OUTPUT` writes OUTPUT") : [];
  if (name.endsWith("sum")) {
    // `-c LIST` opens the files LIST names, which the command line does not show.
    return shortFlags(name, args).has("c") || args.some((word) => isLong(word, "--check")) ? ask(`\`${name} -c\` reads the files a list names`) : [];
  }
  return [];
}

export function readOnlyFindings(name: string, args: readonly ShellWord[]): Finding[] {
  return [...programOptionFindings(name, args), ...followingReadFindings(name, args)];
}
