// Rules for git: options and subcommands that make it run other programs (-c, --exec-path, config
// writes, send-email …), write files named on the command line, or throw work away (git-data-loss.ts).
import { gitDataLossFindings } from "./git-data-loss.js";
import { isGitLong, parseGitArguments } from "./git-arguments.js";
import { GIT_COMMANDS } from "./git-commands.js";
import { topPathspecFindings } from "./git-pathspecs.js";
import type { ShellWord } from "./shell-words.js";
import type { Finding } from "./shell-types.js";

const GIT_CONFIG_WRITE_OPTIONS = new Set(["--add", "--replace-all", "--unset", "--unset-all", "--rename-section", "--remove-section", "-e", "--edit"]);
const GIT_CONFIG_READ_OPTIONS = new Set(["--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "-l", "--list"]);
const GIT_CONFIG_VALUE_OPTIONS = new Set(["-f", "--file", "--blob", "--type", "--default", "--comment", "--value"]);
const GIT_CONFIG_WRITE_SUBCOMMANDS = new Set(["set", "unset", "rename-section", "remove-section", "edit"]);

/** `--list`, `--get-regexp`, `--get-urlmatch` and their abbreviations (`--li`, but `--get` is an option of its own). */
const GIT_CONFIG_LIST_OPTION = /^--(li(st?)?|get-r(e(g(e(xp?)?)?)?)?|get-u(r(l(m(a(t(ch?)?)?)?)?)?)?)(=|$)/;

/**
 * A read of `git config` that shows entries by the dozen (`--list`, `--get-regexp`, `list`), global and
 * system ones included unless `--local`/`--worktree` limits it to the repository's own file.
 */
function listsGlobalConfig(args: readonly ShellWord[]): boolean {
  if (args.some((word) => ["--local", "--worktree"].some((o) => isGitLong(word, o)))) return false;
  const first = args.find((word) => !word.value.startsWith("-"))?.value;
  const regexp = first === "get" && args.some((word) => isGitLong(word, "--regexp") || isGitLong(word, "--url"));
  return first === "list" || regexp || args.some((word) => /^-z*lz*$/.test(word.value) || GIT_CONFIG_LIST_OPTION.test(word.value));
}

/** `git config` that only reads (`--get`, `--list`, `get`, a lone key); anything else may write. */
function isReadOnlyGitConfig(args: readonly ShellWord[]): boolean {
  if (args.some((word) => word.dynamic || word.glob)) return false;
  const values = args.map((word) => word.value);
  const operands: string[] = [];
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    const name = value.split("=", 1)[0]!;
    // Abbreviated too (`--unset-a`, `--remove-sec`), as git takes them.
    if (GIT_CONFIG_WRITE_OPTIONS.has(name) || [...GIT_CONFIG_WRITE_OPTIONS].some((o) => o.startsWith("--") && isGitLong(args[i]!, o))) return false;
    if (GIT_CONFIG_VALUE_OPTIONS.has(value)) i++;
    else if (!value.startsWith("-")) operands.push(value);
  }
  if (operands[0] === "get" || operands[0] === "list") return true;
  if (operands[0] !== undefined && GIT_CONFIG_WRITE_SUBCOMMANDS.has(operands[0])) return false;
  return values.some((value) => GIT_CONFIG_READ_OPTIONS.has(value.split("=", 1)[0]!)) || operands.length <= 1;
}

// Subcommands that run programs, serve or send data, or touch credentials.
const GIT_ASK_SUBCOMMANDS = new Set([
  "send-email", "daemon", "instaweb", "web--browse", "imap-send", "credential", "credential-store", "credential-cache",
  "upload-pack", "receive-pack", "shell", "p4", "svn", "cvsimport", "cvsserver", "archimport", "quiltimport",
  "http-backend", "http-push", "remote-ext", "remote-fd", "hook", "filter-branch", "mergetool", "difftool",
  // Writes the global config and installs a crontab / systemd timer: keeps running outside the project.
  "maintenance",
  // Writes files the patch names, not the command line: .git/hooks, symlinks, paths outside (see below).
  "am", "update-index", "checkout-index",
  // Plumbing that writes objects, refs or files from its input (a symlink out of the project, a
  // .git/config), or keeps running in the background.
  "fast-import", "mailinfo", "mailsplit", "fsmonitor--daemon", "bugreport", "diagnose",
  // Run a program named on the command line, or git in every repository a config key lists.
  "merge-index", "merge-one-file", "for-each-repo",
]);

/**
 * Plumbing that builds the tree a later checkout writes: entries come from stdin or a tree, not from
 * the work tree, so nothing checks them (a mode 120000 entry is a symlink out of the project that
 * `git merge --ff-only` then plants, and `grep -R` reads through). Writing a blob (`hash-object -w`)
 * or a tree of the index (`write-tree`) adds nothing the work tree did not hold, and stays allowed.
 */
const GIT_TREE_BUILDERS: Record<string, string> = {
  mktree: "builds a tree from text on stdin",
  "commit-tree": "makes a commit of a tree that may not come from the work tree",
  "read-tree": "replaces the index with a tree, which the next commit or checkout writes",
  replace: "makes git show other objects in place of the ones named",
};

/** Subcommands that reach a remote named on the command line (a URL, `host:path`), or send data out. */
const GIT_REMOTE_SUBCOMMANDS = new Set(["clone", "fetch", "pull", "ls-remote", "archive", "submodule"]);
/** A URL or scp-like `user@host:path` (not a path, not a remote's name such as `origin`). */
const REMOTE_ADDRESS = /^(?:[a-z][a-z0-9+.-]*:\/\/|[^/\s:]+@[^/\s:]+:|ext::|fd::)/i;

/** Deny/ask findings for git's arguments (after `git`); `root` is the project root. */
export function gitFindings(args: readonly ShellWord[], root: string): Finding[] {
  const findings: Finding[] = [];
  const git = parseGitArguments(args);
  for (const option of git.globals) {
    if (option.name === "-c" || option.name === "--config-env") {
      findings.push({ verdict: "deny", reason: `\`git ${option.name}\` sets configuration that can make git run commands (core.pager, core.fsmonitor, alias.* …)` });
    } else if (option.name === "--exec-path" && option.value) {
      findings.push({ verdict: "deny", reason: "`git --exec-path=…` changes where git finds the programs it runs" });
    } else if (["-C", "--git-dir", "--work-tree", "--bare"].includes(option.name)) {
      // --bare makes the current folder the git directory: a HEAD and config written there run aliases.
      findings.push({ verdict: "ask", reason: `\`git ${option.name}\` points git at another repository, whose config could run commands` });
    }
  }
  // `git clone -c key=value`: the same configuration, set on the new repository while it is fetched.
  if (git.subcommand === "clone" && git.args.some((word) => word.value === "-c" || /^-c./.test(word.value) || isGitLong(word, "--config"))) {
    findings.push({ verdict: "deny", reason: "`git clone -c` sets configuration that can make git run commands (core.sshCommand, core.fsmonitor …)" });
  }
  if ((git.subcommand === "init" || git.subcommand === "clone") && git.args.some((word) => isGitLong(word, "--separate-git-dir"))) {
    findings.push({ verdict: "ask", reason: "`--separate-git-dir` moves the git directory where the file tools' guard for .git does not reach" });
  }
  if (git.subcommand === "apply") {
    const checkOnly =
      git.args.some((word) => ["--check", "--stat", "--numstat", "--summary"].some((o) => isGitLong(word, o))) && !git.args.some((word) => isGitLong(word, "--apply"));
    if (git.args.some((word) => isGitLong(word, "--unsafe-paths"))) {
      findings.push({ verdict: "deny", reason: "`git apply --unsafe-paths` lets a patch write outside the work tree (or into .git: hooks)" });
    } else if (!checkOnly) {
      findings.push({ verdict: "ask", reason: "`git apply` writes the files the patch names (which the command line does not show), symlinks included" });
    }
  }
  // Plumbing that overwrites the work tree as checkout -- . and reset --hard do (git-data-loss.ts).
  const flag = (re: RegExp) => git.args.some((word) => re.test(word.value));
  const long = (full: string) => git.args.some((word) => isGitLong(word, full));
  if ((git.subcommand === "checkout-index" && (flag(/^-[a-z]*f[a-z]*$/) || long("--force"))) || (git.subcommand === "read-tree" && (flag(/^-u$/) || long("--reset")))) {
    findings.push({ verdict: "deny", reason: `\`git ${git.subcommand}\` with that option overwrites uncommitted work in the work tree` });
  }
  if (git.subcommand === "mv" && (flag(/^-f$/) || long("--force"))) {
    findings.push({ verdict: "ask", reason: "`git mv -f` overwrites the file it moves onto" });
  }
  if (git.subcommand === "help" && (flag(/^-w$/) || long("--web"))) {
    findings.push({ verdict: "ask", reason: "`git help --web` starts a browser" });
  }
  if (git.subcommand === "config" && !isReadOnlyGitConfig(git.args)) {
    findings.push({ verdict: "deny", reason: "`git config` can set keys that make git run commands (core.fsmonitor, core.pager, alias.* …)" });
  } else if (git.subcommand === "config" && listsGlobalConfig(git.args)) {
    findings.push({ verdict: "ask", reason: "`git config --list` (or `--get-regexp`) shows the global and system configuration too, where tokens can sit" });
  }
  if (git.subcommand !== null && (GIT_ASK_SUBCOMMANDS.has(git.subcommand) || git.subcommand.startsWith("credential"))) {
    findings.push({ verdict: "ask", reason: `\`git ${git.subcommand}\` can run other programs or send data` });
  } else if (git.subcommand !== null && !GIT_COMMANDS.has(git.subcommand)) {
    findings.push({
      verdict: "ask",
      reason: `\`git ${git.subcommand}\` is not a git command ipuaro knows: an alias or an extension (\`git-${git.subcommand}\` on PATH) runs what its configuration says`,
    });
  }
  const builds = git.subcommand === null ? undefined : GIT_TREE_BUILDERS[git.subcommand];
  const listsReplacements = git.subcommand === "replace" && (git.args.length === 0 || long("--list") || flag(/^-l$/));
  if (builds && !listsReplacements) {
    findings.push({ verdict: "ask", reason: `\`git ${git.subcommand}\` ${builds}; what the work tree gets from it is not checked` });
  }
  findings.push(...remoteFindings(git.subcommand, git.args));
  if (git.subcommand === "config" && git.args.some((word) => ["--global", "--system"].some((o) => isGitLong(word, o)) || isGitLong(word, "--file") || word.value === "-f")) {
    findings.push({ verdict: "ask", reason: "`git config --global` (or `--system`, `--file`) reads configuration outside the project, where tokens can sit" });
  }
  if (git.subcommand === "reset" && (long("--keep") || long("--merge"))) {
    findings.push({ verdict: "ask", reason: "`git reset --keep`/`--merge` moves the branch back; commits only it reached are lost" });
  }
  if ((git.subcommand === "commit" && long("--amend")) || (git.subcommand === "rebase" && (flag(/^-[a-zA-Z]*i[a-zA-Z]*$/) || long("--interactive")))) {
    findings.push({ verdict: "ask", reason: `\`git ${git.subcommand}\` with that option rewrites a commit already made (or opens an editor)` });
  }
  const writesFile =
    long("--output") ||
    long("--output-directory") ||
    ((git.subcommand === "archive" || git.subcommand === "format-patch") && git.args.some((word) => /^-o/.test(word.value)));
  if (writesFile) findings.push({ verdict: "ask", reason: `\`git ${git.subcommand}\` writes a file named on the command line` });
  if ((git.subcommand === "clone" || git.subcommand === "init") && long("--template")) {
    findings.push({ verdict: "ask", reason: "`--template` installs hooks from a directory into the new repository" });
  }
  if (git.subcommand !== null) findings.push(...gitDataLossFindings(git.subcommand, git.args, root));
  findings.push(...topPathspecFindings(git.args, root));
  return findings;
}

/** Remotes given on the command line, pushes, and remote settings that send later pushes elsewhere. */
function remoteFindings(subcommand: string | null, args: readonly ShellWord[]): Finding[] {
  if (subcommand === "push") return [{ verdict: "ask", reason: "`git push` sends commits out of this machine" }];
  if (subcommand === "remote" && ["add", "set-url", "rename"].includes(args.find((word) => !word.value.startsWith("-"))?.value ?? "")) {
    return [{ verdict: "ask", reason: "`git remote` changes where later fetches and pushes go" }];
  }
  if (subcommand === null || !GIT_REMOTE_SUBCOMMANDS.has(subcommand)) return [];
  const named = args.some((word) => REMOTE_ADDRESS.test(word.value.replace(/^--[a-z-]+=/, "")));
  return named ? [{ verdict: "ask", reason: `\`git ${subcommand}\` reaches a remote named on the command line (its content is fetched, or the repository's sent)` }] : [];
}
