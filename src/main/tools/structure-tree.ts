// A folder tree of indexed paths that fits a line budget: folders are expanded breadth-first while the
// budget lasts, the rest are shown collapsed with their file counts.
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

/** Chooses which folders to expand so the rendering stays within maxLines. */
export function chooseExpanded(root: DirNode, maxLines: number): Set<DirNode> {
  const expanded = new Set<DirNode>([root]);
  let lines = 1 + root.dirs.size + root.files.length;
  const queue = [...root.dirs.values()].sort((a, b) => a.fileCount - b.fileCount);
  while (queue.length) {
    const node = queue.shift() as DirNode;
    const cost = node.dirs.size + node.files.length;
    if (lines + cost > maxLines) continue;
    expanded.add(node);
    lines += cost;
    queue.push(...[...node.dirs.values()].sort((a, b) => a.fileCount - b.fileCount));
  }
  return expanded;
}

const fileCount = (n: number) => `${n} file${n === 1 ? "" : "s"}`;

/**
 * `others(node)`: names in an expanded folder that are not indexed (docs, styles, images, folders
 * without code), shown on one line so the model knows they exist.
 */
export function renderTree(root: DirNode, expanded: Set<DirNode>, fileLabel: (path: string) => string, others?: (node: DirNode) => string | null): string {
  const out: string[] = [`${root.path || "."}/ (${fileCount(root.fileCount)})`];
  const walk = (node: DirNode, indent: string) => {
    const dirs = [...node.dirs.values()].sort((a, b) => a.name.localeCompare(b.name));
    for (const d of dirs) {
      const open = expanded.has(d);
      out.push(`${indent}${d.name}/ (${fileCount(d.fileCount)})${open ? "" : " …"}`);
      if (open) walk(d, `${indent}  `);
    }
    for (const f of [...node.files].sort()) out.push(`${indent}${fileLabel(f)}`);
    const more = others?.(node);
    if (more) out.push(`${indent}${more}`);
  };
  walk(root, "  ");
  return out.join("\n");
}
