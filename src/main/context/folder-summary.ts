// Files that did not get an outline are summarised per folder: how many there are and the exported
// names of the folder's highest-ranked files, so the model knows where to look with get_structure.
import { largestFitting, type EstimateTokens } from "./budget-fit.js";
import type { RankedFile } from "./repo-ranking.js";

/** Files per folder whose exports are listed (the folder's highest ranked). */
export const SUMMARY_FILES_PER_FOLDER = 2;
/** Names per folder line. */
export const SUMMARY_NAMES_PER_FOLDER = 6;

export interface FolderGroup {
  folder: string;
  /** Ranked files of the folder, best first. */
  files: string[];
  score: number;
}

/** Groups ranked files by folder; folders by summed score (then name), files keep their rank order. */
export function groupByFolder(files: readonly RankedFile[]): FolderGroup[] {
  const groups = new Map<string, FolderGroup>();
  for (const f of files) {
    const slash = f.path.lastIndexOf("/");
    const folder = slash < 0 ? "." : f.path.slice(0, slash);
    const g = groups.get(folder);
    if (g) {
      g.files.push(f.path);
      g.score += f.score;
    } else groups.set(folder, { folder, files: [f.path], score: f.score });
  }
  return [...groups.values()].sort((a, b) => b.score - a.score || (a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0));
}

/**
 * Names for a folder line from `files` (best first): a later file is consulted only while the earlier
 * ones name fewer than SUMMARY_NAMES_PER_FOLDER, so a caller knows exactly which files to read.
 */
export function folderNames(files: readonly string[], exportsOf: (path: string) => readonly string[]): string[] {
  const names: string[] = [];
  for (const p of files.slice(0, SUMMARY_FILES_PER_FOLDER)) {
    if (names.length >= SUMMARY_NAMES_PER_FOLDER) break;
    for (const n of exportsOf(p)) if (!names.includes(n)) names.push(n);
  }
  return names;
}

function folderLine(g: FolderGroup, exportsOf: (path: string) => readonly string[]): string {
  const names = folderNames(g.files, exportsOf);
  const shown = names.slice(0, SUMMARY_NAMES_PER_FOLDER);
  const label = g.folder === "." ? "./" : `${g.folder}/`;
  const count = `${g.files.length} file${g.files.length === 1 ? "" : "s"}`;
  return `${label} — ${count}${shown.length ? `: ${shown.join(", ")}${names.length > shown.length ? ", …" : ""}` : ""}`;
}

export interface FolderSummary {
  text: string;
  tokens: number;
  /** Folders given a line of their own. */
  folders: number;
}

/**
 * The "other files" section within `budget` tokens: as many folder lines as fit, then one line counting
 * the folders and files left. Empty text when there is nothing to summarise or not even the heading fits.
 */
export function folderSummarySection(
  groups: readonly FolderGroup[],
  budget: number,
  estimate: EstimateTokens,
  exportsOf: (path: string) => readonly string[],
  maxFolders = groups.length,
): FolderSummary {
  if (!groups.length) return { text: "", tokens: 0, folders: 0 };
  const heading = "## Other files by folder (not outlined above; get_structure lists them)";
  const limit = Math.min(maxFolders, groups.length);
  const lines = groups.slice(0, limit).map((g) => folderLine(g, exportsOf));
  const render = (k: number) => {
    const out = [heading, ...lines.slice(0, k)];
    const rest = groups.slice(k);
    if (rest.length) out.push(`… +${rest.length} more folder${rest.length === 1 ? "" : "s"} (${rest.reduce((s, g) => s + g.files.length, 0)} files)`);
    return out.join("\n");
  };
  const fitted = largestFitting(lines.length, budget, render, estimate);
  return fitted.k < 0 ? { text: "", tokens: 0, folders: 0 } : { text: fitted.text, tokens: fitted.tokens, folders: fitted.k };
}
