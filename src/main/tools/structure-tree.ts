// A folder tree of indexed paths that fits a line budget: folders are expanded breadth-first while the
// budget lasts, the rest are shown collapsed with their file counts. A folder with more entries than a
// screenful shows the first ones and a count; the asked-about folder pages with `offset`.
export interface DirNode {
  name: string;
  path: string;
  dirs: Map<string, DirNode>;
  files: string[];
  fileCount: number;
}

export function buildDirTree(paths: readonly string[], base: string): DirNode {
  const root: DirNode = { name: base || ".", path: base, dirs: new Map(), files: [], fileCount: 0 };
  for (const p of paths) {
    const rel = base ? p.slice(base.length + 1) : p;
    const parts = rel.split("/");
    let node = root;
    node.fileCount++;
    for (let i = 0; i < parts.length - 1; i++) {
      const name = parts[i] as string;
      let next = node.dirs.get(name);
      if (!next) {
        next = { name, path: node.path ? `${node.path}/${name}` : name, dirs: new Map(), files: [], fileCount: 0 };
        node.dirs.set(name, next);
      }
      next.fileCount++;
      node = next;
    }
    node.files.push(p);
  }
  return root;
}

/** Entries (subfolders, then files) an opened folder shows below the one asked about; the rest are counted. */
export const MAX_ENTRIES_PER_FOLDER = 40;
/** Entries of the folder asked about per answer; `offset` pages through the rest. */
export const ROOT_PAGE_ENTRIES = 200;

export interface TreeView {
  /** First entry of the asked-about folder shown (subfolders by name, then files by name). */
  offset: number;
  pageEntries: number;
  perFolder: number;
}

export const DEFAULT_TREE_VIEW: TreeView = { offset: 0, pageEntries: ROOT_PAGE_ENTRIES, perFolder: MAX_ENTRIES_PER_FOLDER };

const entryCount = (n: DirNode) => n.dirs.size + n.files.length;
const sortedDirs = (n: DirNode) => [...n.dirs.values()].sort((a, b) => a.name.localeCompare(b.name));

/** The asked-about folder's page: which of its subfolders and files are shown. */
function rootPage(root: DirNode, view: TreeView): { dirs: DirNode[]; files: string[]; total: number; end: number } {
  const dirs = sortedDirs(root);
  const files = [...root.files].sort();
  const total = dirs.length + files.length;
  const end = Math.min(total, view.offset + view.pageEntries);
  return { dirs: dirs.slice(view.offset, end), files: files.slice(Math.max(0, view.offset - dirs.length), Math.max(0, end - dirs.length)), total, end };
}

/** Lines an opened folder adds below its own: its shown entries, and one counting the rest. */
function openCost(node: DirNode, perFolder: number): number {
  const n = entryCount(node);
  return n > perFolder ? perFolder + 1 : n;
}

/**
 * Chooses which folders to open so the rendering stays within maxLines: level by level, within a level
 * folders with subfolders first, then larger first (where the code is), each costing at most
 * perFolder + 1 lines. Opening the
 * smallest first spent a 12K-file repository's answer on 49 one-file deploy folders and 53 scripts while
 * every package's src/ stayed shut.
 */
export function chooseExpanded(root: DirNode, maxLines: number, view: TreeView = DEFAULT_TREE_VIEW): Set<DirNode> {
  const expanded = new Set<DirNode>([root]);
  const page = rootPage(root, view);
  let lines = 1 + page.dirs.length + page.files.length + (page.total > page.dirs.length + page.files.length ? 1 : 0);
  let level = page.dirs;
  while (level.length) {
    const next: DirNode[] = [];
    // Folders with subfolders before folders of files only: the shape tells more than a file list.
    const tier = (n: DirNode) => (n.dirs.size > 0 ? 0 : 1);
    for (const node of [...level].sort((a, b) => tier(a) - tier(b) || b.fileCount - a.fileCount || a.path.localeCompare(b.path))) {
      const cost = openCost(node, view.perFolder);
      if (cost === 0 || lines + cost > maxLines) continue;
      expanded.add(node);
      lines += cost;
      next.push(...sortedDirs(node).slice(0, view.perFolder));
    }
    level = next;
  }
  return expanded;
}

/** The files renderTree shows (to fetch their outline counts first). */
export function shownFiles(root: DirNode, expanded: ReadonlySet<DirNode>, view: TreeView = DEFAULT_TREE_VIEW): string[] {
  const out = [...rootPage(root, view).files];
  for (const node of expanded) {
    if (node === root) continue;
    out.push(...[...node.files].sort().slice(0, Math.max(0, view.perFolder - node.dirs.size)));
  }
  return out;
}

const fileCount = (n: number) => `${n} file${n === 1 ? "" : "s"}`;

/**
 * `others(node)`: names in an expanded folder that are not indexed (docs, styles, images, folders
 * without code), shown on one line so the model knows they exist.
 */
/** A name as one line of the tree: a line break or other control character in it is shown escaped. */
function lineSafe(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f]/g, (c) => (c === "\n" ? "\\n" : c === "\t" ? "\\t" : `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`));
}

export function renderTree(
  root: DirNode,
  expanded: Set<DirNode>,
  fileLabel: (path: string) => string,
  others?: (node: DirNode) => string | null,
  view: TreeView = DEFAULT_TREE_VIEW,
): string {
  const out: string[] = [`${lineSafe(root.path || ".")}/ (${fileCount(root.fileCount)})`];
  /**
   * A folder that holds only one folder is shown with it on one line (`src/main/java/`), as code hosts
   * do: 200 nested folders were indented 400 columns.
   */
  const chain = (d: DirNode): { label: string; last: DirNode } => {
    let label = lineSafe(d.name);
    let last = d;
    while (expanded.has(last) && last.files.length === 0 && last.dirs.size === 1 && !others?.(last)) {
      last = last.dirs.values().next().value as DirNode;
      label += `/${lineSafe(last.name)}`;
    }
    return { label, last };
  };
  const walk = (node: DirNode, indent: string) => {
    const dirs = sortedDirs(node);
    const files = [...node.files].sort();
    const shownDirs = dirs.slice(0, view.perFolder);
    const shownFiles = files.slice(0, Math.max(0, view.perFolder - shownDirs.length));
    entries(shownDirs, shownFiles, indent);
    const hiddenDirs = dirs.length - shownDirs.length;
    const hiddenFiles = files.length - shownFiles.length;
    if (hiddenDirs || hiddenFiles) {
      const what = [hiddenDirs ? `+${hiddenDirs} more folder${hiddenDirs === 1 ? "" : "s"}` : "", hiddenFiles ? `+${hiddenFiles} more file${hiddenFiles === 1 ? "" : "s"}` : ""].filter(Boolean).join(", ");
      out.push(`${indent}… ${what} (get_structure ${node.path})`);
    }
    const more = others?.(node);
    if (more) out.push(`${indent}${more}`);
  };
  const entries = (dirs: readonly DirNode[], files: readonly string[], indent: string) => {
    for (const d of dirs) {
      const { label, last } = chain(d);
      out.push(`${indent}${label}/ (${fileCount(last.fileCount)})${expanded.has(last) ? "" : " …"}`);
      if (expanded.has(last)) walk(last, `${indent}  `);
    }
    for (const f of files) out.push(`${indent}${lineSafe(fileLabel(f))}`);
  };
  const page = rootPage(root, view);
  entries(page.dirs, page.files, "  ");
  if (page.total > page.end || view.offset > 0) {
    const from = Math.min(view.offset + 1, page.total);
    const rest = page.total > page.end ? `; get_structure with offset=${page.end} for the next ${Math.min(view.pageEntries, page.total - page.end)}` : "";
    out.push(`  … entries ${from}-${page.end} of ${page.total} in ${root.path || "."}/ (folders first, then files, by name)${rest}`);
  }
  const more = others?.(root);
  if (more) out.push(`  ${more}`);
  return out.join("\n");
}
