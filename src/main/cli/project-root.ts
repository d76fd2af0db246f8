// The project folder a command works on: `[path]` resolved through symlinks, and a clear exit-2 error
// when it is missing or not a folder. With `project.scope` "repository" (the default) a folder inside a
// git repository means the repository: in a monorepo the whole repository is the project, wherever
// ipuaro is started. "directory" keeps the folder given. Kept apart from the commands so none loads
// another to get it.
import fs from "node:fs";
import path from "node:path";
import { FatalError } from "../errors.js";
import { loadConfig } from "../config/loader.js";
import { PROJECT_CONFIG_FILE } from "../config/paths.js";

/** The nearest folder at or above `dir` holding `.git` (a folder; a file in a worktree or submodule). */
export function repositoryRoot(dir: string): string | null {
  for (let at = dir; ; ) {
    if (fs.existsSync(path.join(at, ".git"))) return at;
    const up = path.dirname(at);
    if (up === at) return null;
    at = up;
  }
}

export function resolveProjectRoot(input: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const abs = path.resolve(input ?? ".");
  let real: string;
  try {
    real = fs.realpathSync(abs);
  } catch {
    throw new FatalError(`no such directory: ${abs}`, 2);
  }
  if (!fs.statSync(real).isDirectory()) throw new FatalError(`not a directory: ${abs}`, 2);
  const repo = repositoryRoot(real);
  if (!repo || repo === real) return real;
  // The folder's own .ipuaro.json may set "directory"; otherwise the repository's config decides.
  const own = fs.existsSync(path.join(real, PROJECT_CONFIG_FILE));
  const { config } = loadConfig({ projectRoot: own ? real : repo, env });
  return config.project.scope === "repository" ? repo : real;
}
