// git's magic pathspecs `:/path`, `:!/path` and `:(top)path` (`:(top,glob)…`) name paths from the
// repository's top, not from the current folder. When the project is a folder inside a larger
// repository (project.scope "directory"), `git rm -r ':/packages'` reaches past the project root as
// `git rm -r ../packages` does, though no word climbs out with `..`: asked about the same way. When
// the project root is the repository's top, `:/x` is `x` and nothing is said.
import fs from "node:fs";
import path from "node:path";
import { displayInline } from "./hidden-characters.js";
import type { ShellWord } from "./shell-words.js";
import type { Finding } from "./shell-types.js";

/** Short form: `:` and magic signs (`/` top, `!`/`^` exclude) before the path; long form: `:(top,…)`. */
function fromTop(text: string): boolean {
  if (/^:[!^]*\//.test(text)) return true;
  const long = /^:\(([^)]*)\)/.exec(text);
  return long !== null && long[1]!.split(",").some((magic) => magic.trim() === "top");
}

/** Whether `root` holds the repository's git directory (or a `.git` file of a worktree or submodule). */
function isRepositoryTop(root: string): boolean {
  return fs.existsSync(path.join(root, ".git"));
}

/** Ask findings for git arguments that are pathspecs from the repository's top, when that is not `root`. */
export function topPathspecFindings(args: readonly ShellWord[], root: string): Finding[] {
  const top = args.filter((word) => !word.dynamic && fromTop(word.value));
  if (top.length === 0 || isRepositoryTop(root)) return [];
  return top.map((word) => ({
    verdict: "ask",
    reason: `the argument \`${displayInline(word.raw)}\` is a pathspec from the repository's top, which lies outside the project root`,
  }));
}
