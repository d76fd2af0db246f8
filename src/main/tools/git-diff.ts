// git_diff: uncommitted changes (staged and unstaged together) against HEAD, for the project or one
// path. A per-file +/- summary comes first, so even a capped diff tells the model every file touched.
import { z } from "zod";
import type { GitFileStat } from "../git/project-git.js";
import { defineTool } from "./define-tool.js";
import { listPaths, withProjectGit } from "./git-status.js";
import { toolPath } from "./tool-paths.js";

function statLine(f: GitFileStat): string {
  return f.binary ? `  ${f.path} (binary)` : `  ${f.path} +${f.insertions} -${f.deletions}`;
}

export const gitDiff = defineTool({
  name: "git_diff",
  category: "git",
  description:
    "Show uncommitted changes as a unified diff against the last commit (staged and unstaged together), with a per-file +/- summary first. Give a file or folder path to narrow it. Untracked files are listed, not diffed: read them with get_lines.",
  parameters: z
    .object({
      path: z.string().min(1).optional().describe("File or folder relative to the project root; omit for the whole project"),
    })
    .strict(),
  requiresConfirmation: false,
  title: (a) => `git_diff${a.path ? ` ${a.path}` : ""}`,
  async execute(args, ctx) {
    let pathspec: string | undefined;
    if (args.path !== undefined) {
      // A deleted file has a diff but no longer exists: only the root check applies.
      const p = toolPath(ctx.root, args.path, { mustExist: false });
      if (!p.ok) return p;
      pathspec = p.rel === "." ? undefined : p.rel;
    }
    return withProjectGit(ctx, async (git) => {
      const d = await git.diff(pathspec);
      const scope = pathspec ?? "the project";
      const untracked = d.untracked.length ? `\nuntracked, not in the diff (${d.untracked.length}): ${listPaths(d.untracked)}` : "";
      if (d.files.length === 0) {
        const llm = `no uncommitted changes to tracked files in ${scope} (compared with ${d.base === "HEAD" ? "HEAD" : "an empty repository: no commits yet"})${untracked}`;
        return { ok: true, llm, data: { files: [], untracked: d.untracked }, display: { summary: d.untracked.length ? `no diff, ${d.untracked.length} untracked` : "no changes" } };
      }
      const insertions = d.files.reduce((n, f) => n + f.insertions, 0);
      const deletions = d.files.reduce((n, f) => n + f.deletions, 0);
      const header = `${d.files.length} file${d.files.length === 1 ? "" : "s"} changed in ${scope} against ${d.base === "HEAD" ? "HEAD" : "an empty tree (no commits yet)"}, +${insertions} -${deletions}:`;
      const llm = [header, ...d.files.map(statLine)].join("\n") + untracked + `\n\n${d.diff.trimEnd()}`;
      return {
        ok: true,
        llm,
        data: { files: d.files, untracked: d.untracked },
        display: { summary: `${d.files.length} file${d.files.length === 1 ? "" : "s"}, +${insertions} -${deletions}` },
      };
    });
  },
});
