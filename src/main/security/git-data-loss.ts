// git commands that throw work away: uncommitted changes (checkout/restore of paths, checkout -f,
// clean, rm -f, submodule deinit -f), commits nothing else refers to (branch -D, stash drop/clear,
// update-ref -d, reset to an older commit, fetch into a branch with `+`, gc --prune=…), worktree
// folders, and branches on the remote (push --delete). Denied like `git reset --hard` (on the
// blacklist) when the loss is certain, asked about when it depends on what the ref held.
import fs from "node:fs";
import path from "node:path";
import { isGitLong, scanGitOptions, type GitOptionSyntax, type ScannedGitArguments } from "./git-arguments.js";
import { displayInline } from "./hidden-characters.js";
import type { ShellWord } from "./shell-words.js";
import type { Finding } from "./shell-types.js";

const CHECKOUT: GitOptionSyntax = {
  shortWithValue: "bB",
  long: [
    "--force", "--ours", "--theirs", "--merge", "--patch", "--detach", "--orphan", "--conflict", "--pathspec-from-file",
    "--pathspec-file-nul", "--track", "--no-track", "--guess", "--no-guess", "--quiet", "--progress", "--no-progress",
    "--ignore-skip-worktree-bits", "--ignore-other-worktrees", "--overwrite-ignore", "--no-overwrite-ignore",
    "--recurse-submodules", "--no-recurse-submodules", "--overlay", "--no-overlay",
  ],
  longWithValue: ["--orphan", "--conflict", "--pathspec-from-file"],
};
const SWITCH: GitOptionSyntax = {
  shortWithValue: "cC",
  long: [
    "--create", "--force-create", "--detach", "--guess", "--no-guess", "--force", "--discard-changes", "--merge", "--conflict",
    "--quiet", "--progress", "--no-progress", "--track", "--no-track", "--orphan", "--ignore-other-worktrees",
    "--recurse-submodules", "--no-recurse-submodules",
  ],
  longWithValue: ["--create", "--force-create", "--orphan", "--conflict"],
};
const RESTORE: GitOptionSyntax = {
  shortWithValue: "s",
  long: [
    "--source", "--staged", "--worktree", "--patch", "--quiet", "--progress", "--no-progress", "--ours", "--theirs", "--merge",
    "--conflict", "--ignore-unmerged", "--ignore-skip-worktree-bits", "--recurse-submodules", "--no-recurse-submodules",
    "--overlay", "--no-overlay", "--pathspec-from-file", "--pathspec-file-nul",
  ],
  longWithValue: ["--source", "--conflict", "--pathspec-from-file"],
};
const CLEAN: GitOptionSyntax = { shortWithValue: "e", long: ["--dry-run", "--force", "--interactive", "--quiet", "--exclude"], longWithValue: ["--exclude"] };
const BRANCH: GitOptionSyntax = {
  shortWithValue: "u",
  long: [
    "--delete", "--force", "--move", "--copy", "--set-upstream-to", "--unset-upstream", "--track", "--no-track", "--list", "--all",
    "--remotes", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--sort", "--format", "--color",
    "--no-color", "--column", "--no-column", "--edit-description", "--show-current", "--create-reflog", "--recurse-submodules",
    "--ignore-case", "--omit-empty", "--verbose", "--quiet", "--abbrev", "--no-abbrev",
  ],
  longWithValue: ["--set-upstream-to", "--points-at", "--sort", "--format"],
};
const RM: GitOptionSyntax = {
  long: ["--force", "--cached", "--dry-run", "--recursive", "--quiet", "--ignore-unmatch", "--sparse", "--pathspec-from-file", "--pathspec-file-nul"],
  longWithValue: ["--pathspec-from-file"],
};
const PUSH: GitOptionSyntax = {
  shortWithValue: "o",
  long: [
    "--delete", "--prune", "--all", "--branches", "--mirror", "--tags", "--force", "--force-with-lease", "--force-if-includes",
    "--dry-run", "--porcelain", "--set-upstream", "--follow-tags", "--signed", "--atomic", "--receive-pack", "--exec", "--repo",
    "--push-option", "--quiet", "--verbose", "--progress", "--no-verify", "--verify", "--thin", "--no-thin", "--ipv4", "--ipv6",
  ],
  longWithValue: ["--receive-pack", "--exec", "--repo", "--push-option"],
};
const UPDATE_REF: GitOptionSyntax = { shortWithValue: "m", long: ["--no-deref", "--create-reflog", "--stdin"] };
const RESET: GitOptionSyntax = {
  long: [
    "--soft", "--mixed", "--hard", "--merge", "--keep", "--quiet", "--no-quiet", "--patch", "--intent-to-add", "--refresh",
    "--no-refresh", "--recurse-submodules", "--no-recurse-submodules", "--pathspec-from-file", "--pathspec-file-nul",
  ],
  longWithValue: ["--pathspec-from-file"],
};

/** HEAD itself (`git reset`, `git reset HEAD`): nothing moves, the index is reset. */
const HEAD = /^(HEAD|@)$/;
/**
 * The commit before HEAD: `git reset --soft HEAD~1` undoes the last commit and keeps all of its changes
 * (staged, or in the work tree), the everyday "uncommit". Further back, or to another branch or hash,
 * the commits in between leave the branch.
 */
const ONE_BACK = /^(HEAD|@)(~1?|\^1?)$/;

const has = (scanned: ScannedGitArguments, ...names: string[]): boolean => names.some((name) => scanned.options.has(name));
const list = (words: readonly ShellWord[]): string =>
  displayInline(words.map((word) => `\`${word.raw}\``).join(", "), 60);

/** A first `git checkout` operand that names files rather than a branch or commit. */
function namesPaths(word: ShellWord, root: string): boolean {
  if (word.dynamic) return false; // judged as "only known at run time" elsewhere
  const text = word.value;
  // Quoted globs (`'src/*.ts'`) reach git, which reads them as pathspecs.
  if (word.glob || /[*?[]/.test(text) || text === "." || text === ".." || /^(\.{1,2}\/|\/|:)/.test(text) || text.endsWith("/")) return true;
  return fs.existsSync(path.resolve(root, text));
}

function checkoutFindings(cmd: string, args: readonly ShellWord[], root: string): Finding[] {
  const findings: Finding[] = [];
  const scanned = scanGitOptions(args, CHECKOUT);
  if (has(scanned, "-f", "--force")) {
    findings.push({ verdict: "deny", reason: `\`${cmd}\` (\`--force\`) throws away uncommitted changes in the working tree` });
  }
  const creating = has(scanned, "-b", "-B", "--orphan");
  const [first, ...more] = scanned.operands;
  const paths = [...(creating ? [] : more), ...scanned.pathspecs];
  // `--ours` / `--theirs` only make sense with paths, so the first operand is one too.
  const firstIsPath = has(scanned, "--ours", "--theirs") || (first !== undefined && namesPaths(first, root));
  if (!creating && first && firstIsPath) paths.unshift(first);
  if (paths.length > 0 || has(scanned, "--pathspec-from-file")) {
    const which = paths.length > 0 ? list(paths) : "the listed paths";
    findings.push({ verdict: "deny", reason: `\`${cmd}\` overwrites uncommitted changes to ${which} with the committed version (like \`git reset --hard\`)` });
  }
  if (has(scanned, "-B")) {
    findings.push({ verdict: "ask", reason: `\`${cmd}\` (\`-B\`) resets an existing branch; commits only it reached are lost` });
  }
  return findings;
}

function switchFindings(cmd: string, args: readonly ShellWord[]): Finding[] {
  const scanned = scanGitOptions(args, SWITCH);
  const findings: Finding[] = [];
  if (has(scanned, "-f", "--force", "--discard-changes")) {
    findings.push({ verdict: "deny", reason: `\`${cmd}\` (\`--discard-changes\`) throws away uncommitted changes in the working tree` });
  }
  if (has(scanned, "-C", "--force-create")) {
    findings.push({ verdict: "ask", reason: `\`${cmd}\` (\`-C\`) resets an existing branch; commits only it reached are lost` });
  }
  return findings;
}

function restoreFindings(cmd: string, args: readonly ShellWord[]): Finding[] {
  const scanned = scanGitOptions(args, RESTORE);
  const worktree = has(scanned, "-W", "--worktree") || !has(scanned, "-S", "--staged");
  const paths = [...scanned.operands, ...scanned.pathspecs];
  if (!worktree || (paths.length === 0 && !has(scanned, "--pathspec-from-file"))) return [];
  const which = paths.length > 0 ? list(paths) : "the listed paths";
  return [{ verdict: "deny", reason: `\`${cmd}\` overwrites uncommitted changes to ${which} in the working tree (\`--staged\` alone only unstages)` }];
}

function branchFindings(cmd: string, args: readonly ShellWord[]): Finding[] {
  const scanned = scanGitOptions(args, BRANCH);
  const force = has(scanned, "-D", "-M", "-C", "-f", "--force");
  const del = has(scanned, "-d", "-D", "--delete");
  const moveOrCopy = has(scanned, "-m", "-M", "--move", "-c", "-C", "--copy");
  if (del && force) return [{ verdict: "deny", reason: `\`${cmd}\` deletes a branch even when its commits are merged nowhere else` }];
  if (force && moveOrCopy) return [{ verdict: "ask", reason: `\`${cmd}\` overwrites an existing branch; commits only it reached are lost` }];
  if (force && !del && scanned.operands.length > 0) {
    return [{ verdict: "ask", reason: `\`${cmd}\` (\`--force\`) moves an existing branch; commits only it reached are lost` }];
  }
  return [];
}

function otherFindings(sub: string, cmd: string, args: readonly ShellWord[]): Finding[] {
  const action = args.find((word) => !word.value.startsWith("-"))?.value;
  if (sub === "stash" && (action === "clear" || action === "drop")) {
    const what = action === "clear" ? "every stash" : "a stash";
    return [{ verdict: "deny", reason: `\`${cmd}\` deletes ${what}; nothing refers to the stashed changes afterwards` }];
  }
  if (sub === "update-ref") {
    const scanned = scanGitOptions(args, UPDATE_REF);
    if (has(scanned, "-d")) return [{ verdict: "deny", reason: `\`${cmd}\` deletes a ref; commits only it reached are lost` }];
    return [{ verdict: "ask", reason: `\`${cmd}\` moves a ref directly; commits only it reached can be lost` }];
  }
  if (sub === "clean") {
    const scanned = scanGitOptions(args, CLEAN);
    if (has(scanned, "-n", "--dry-run", "-h")) return [];
    return [{ verdict: "deny", reason: `\`${cmd}\` deletes untracked files, of which git keeps no copy` }];
  }
  if (sub === "rm") {
    const scanned = scanGitOptions(args, RM);
    if (has(scanned, "-f", "--force") && !has(scanned, "--cached", "-n", "--dry-run")) {
      return [{ verdict: "deny", reason: `\`${cmd}\` (\`--force\`) deletes files even when they hold uncommitted changes` }];
    }
  }
  if (sub === "reflog" && (action === "expire" || action === "delete")) {
    return [{ verdict: "ask", reason: `\`${cmd}\` drops reflog entries, the record that brings lost commits back` }];
  }
  if (sub === "prune" || (sub === "gc" && prunesEarly(args))) {
    return [{ verdict: "ask", reason: `\`${cmd}\` deletes unreachable commits that the reflog could still bring back` }];
  }
  if (sub === "worktree" && action !== undefined && WORKTREE_CHANGES[action]) {
    return [{ verdict: "ask", reason: `\`${cmd}\` ${WORKTREE_CHANGES[action]}` }];
  }
  if ((sub === "fetch" || sub === "pull") && forcesLocalRef(args)) {
    return [{ verdict: "ask", reason: `\`${cmd}\` (\`+src:dst\` or \`--force\`) moves a local branch or tag even when commits only it reached are lost, like \`git branch -f\`` }];
  }
  if (sub === "submodule") return submoduleFindings(cmd, args);
  return [];
}

/** `git gc --prune=<date>` (or `--prune <date>`): anything but the default expiry (two weeks, or gc.pruneExpire). */
function prunesEarly(args: readonly ShellWord[]): boolean {
  return args.some((word, index) => {
    if (!isGitLong(word, "--prune")) return false;
    const next = args[index + 1];
    return word.value.includes("=") || (next !== undefined && !next.value.startsWith("-"));
  });
}

const WORKTREE_CHANGES: Record<string, string> = {
  remove: "deletes a worktree's folder, wherever it lies (outside the project too), and with `--force` its uncommitted changes",
  move: "moves a worktree's folder, possibly out of or into places outside the project",
  prune: "deletes the records of worktrees whose folders git cannot find (on an unmounted disk, say)",
  repair: "rewrites the links between worktrees and the repository, in folders outside the project",
};

/** A refspec `+src:dst` (or any `src:dst` with `--force`) whose destination is a local ref, not a remote-tracking one. */
function forcesLocalRef(args: readonly ShellWord[]): boolean {
  const force = args.some((word) => isGitLong(word, "--force") || /^-[a-zA-Z]*f[a-zA-Z]*$/.test(word.value));
  return args.some((word) => {
    const refspec = /^(\+?)[^:]*:(.+)$/.exec(word.value);
    if (!refspec || word.value.startsWith("-") || refspec[2]!.startsWith("refs/remotes/")) return false;
    return refspec[1] === "+" || force;
  });
}

/** `git submodule deinit --force`/`--all` and `update --force` throw away the submodules' local changes. */
function submoduleFindings(cmd: string, args: readonly ShellWord[]): Finding[] {
  const words = args.map((word) => word.value);
  const action = words.find((value) => !value.startsWith("-"));
  const after = words.slice(words.indexOf(action ?? "") + 1);
  const force = after.some((value) => /^-[a-zA-Z]*f[a-zA-Z]*$/.test(value) || /^--for(c(e)?)?$/.test(value));
  if (action === "deinit" && (force || after.includes("--all"))) {
    return [{ verdict: "ask", reason: `\`${cmd}\` removes submodules' working trees (\`--force\`: with their local changes; \`--all\`: every one)` }];
  }
  if (action === "update" && force) {
    return [{ verdict: "ask", reason: `\`${cmd}\` (\`--force\`) checks submodules out again, throwing away their local changes` }];
  }
  return [];
}

/**
 * `git reset [--soft|--mixed] <commit>` moves the branch: commits after that one leave it (their changes
 * stay in the index or the work tree). With paths (`git reset HEAD file`, `git reset -- file`) it only
 * unstages. `--hard` is on the blacklist and `--keep`/`--merge` are asked about in git-rules.ts.
 */
function resetFindings(cmd: string, args: readonly ShellWord[], root: string): Finding[] {
  const scanned = scanGitOptions(args, RESET);
  if (has(scanned, "--hard", "--keep", "--merge", "-p", "--patch", "--pathspec-from-file") || scanned.pathspecs.length > 0) return [];
  const [target, ...more] = scanned.operands;
  if (!target || more.length > 0 || target.dynamic || HEAD.test(target.value) || ONE_BACK.test(target.value)) return [];
  // Without `--`, a lone operand that names a file is a path (git refuses one that is both).
  if (!args.some((word) => word.value === "--") && namesPaths(target, root)) return [];
  return [{ verdict: "ask", reason: `\`${cmd}\` moves the branch to \`${displayInline(target.raw, 40)}\`; commits only it reached are lost` }];
}

function pushFindings(cmd: string, args: readonly ShellWord[]): Finding[] {
  const scanned = scanGitOptions(args, PUSH);
  if (has(scanned, "-n", "--dry-run")) return [];
  const findings: Finding[] = [];
  const deletesRef = scanned.operands.some((word) => /^\+?:./.test(word.value));
  if (has(scanned, "-d", "--delete") || deletesRef) {
    findings.push({ verdict: "ask", reason: `\`${cmd}\` deletes branches or tags on the remote` });
  }
  if (has(scanned, "--prune")) {
    findings.push({ verdict: "ask", reason: `\`${cmd}\` (\`--prune\`) deletes remote branches that have no local counterpart` });
  }
  return findings;
}

/**
 * `git tag -d` and `git tag -f` are asked about, as moving or deleting a branch is: a release tag others
 * build from points elsewhere or is gone, and a deleted annotated tag's object goes with the next gc
 * (tags have no reflog to bring them back).
 */
function tagFindings(cmd: string, args: readonly ShellWord[]): Finding[] {
  const flags = args.map((word) => word.value).filter((v) => v.startsWith("-"));
  const short = (letter: string) => flags.some((v) => /^-[A-Za-z]+$/.test(v) && v.includes(letter));
  if (short("d") || flags.includes("--delete")) return [{ verdict: "ask", reason: `\`${cmd}\` deletes a tag; git keeps no record to bring it back` }];
  if (short("f") || flags.includes("--force")) return [{ verdict: "ask", reason: `\`${cmd}\` (\`--force\`) moves an existing tag to another commit` }];
  return [];
}

/** Findings for a git subcommand that can lose work; `root` places paths named by `git checkout`. */
export function gitDataLossFindings(sub: string, args: readonly ShellWord[], root: string): Finding[] {
  const cmd = displayInline(["git", sub, ...args.map((word) => word.raw)].join(" "));
  switch (sub) {
    case "checkout":
      return checkoutFindings(cmd, args, root);
    case "switch":
      return switchFindings(cmd, args);
    case "restore":
      return restoreFindings(cmd, args);
    case "branch":
      return branchFindings(cmd, args);
    case "push":
      return pushFindings(cmd, args);
    case "tag":
      return tagFindings(cmd, args);
    case "reset":
      return resetFindings(cmd, args, root);
    default:
      return otherFindings(sub, cmd, args);
  }
}
