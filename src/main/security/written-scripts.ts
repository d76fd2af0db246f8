// Write-then-execute for scripts: a file the model wrote this session and a command then runs as a
// program (`node scripts/check.js`, `bash ./fix.sh`, `./fix.sh`) is code nobody has looked at running
// unattended — with --auto-apply an edit is applied without a question, and the command that runs it
// would be allowed as `node` is. Such a command asks. Test runners and build tools that load files
// (vitest on a test the model wrote) are left to the config taint: asking before every test run after
// an edit would stop the agent's own loop.
import path from "node:path";
import { programName, type ShellWord } from "./shell-words.js";

/** Programs whose first operand is a script they run. */
const INTERPRETERS = new Set(["node", "tsx", "ts-node", "bun", "deno", "python", "python3", "bash", "sh", "zsh", "dash", "ksh", "perl", "ruby", "php"]);

/** Project-relative path of a literal argument, or null when it is none (dynamic, an option, outside). */
function projectPath(word: ShellWord, root: string): string | null {
  if (word.dynamic || word.glob || word.value === "" || word.value.startsWith("-")) return null;
  const rel = path.relative(root, path.resolve(root, word.value)).split(path.sep).join("/");
  return rel === "" || rel.startsWith("../") || rel === ".." || path.isAbsolute(rel) ? null : rel;
}

/** The files of `written` this argv runs as a program or as an interpreter's script. */
export function writtenScriptsRun(argv: readonly ShellWord[], written: ReadonlySet<string>, root: string): string[] {
  if (written.size === 0 || argv.length === 0) return [];
  const program = programName(argv[0]!);
  const out: string[] = [];
  // `./fix.sh` or `scripts/fix.sh`: the program itself.
  if (program?.path !== null && program !== null) {
    const self = projectPath(argv[0]!, root);
    if (self !== null && written.has(self)) out.push(self);
  }
  if (program && INTERPRETERS.has(program.name)) {
    // The first operand is the script; options before it (`node --enable-source-maps x.js`) are skipped.
    const script = argv.slice(1).find((word) => !word.value.startsWith("-"));
    const rel = script ? projectPath(script, root) : null;
    if (rel !== null && written.has(rel)) out.push(rel);
  }
  return out;
}
