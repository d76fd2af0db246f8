// git_status: branch, ahead/behind and the changed files of the project, grouped, compact.
import { z } from "zod";
import { GitCommandError, openProjectGit, type GitStatusSummary, type ProjectGit } from "../git/project-git.js";
import { defineTool } from "./define-tool.js";
import { counted } from "../plural.js";
import type { ToolContext, ToolOutcome } from "./tool-types.js";

/** Paths listed per group before the rest is counted. */
export const STATUS_LIST_LIMIT = 60;

/** A folder holding at least this many of a long list is named once, with its count. */
const FOLDED_FROM = 5;

const folderOf = (p: string) => p.slice(0, p.lastIndexOf("/") + 1);

/**
 * `a, b, c … and 12 more`. A list longer than the limit names each folder that holds several of its
 * paths once, with a count (`gen/ (4,990 files)`): 60 names of one generated folder said less than that.
 */
export function listPaths(paths: readonly string[], limit = STATUS_LIST_LIMIT): string {
  let items: readonly string[] = paths;
  if (paths.length > limit) {
    const counts = new Map<string, number>();
    for (const p of paths) counts.set(folderOf(p), (counts.get(folderOf(p)) ?? 0) + 1);
    const folded = [...counts].filter(([dir, n]) => dir && n >= FOLDED_FROM).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const foldedDirs = new Set(folded.map(([dir]) => dir));
    items = [...folded.map(([dir, n]) => `${dir} (${counted(n, "file")})`), ...paths.filter((p) => !foldedDirs.has(folderOf(p)))];
  }
  const shown = items.slice(0, limit).join(", ");
  return items.length > limit ? `${shown} … and ${items.length - limit} more` : shown;
}

function branchLine(s: GitStatusSummary): string {
  const name = s.detached ? "HEAD detached" : `branch ${s.branch ?? "(unknown)"}`;
  const parts = [s.unborn ? `${name} (no commits yet)` : name];
  if (s.tracking) parts.push(`tracking ${s.tracking}: ${s.ahead} ahead, ${s.behind} behind`);
  else if (!s.detached) parts.push("no upstream");
  return parts.join(", ");
}

const OPERATION_HINTS: Record<NonNullable<GitStatusSummary["operation"]>, string> = {
  merge: "a merge is in progress: fix the conflicted files, then git_commit them to conclude it (the merge commit takes everything staged)",
  rebase: "a rebase is in progress: it stopped at a commit; resolve and stage, then the user continues it (git rebase --continue or --abort)",
  "cherry-pick": "a cherry-pick is in progress: resolve the conflicted files, then git_commit them (or the user aborts it: git cherry-pick --abort)",
  revert: "a revert is in progress: resolve the conflicted files, then git_commit them (or the user aborts it: git revert --abort)",
};

export function formatStatus(s: GitStatusSummary, where: string): string {
  const lines = [branchLine(s) + where];
  if (s.operation) lines.push(OPERATION_HINTS[s.operation]);
  const staged = s.staged.map((c) => (c.from ? `${c.code} ${c.from} → ${c.path}` : `${c.code} ${c.path}`));
  if (s.conflicted.length) lines.push(`conflicted (${s.conflicted.length}): ${listPaths(s.conflicted)}`);
  if (staged.length) lines.push(`staged (${staged.length}): ${listPaths(staged)}`);
  if (s.modified.length) lines.push(`modified, not staged (${s.modified.length}): ${listPaths(s.modified)}`);
  if (s.deleted.length) lines.push(`deleted, not staged (${s.deleted.length}): ${listPaths(s.deleted)}`);
  if (s.untracked.length) lines.push(`untracked (${s.untracked.length}): ${listPaths(s.untracked)}`);
  if (lines.length === (s.operation ? 2 : 1)) lines.push("working tree clean: nothing to commit");
  return lines.join("\n");
}

/** Runs a git operation for a tool: NOT_A_GIT_REPO outside a repository, CANCELLED on abort, COMMAND_FAILED for git's own errors. */
export async function withProjectGit(ctx: ToolContext, use: (git: ProjectGit) => Promise<ToolOutcome>): Promise<ToolOutcome> {
  const opened = await openProjectGit(ctx.root, ctx.signal ? { signal: ctx.signal } : {});
  if (!opened.ok) return { ok: false, code: opened.reason === "no-git" ? "UNAVAILABLE" : "NOT_A_GIT_REPO", message: opened.message };
  try {
    return await use(opened.git);
  } catch (err) {
    if (ctx.signal?.aborted) return { ok: false, code: "CANCELLED", message: "cancelled" };
    if (err instanceof GitCommandError) return { ok: false, code: "COMMAND_FAILED", message: `git failed: ${err.message}` };
    throw err;
  }
}

export const gitStatus = defineTool({
  name: "git_status",
  category: "git",
  description:
    "Show the git branch (with ahead/behind its upstream) and the project's changed files: staged, modified, deleted, untracked, conflicted. Use git_diff to see the changes themselves.",
  parameters: z.object({}).strict(),
  requiresConfirmation: false,
  title: () => "git_status",
  async execute(_args, ctx) {
    return withProjectGit(ctx, async (git) => {
      const s = await git.status();
      const where = git.prefix ? ` (project = folder ${git.prefix}/ of the repository; paths relative to it)` : "";
      const changed = s.staged.length + s.modified.length + s.deleted.length + s.untracked.length + s.conflicted.length;
      return {
        ok: true,
        llm: formatStatus(s, where),
        data: s,
        display: { summary: changed === 0 ? "clean" : `${counted(changed, "changed file")} on ${s.branch ?? "HEAD"}` },
      };
    });
  },
});
