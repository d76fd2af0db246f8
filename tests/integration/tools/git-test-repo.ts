// A real git repository for the git and run tool tests: the acme-shop fixture committed once in a temp
// dir (branch main, local identity, no signing), indexed into a real Redis, with a recording context.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { buildAcmeShop, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { removeDir } from "../../helpers/temp-dir.js";
import { toolContext, type PortAnswers, type TestToolContext } from "../../helpers/tool-context.js";

/** The test's own git calls: no inherited GIT_* variables, no global or system config. */
export function git(cwd: string, ...args: string[]): string {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("GIT_")) env[k] = v;
  return execFileSync("git", args, { cwd, env: { ...env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" }, encoding: "utf8" });
}

export function initRepo(root: string, { commit = true }: { commit?: boolean } = {}): void {
  git(root, "init", "--quiet", "--initial-branch=main");
  git(root, "config", "user.name", "Ipuaro Test");
  git(root, "config", "user.email", "test@ipuaro.invalid");
  git(root, "config", "commit.gpgsign", "false");
  if (commit) {
    git(root, "add", "--all");
    git(root, "commit", "--quiet", "-m", "initial");
  }
}

export interface GitProject {
  root: string;
  project: IndexedProject;
  ctx: TestToolContext;
  write(rel: string, content: string): void;
  read(rel: string): string;
  close(): Promise<void>;
}

/**
 * Opens a context on `root` with a real Redis store. The git and run tools never read the index, so it
 * is built only when asked (`index: true`), which keeps these tests fast on two shared cores.
 */
export async function openProject(root: string, redisUrl: string, answers: PortAnswers = {}, opts: { index?: boolean } = {}): Promise<GitProject> {
  const project = await openIndexedProject(root, redisUrl);
  if (opts.index) await project.reindex();
  const ctx = toolContext(project, { answers });
  return {
    root,
    project,
    ctx,
    write(rel, content) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), content);
    },
    read: (rel) => fs.readFileSync(path.join(root, rel), "utf8"),
    async close() {
      await project.close();
      removeDir(root);
    },
  };
}

/** acme-shop committed in a fresh repository. */
export async function openAcmeRepo(redisUrl: string, answers: PortAnswers = {}): Promise<GitProject> {
  const root = buildAcmeShop();
  initRepo(root);
  return openProject(root, redisUrl, answers);
}
