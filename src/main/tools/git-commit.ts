// git_commit: commits the named files (staging them first) or what is already staged. The user is
// asked every time, whatever auto-apply says: a commit is history. Hooks run (never --no-verify); it
// never amends and never pushes.
import path from "node:path";
import { z } from "zod";
import { shellJoin } from "../exec/shell-quote.js";
import { readRegularFile } from "../fs/regular-file.js";
import type { GitStatusSummary } from "../git/project-git.js";
import { escapeForDisplay, findHiddenCharacter } from "../security/index.js";
import { defineTool } from "./define-tool.js";
import { listPaths, withProjectGit } from "./git-status.js";
import { toolPath } from "./tool-paths.js";

function changedPaths(s: GitStatusSummary): string[] {
  const all = [...s.staged.flatMap((c) => (c.from ? [c.path, c.from] : [c.path])), ...s.modified, ...s.deleted, ...s.untracked, ...s.conflicted];
  return [...new Set(all)];
}

/** `<<<<<<< `, `=======`, `>>>>>>> ` at the start of a line, as git writes them. */
async function hasConflictMarkers(file: string): Promise<boolean> {
  // Not a regular file (a FIFO would hang the read), deleted, or too large to read: nothing to look at.
  const read = await readRegularFile(file);
  if (read.kind !== "file") return false;
  const text = read.bytes.toString("utf8");
  return /^<{7}(?: |$)/m.test(text) && /^>{7}(?: |$)/m.test(text);
}

function covers(pathspec: string, changed: string): boolean {
  return pathspec === "." || changed === pathspec || changed.startsWith(`${pathspec.replace(/\/$/, "")}/`);
}

export const gitCommit = defineTool({
  name: "git_commit",
  category: "git",
  description:
    "Commit changes with a message. With files, those files are staged and exactly they are committed; without files, what is already staged is committed. The user confirms every commit. Git hooks run. Never amends, never pushes. Check git_status first.",
  parameters: z
    .object({
      message: z.string().describe("Commit message: a short summary line, optionally a blank line and details"),
      files: z.array(z.string().min(1)).optional().describe("Files or folders relative to the project root to stage and commit; omit to commit what is staged"),
    })
    .strict(),
  requiresConfirmation: true,
  title: (a) => `git_commit "${escapeForDisplay(a.message.split("\n", 1)[0] ?? "").slice(0, 60)}"${a.files?.length ? ` (${a.files.length} file${a.files.length === 1 ? "" : "s"})` : ""}`,
  async execute(args, ctx) {
    const message = args.message.trim();
    if (message === "") return { ok: false, code: "INVALID_ARGS", message: "the commit message is empty; give a one-line summary of the change" };
    const hidden = findHiddenCharacter(message);
    if (hidden) return { ok: false, code: "INVALID_ARGS", message: `the commit message contains the control or invisible character \`${hidden.escaped}\`; use plain text` };

    const files: string[] = [];
    for (const input of args.files ?? []) {
      const p = toolPath(ctx.root, input, { mustExist: false });
      if (!p.ok) return p;
      if (!files.includes(p.rel)) files.push(p.rel);
    }

    return withProjectGit(ctx, async (git) => {
      const status = await git.status();
      const changed = changedPaths(status);
      let committing: string[];
      if (files.length > 0) {
        const unchanged = files.filter((f) => !changed.some((c) => covers(f, c)));
        if (unchanged.length > 0) {
          const hint = changed.length ? `changed files: ${listPaths(changed, 20)}` : "the working tree is clean";
          return { ok: false, code: "NOT_FOUND", message: `nothing to commit for ${unchanged.join(", ")}: no changes there (${hint})` };
        }
        committing = changed.filter((c) => files.some((f) => covers(f, c)));
        // `git add` marks a conflict resolved whatever the file holds: staging one that still has its
        // markers would lose the conflict and commit the markers.
        const marked = await Promise.all(status.conflicted.map(async (c) => committing.includes(c) && (await hasConflictMarkers(path.join(ctx.root, c)))));
        const unresolved = status.conflicted.filter((_, i) => marked[i]);
        if (unresolved.length > 0) {
          return { ok: false, code: "INVALID_ARGS", message: `${listPaths(unresolved, 20)} still ${unresolved.length === 1 ? "has" : "have"} conflict markers (<<<<<<< ======= >>>>>>>); resolve the conflict in ${unresolved.length === 1 ? "it" : "them"} first. Nothing was staged or committed` };
        }
      } else {
        if (status.staged.length === 0) {
          const hint = changed.length
            ? `pass files to stage and commit them; changed files: ${listPaths(changed, 20)}`
            : "the working tree is clean: there is nothing to commit";
          return { ok: false, code: "NOT_FOUND", message: `nothing is staged; ${hint}` };
        }
        committing = status.staged.map((c) => c.path);
      }

      // During a merge (cherry-pick, revert, rebase) the commit is the whole index: no pathspec.
      const partial = files.length > 0 && status.operation === null;
      const commitArgv = ["git", "commit", "-m", message, ...(partial ? ["--", ...files] : [])];
      const command = files.length ? `${shellJoin(["git", "add", "--", ...files])} && ${shellJoin(commitArgv)}` : shellJoin(commitArgv);
      const tainted = [...ctx.session.taintedFiles];
      const reason = [
        `commit ${committing.length} file${committing.length === 1 ? "" : "s"} to ${status.detached ? "a detached HEAD (on no branch)" : (status.branch ?? "HEAD")}: ${listPaths(committing, 10)}`,
        ...(status.operation ? [`this concludes the ${status.operation} in progress, with everything staged`] : []),
        "git hooks will run",
        ...(tainted.length ? [`this session changed ${listPaths(tainted, 5)}`] : []),
      ].join("; ");
      const decision = await ctx.ports.confirmCommand({ command: escapeForDisplay(command), reason });
      if (decision === "no") return { ok: false, code: "REJECTED", message: "the user declined the commit; nothing was staged or committed" };
      if (decision === "unattended") return { ok: false, code: "REJECTED", message: "a commit needs the user's confirmation and nobody can confirm in this run; nothing was staged or committed" };

      const result = await git.commit(message, files);
      const insertions = result.files.reduce((n, f) => n + f.insertions, 0);
      const deletions = result.files.reduce((n, f) => n + f.deletions, 0);
      const short = result.hash.slice(0, 10);
      const fileLines = result.files.map((f) => (f.binary ? `  ${f.path} (binary)` : `  ${f.path} +${f.insertions} -${f.deletions}`));
      return {
        ok: true,
        llm: [
          `committed ${short} on ${result.branch ?? "detached HEAD"}: ${result.subject}`,
          `${result.files.length} file${result.files.length === 1 ? "" : "s"}, +${insertions} -${deletions}`,
          ...fileLines,
          ...(result.branch === null ? ["note: HEAD is detached, so this commit is on no branch and is easily lost; tell the user (`git switch -c <name>` keeps it on a new branch)"] : []),
        ].join("\n"),
        data: result,
        display: { summary: `${short} ${result.subject}` },
      };
    });
  },
});
