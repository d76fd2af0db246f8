// Which project files the model may not write at all, and which writes make later commands run code
// the model chose (write-then-execute): package.json scripts, tool configs, hooks, node_modules.
// Paths are project-relative. Names are compared case-insensitively and with trailing dots and spaces
// dropped, because case-insensitive file systems (macOS, Windows) open `.GIT/config` as `.git/config`.

function segments(relPath: string): string[] {
  return relPath
    .replace(/\\/g, "/")
    .split("/")
    .map((segment) => segment.toLowerCase().replace(/[. ]+$/, (tail) => (segment === "." || segment === ".." ? tail : "")))
    .filter((segment) => segment !== "" && segment !== ".");
}

/** `.git/**` at any depth (hooks and config of this or a nested repo), `.ipuaro/**` and `.ipuaro.json`. */
export function isForbiddenWrite(relPath: string): boolean {
  const parts = segments(relPath);
  if (parts.includes(".git")) return true;
  return parts[0] === ".ipuaro" || (parts.length === 1 && parts[0] === ".ipuaro.json");
}

const TAINTING_NAMES = new Set([
  "package.json", ".npmrc", ".yarnrc", ".yarnrc.yml", ".pnpmfile.cjs", ".pnpmfile.mjs", "makefile", "gnumakefile",
  ".envrc", "gruntfile.js", "gruntfile.cjs", "gruntfile.mjs", "gulpfile.js", "gulpfile.cjs", "gulpfile.mjs",
  "gulpfile.ts",
]);

// Config files that tools load as code or that name plugins to load (`.prettierrc` can list plugins).
const TAINTING_PATTERNS = [
  /\.config(\.[\w-]+)*\.(js|ts|mjs|cjs|mts|cts)$/,
  /^vitest\.workspace\.[\w.]+$/,
  /^\.eslintrc(\.[\w]+)?$/,
  /^\.prettierrc(\.[\w]+)?$/,
  /^\.babelrc(\.[\w]+)?$/,
  /^\.mocharc(\.[\w]+)?$/,
  /^\.lintstagedrc(\.[\w]+)?$/,
  /^\.huskyrc(\.[\w]+)?$/,
  /^\.stylelintrc(\.[\w]+)?$/,
  /^\.commitlintrc(\.[\w]+)?$/,
  /^\.c8rc(\.[\w]+)?$/,
  /^\.nycrc(\.[\w]+)?$/,
  /^jest\.setup\.[\w]+$/,
  // Where tsc writes (outDir, declarationDir, tsBuildInfoFile).
  /^[tj]sconfig(\.[\w-]+)*\.json$/,
  // Git hook managers: their configs are the commands `git commit` runs.
  /^\.?lefthook(-local)?\.(yml|yaml|json|toml)$/,
  /^\.pre-commit-config\.ya?ml$/,
  /^\.?simple-git-hooks\.(json|js|cjs|mjs)$/,
];

/** Writing this path can change what `npm test`, `vitest`, `eslint`, `git commit` … run. */
export function isTaintingWrite(relPath: string): boolean {
  const parts = segments(relPath);
  const name = parts[parts.length - 1];
  if (!name) return false;
  if (parts[0] === ".husky" || parts.includes("node_modules")) return true;
  return TAINTING_NAMES.has(name) || TAINTING_PATTERNS.some((pattern) => pattern.test(name));
}
