// Where a large project's files are, for the question "index a subdirectory instead?": its biggest
// top-level folders with their file counts, and the biggest folders inside each.

export interface FolderSize {
  path: string;
  files: number;
  /** The biggest folders directly inside it, largest first. */
  children: { name: string; files: number }[];
  /** Folders inside it not listed in `children`. */
  moreChildren: number;
}

const byCount = (a: { files: number }, b: { files: number }) => b.files - a.files;

/** The `limit` biggest top-level folders of a list of project paths, each with its `childLimit` biggest subfolders. */
export function largestFolders(paths: readonly string[], limit = 5, childLimit = 3): FolderSize[] {
  const top = new Map<string, { files: number; children: Map<string, number> }>();
  for (const p of paths) {
    const slash = p.indexOf("/");
    if (slash === -1) continue;
    const name = p.slice(0, slash);
    let folder = top.get(name);
    if (!folder) top.set(name, (folder = { files: 0, children: new Map() }));
    folder.files++;
    const next = p.indexOf("/", slash + 1);
    if (next !== -1) {
      const child = p.slice(slash + 1, next);
      folder.children.set(child, (folder.children.get(child) ?? 0) + 1);
    }
  }
  return [...top]
    .map(([path, f]) => ({
      path,
      files: f.files,
      children: [...f.children].map(([name, files]) => ({ name, files })).sort(byCount).slice(0, childLimit),
      moreChildren: Math.max(0, f.children.size - childLimit),
    }))
    .sort(byCount)
    .slice(0, limit);
}

/** `packages/  9,102 files (core 2,310 · ui 1,904 · …)`, one line per folder, names padded to align. */
export function formatFolderSizes(folders: readonly FolderSize[]): string[] {
  const width = Math.max(0, ...folders.map((f) => f.path.length + 1));
  return folders.map((f) => {
    const listed = f.children.map((c) => `${c.name} ${c.files.toLocaleString("en-US")}`);
    if (f.moreChildren) listed.push("…");
    const kids = f.children.length > 1 ? `  (${listed.join(" · ")})` : "";
    return `${`${f.path}/`.padEnd(width)}  ${f.files.toLocaleString("en-US")} file${f.files === 1 ? "" : "s"}${kids}`;
  });
}
