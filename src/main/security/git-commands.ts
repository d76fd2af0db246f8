// The subcommands git itself ships (`git help -a`, git 2.51), which git-rules.ts and git-data-loss.ts
// judge. Any other name is an alias from some config (`git co` → checkout, `git nuke` → `!git reset
// --hard`) or a `git-<name>` program on PATH (git lfs, git flow): what it runs is not on the command
// line, so it is asked about. git never lets an alias shadow one of these names.

export const GIT_COMMANDS: ReadonlySet<string> = new Set([
  // porcelain
  "add", "am", "archive", "backfill", "bisect", "branch", "bundle", "checkout", "cherry-pick", "clean", "clone", "commit",
  "describe", "diff", "fetch", "format-patch", "gc", "grep", "init", "init-db", "log", "maintenance", "merge", "mv",
  "notes", "pull", "push", "range-diff", "rebase", "reset", "restore", "revert", "rm", "shortlog", "show",
  "sparse-checkout", "stage", "stash", "status", "submodule", "switch", "tag", "worktree",
  // ancillary
  "config", "fast-export", "fast-import", "filter-branch", "mergetool", "pack-refs", "prune", "reflog", "refs", "remote",
  "repack", "replace", "annotate", "blame", "bugreport", "count-objects", "diagnose", "difftool", "fsck", "help",
  "instaweb", "merge-tree", "rerere", "show-branch", "verify-commit", "verify-tag", "version", "whatchanged",
  "last-modified", "repo",
  // interacting with others
  "archimport", "cvsexportcommit", "cvsimport", "cvsserver", "imap-send", "p4", "quiltimport", "request-pull",
  "send-email", "svn",
  // plumbing
  "apply", "checkout-index", "commit-graph", "commit-tree", "hash-object", "index-pack", "merge-file", "merge-index",
  "merge-one-file", "mktag", "mktree", "multi-pack-index", "pack-objects", "prune-packed", "read-tree", "replay",
  "symbolic-ref", "unpack-objects", "update-index", "update-ref", "write-tree", "cat-file", "cherry", "diff-files",
  "diff-index", "diff-pairs", "diff-tree", "for-each-ref", "for-each-repo", "get-tar-commit-id", "ls-files",
  "ls-remote", "ls-tree", "merge-base", "name-rev", "pack-redundant", "rev-list", "rev-parse", "show-index", "show-ref",
  "unpack-file", "var", "verify-pack", "daemon", "fetch-pack", "http-backend", "send-pack", "update-server-info",
  "check-attr", "check-ignore", "check-mailmap", "check-ref-format", "column", "credential", "credential-cache",
  "credential-store", "fmt-merge-msg", "hook", "interpret-trailers", "mailinfo", "mailsplit", "patch-id", "stripspace",
  // transports and helpers git runs itself
  "upload-pack", "receive-pack", "upload-archive", "shell", "web--browse", "remote-ext", "remote-fd", "http-fetch",
  "http-push", "fsmonitor--daemon",
]);
