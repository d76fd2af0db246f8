// git_diff: uncommitted changes (staged and unstaged together) against HEAD, for the project or one
// path. A per-file +/- summary comes first, so even a capped diff tells the model every file touched.
import { z } from "zod";
import type { GitFileStat } from "../git/project-git.js";
import { defineTool } from "./define-tool.js";
import { listPaths, withProjectGit } from "./git-status.js";
import { toolPath } from "./tool-paths.js";
import { counted } from "../plural.js";

function statLine(f: GitFileStat): string {
  return f.binary ? `  ${f.path} (binary)` : `  ${f.path} +${f.insertions} -${f.deletions}`;
}

/** Files listed one by one in the summary; past this the rest are counted by folder, so the diff itself still fits. */
export const STAT_FILES_LISTED = 40;

/**
 * The per-file summary: every file when there are few; else the largest changes and the others by folder
 * (559 files once filled the whole output and no hunk was left).
 */
function statLines(files: readonly GitFileStat[]): string[] {
  if (files.length <= STAT_FILES_LISTED) return files.map(statLine);
  const size = (f: GitFileStat) => f.insertions + f.deletions;
  const largest = new Set([...files].sort((a, b) => size(b) - size(a) || a.path.localeCompare(b.path)).slice(0, STAT_FILES_LISTED));
  const folders = new Map<string, { files: number; insertions: number; deletions: number }>();
  for (const f of files) {
    if (largest.has(f)) continue;
    const parts = f.path.split("/");
    const folder = parts.length > 2 ? parts.slice(0, 2).join("/") : parts.length === 2 ? parts[0]! : ".";
    const agg = folders.get(folder) ?? { files: 0, insertions: 0, deletions: 0 };
    agg.files++;
    agg.insertions += f.insertions;
    agg.deletions += f.deletions;
    folders.set(folder, agg);
  }
  const rest = [...folders].sort((a, b) => b[1].files - a[1].files || a[0].localeCompare(b[0])).map(([folder, a]) => `  ${folder}/ ${a.files} files +${a.insertions} -${a.deletions}`);
  return [...files.filter((f) => largest.has(f)).map(statLine), `  … ${files.length - STAT_FILES_LISTED} more files, by folder (narrow with path=<folder>):`, ...rest];
}

/** The diff's share of the tool output (the whole output is cut at MAX_TOOL_OUTPUT_CHARS, 24 000). */
export const DIFF_BODY_CHARS = 18_000;

/**
 * The diff within `budget` characters, shared fairly between files: a small file's diff is kept whole,
 * a huge one (a regenerated lockfile, a rewritten data file) is cut to its share with a marker. Cut at
 * the end of the output, one huge file hid the diffs of every file after it.
 */
export function fitDiff(diff: string, budget = DIFF_BODY_CHARS): string {
  if (diff.length <= budget) return diff;
  const sections = diff.split(/^(?=diff --git )/m);
  const shares = new Map<number, number>();
  let left = budget;
  let open = sections.map((text, i) => ({ i, size: text.length })).sort((a, b) => a.size - b.size);
  // Smallest first: each takes what it needs while that is under an equal share of what is left.
  while (open.length > 0) {
    const share = Math.floor(left / open.length);
    const first = open[0]!;
    if (first.size > share) {
      for (const o of open) shares.set(o.i, share);
      break;
    }
    shares.set(first.i, first.size);
    left -= first.size;
    open = open.slice(1);
  }
  return sections
    .map((text, i) => {
      const share = shares.get(i) ?? text.length;
      if (text.length <= share) return text;
      let head = text.slice(0, Math.max(share, 0));
      const cut = head.lastIndexOf("\n");
      if (cut > 0) head = head.slice(0, cut + 1);
      const file = /^diff --git a\/.* b\/(.*)$/m.exec(text)?.[1] ?? "this file";
      const more = text.slice(head.length).split("\n").filter((l) => l !== "").length;
      return `${head}… [${more} more lines of the diff of ${file}; git_diff with path=${file} shows more, get_lines shows the file]\n`;
    })
    .join("");
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
      const summary = [header, ...statLines(d.files)].join("\n") + untracked;
      const llm = `${summary}\n\n${fitDiff(d.diff, DIFF_BODY_CHARS - Math.min(summary.length, DIFF_BODY_CHARS / 3)).trimEnd()}`;
      return {
        ok: true,
        llm,
        data: { files: d.files, untracked: d.untracked },
        display: { summary: `${counted(d.files.length, "file")}, +${insertions} -${deletions}` },
      };
    });
  },
});
