// The commands pnpm and yarn know, aliases included. Any other first operand is not an error to them:
// pnpm (≥ 6.6.1) runs the package.json script of that name, or else the name as a program, as
// `pnpm exec` would; yarn runs the script, or else a dependency's binary of that name. So a name
// missing here is judged as the program it runs (package-runners.ts). Taken from pnpm 10's
// pnpm/src/cmd and pnpm.ts, yarn 1's cli/commands and yarn 4's CLI.

/** Commands pnpm hands to npm unchanged (`pnpm login` is `npm login`). */
const PASSTHROUGH = [
  "access", "adduser", "bugs", "deprecate", "dist-tag", "docs", "edit", "find", "home", "info", "issues", "login",
  "logout", "owner", "ping", "prefix", "profile", "pkg", "repo", "s", "se", "search", "set-script", "show", "star",
  "stars", "team", "token", "unpublish", "unstar", "v", "version", "view", "whoami", "xmas",
];
export const PNPM_NPM_PASSTHROUGH: ReadonlySet<string> = new Set(PASSTHROUGH);

export const PNPM_COMMANDS: ReadonlySet<string> = new Set([
  "add", "approve-builds", "audit", "bin", "cache", "cat-file", "cat-index", "ci", "clean", "clean-install", "ic",
  "install-clean", "completion", "completion-server", "install-completion", "uninstall-completion", "config", "c",
  "get", "set", "create", "dedupe", "deploy", "dlx", "doctor", "env", "exec", "fetch", "find-hash", "help",
  "ignored-builds", "import", "init", "install", "i", "install-test", "it", "licenses", "link", "ln", "list", "ls",
  "ll", "la", "outdated", "pack", "patch", "patch-commit", "patch-remove", "prune", "publish", "rebuild",
  "rb", "recursive", "m", "multi", "remove", "rm", "uninstall", "r", "un", "uni", "restart", "root", "run",
  "run-script", "runtime", "sbom", "self-update", "server", "setup", "start", "store", "test", "t", "tst", "unlink",
  "dislink", "update", "up", "upgrade", "why", "with",
  ...PASSTHROUGH,
]);

export const YARN_COMMANDS: ReadonlySet<string> = new Set([
  "access", "add", "audit", "autoclean", "bin", "cache", "check", "config", "constraints", "create", "dedupe", "dlx",
  "exec", "explain", "generate-lock-entry", "global", "help", "import", "info", "init", "install", "licenses", "link",
  "list", "login", "logout", "node", "npm", "outdated", "owner", "pack", "patch", "patch-commit", "plugin", "policies",
  "publish", "rebuild", "remove", "run", "search", "set", "stage", "tag", "team", "unlink", "unplug", "up", "upgrade",
  "upgrade-interactive", "version", "versions", "why", "workspace", "workspaces",
]);
