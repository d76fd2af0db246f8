// Environment variables set for a command. Some change which program runs or make it load other code
// (PATH, NODE_OPTIONS, LD_PRELOAD, GIT_*, HOME → another ~/.gitconfig …): those are denied. A few are
// known to be harmless. Anything else is only allowed after asking, because the list of dangerous
// names can never be complete (GCONV_PATH, PS4 with xtrace …).

const DANGEROUS_NAMES = new Set([
  "PATH", "IFS", "ENV", "BASH_ENV", "CDPATH", "PROMPT_COMMAND", "PS1", "PS2", "PS3", "PS4", "SHELLOPTS",
  "BASHOPTS", "GLOBIGNORE", "HOME", "ZDOTDIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "SHELL", "EDITOR", "VISUAL",
  "PAGER", "MANPAGER", "BROWSER", "LESSOPEN", "LESSCLOSE", "NODE_OPTIONS", "NODE_PATH", "NODE_REPL_EXTERNAL_MODULE",
  "NODE_EXTRA_CA_CERTS", "NODE_TLS_REJECT_UNAUTHORIZED", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PERL5OPT",
  "PERL5LIB", "PERLLIB", "RUBYOPT", "RUBYLIB", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH",
  "GCONV_PATH", "LOCPATH", "HOSTALIASES", "SSH_ASKPASS", "SUDO_ASKPASS", "MAKEFILES", "MAKEFLAGS", "COMSPEC",
  "TSX_TSCONFIG_PATH", "ELECTRON_RUN_AS_NODE",
]);

const DANGEROUS_PREFIXES = ["LD_", "DYLD_", "GIT_", "NPM_CONFIG_", "YARN_", "PNPM_", "COREPACK_", "BASH_FUNC_", "TS_NODE_"];

const HARMLESS_NAMES = new Set([
  "NODE_ENV", "CI", "DEBUG", "FORCE_COLOR", "NO_COLOR", "TZ", "LANG", "LANGUAGE", "COLUMNS", "LINES", "TERM",
  "NODE_NO_WARNINGS", "VERBOSE",
]);

export type EnvNameClass = "dangerous" | "harmless" | "unknown";

/**
 * Case is ignored: npm reads `npm_config_*` in any case, and zsh ties `path` to `PATH`. A name that is not
 * a shell identifier (`BASH_FUNC_x%%`, set through `env`) is treated as dangerous.
 */
export function classifyEnvName(name: string): EnvNameClass {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return "dangerous";
  const upper = name.toUpperCase();
  if (DANGEROUS_NAMES.has(upper) || DANGEROUS_PREFIXES.some((prefix) => upper.startsWith(prefix))) return "dangerous";
  if (HARMLESS_NAMES.has(upper) || upper.startsWith("LC_")) return "harmless";
  return "unknown";
}
