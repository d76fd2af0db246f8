// Reads that reach files the command line does not name. Only the paths written in a command are
// checked to stay inside the project; a program that follows the symlinks it meets while walking a
// folder reads wherever they lead (`vendor-cache -> /tmp/secret`, planted by git plumbing or an
// unpacked archive). So the options that follow them are asked about: `grep -R` (`-r` does not
// follow), `find -L`/`-follow`, `rg -L`/`--follow`, `ls -LR`, `du -L`, `tree -l`, and `diff -r`, which always
// follows unless told `--no-dereference`. Likewise `--files0-from`, which reads the names of the
// files to open from a file.
import type { ShellWord } from "./shell-words.js";
import type { Finding } from "./shell-types.js";

/** Whether a word is the long option `full` or an abbreviation of it (GNU getopt takes any unambiguous prefix). */
export function isLong(word: ShellWord, full: string): boolean {
  const name = word.value.split("=", 1)[0]!;
  return name.startsWith("--") && name.length >= 4 && full.startsWith(name);
}

/** Short options that take a value, per program: a cluster's letters after one of them are its value. */
const SHORT_WITH_VALUE: Record<string, string> = {
  grep: "efmABCdD",
  rg: "ABCdEefgjMmrtT",
  ls: "IwT",
  du: "BdtX",
  diff: "CDFILSUWxX",
  tree: "LPIoHT",
};

/** The short flags a program's arguments set (`-nR` → n, R), read up to each cluster's first value-taking letter. */
export function shortFlags(program: string, args: readonly ShellWord[]): Set<string> {
  const withValue = SHORT_WITH_VALUE[program] ?? "";
  const flags = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.value;
    if (text === "--") break;
    if (!/^-[^-]/.test(text)) continue;
    for (let j = 1; j < text.length; j++) {
      flags.add(text[j]!);
      if (withValue.includes(text[j]!)) {
        if (j === text.length - 1) i++;
        break;
      }
    }
  }
  return flags;
}

/** The option, as it would be written, that makes `program` follow symlinks while walking folders; null when none does. */
function followingOption(program: string, args: readonly ShellWord[]): string | null {
  const long = (full: string): boolean => args.some((word) => isLong(word, full));
  const flags = (): Set<string> => shortFlags(program, args);
  switch (program) {
    case "grep":
    case "egrep":
    case "fgrep":
      return long("--dereference-recursive") || shortFlags("grep", args).has("R") ? `${program} -R` : null;
    case "rg":
      return long("--follow") || flags().has("L") ? "rg --follow" : null;
    case "find":
      return findFollows(args);
    case "ls": {
      const set = flags();
      const dereference = set.has("L") || long("--dereference");
      return dereference && (set.has("R") || long("--recursive")) ? "ls -LR" : null;
    }
    case "du":
      return flags().has("L") || long("--dereference") ? "du -L" : null;
    case "tree":
      return flags().has("l") ? "tree -l" : null;
    case "diff":
      return (flags().has("r") || long("--recursive")) && !long("--no-dereference") ? "diff -r" : null;
    default:
      return null;
  }
}

/** find's `-L` comes before the paths (with -H, -P, -D opts, -O3); `-follow` sits anywhere in the expression. */
function findFollows(args: readonly ShellWord[]): string | null {
  let follows = false;
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.value;
    if (/^-[HLP]+$/.test(text)) follows = text.endsWith("L"); // the last of them wins
    else if (text === "-D") i++;
    else if (!/^-O\d*$/.test(text)) break;
  }
  if (follows) return "find -L";
  return args.some((word) => word.value === "-follow") ? "find -follow" : null;
}

export function followingReadFindings(program: string, args: readonly ShellWord[]): Finding[] {
  const findings: Finding[] = [];
  const option = followingOption(program, args);
  if (option) {
    findings.push({ verdict: "ask", reason: `\`${option}\` follows the symlinks it meets while walking folders, and a symlink may lead outside the project` });
  }
  if (args.some((word) => isLong(word, "--files0-from"))) {
    findings.push({ verdict: "ask", reason: `\`${program} --files0-from\` reads the names of the files to open from a file, which the command line does not show` });
  }
  return findings;
}
