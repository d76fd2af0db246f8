// The "structure" section: a folder tree with file counts. A big repository is shown shallower and with
// fewer folders per level (the largest kept) until it fits its share of the budget; get_structure
// reaches the rest.
import { largestFitting, type EstimateTokens } from "./budget-fit.js";

export interface FolderNode {
  name: string;
  path: string;
  children: Map<string, FolderNode>;
  /** Files directly in this folder. */
  files: number;
  /** Files in the whole subtree. */
  total: number;
  /** Folders in the whole subtree (set by buildFolderTree). */
  folders: number;
}

/** Subfolders shown per folder (the largest); the rest are counted on one line. */
export const MAX_SUBFOLDERS_SHOWN = 12;
const MAX_ROOT_FOLDERS_SHOWN = 40;

export function buildFolderTree(paths: readonly string[]): FolderNode {
  const root: FolderNode = { name: "", path: "", children: new Map(), files: 0, total: 0, folders: 0 };
  for (const p of paths) {
    const parts = p.split("/");
    let node = root;
    node.total++;
    for (let i = 0; i < parts.length - 1; i++) {
      const name = parts[i]!;
      let next = node.children.get(name);
      if (!next) {
        next = { name, path: node.path ? `${node.path}/${name}` : name, children: new Map(), files: 0, total: 0, folders: 0 };
        node.children.set(name, next);
      }
      next.total++;
      node = next;
    }
    node.files++;
  }
  const count = (node: FolderNode): number => {
    let n = 0;
    for (const c of node.children.values()) n += 1 + count(c);
    node.folders = n;
    return n;
  };
  count(root);
  return root;
}

const byName = (a: FolderNode, b: FolderNode) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** `a/` with one subfolder and no files of its own is shown as `a/b/` (deep single-child chains are common). */
function chain(node: FolderNode): { label: string; node: FolderNode } {
  let label = `${node.name}/`;
  let current = node;
  while (current.files === 0 && current.children.size === 1) {
    current = current.children.values().next().value as FolderNode;
    label += `${current.name}/`;
  }
  return { label, node: current };
}

/** The subfolders a folder shows when expanded: the largest ones, in name order. */
function shownChildren(node: FolderNode, isRoot: boolean): { shown: FolderNode[]; hidden: FolderNode[] } {
  const all = [...node.children.values()];
  const max = isRoot ? MAX_ROOT_FOLDERS_SHOWN : MAX_SUBFOLDERS_SHOWN;
  if (all.length <= max) return { shown: all.sort(byName), hidden: [] };
  const bySize = [...all].sort((a, b) => b.total - a.total || byName(a, b));
  return { shown: bySize.slice(0, max).sort(byName), hidden: bySize.slice(max).sort(byName) };
}

/**
 * Folders in the order they are opened: level by level, larger first within a level. Any prefix of it
 * is closed under parents, so "the first m expansions" is always a well-formed tree.
 */
export function expansionOrder(root: FolderNode): FolderNode[] {
  const order: FolderNode[] = [];
  let level = shownChildren(root, true).shown.map((c) => chain(c).node);
  while (level.length) {
    const expandable = level.filter((n) => n.children.size > 0).sort((a, b) => b.total - a.total || (a.path < b.path ? -1 : 1));
    order.push(...expandable);
    level = expandable.flatMap((n) => shownChildren(n, false).shown.map((c) => chain(c).node));
  }
  return order;
}

/** Tree lines with `expanded` folders opened (the root always is), two spaces per level. */
export function renderFolderTree(root: FolderNode, expanded: ReadonlySet<FolderNode>): string[] {
  const out: string[] = [];
  const walk = (node: FolderNode, indent: string, isRoot: boolean) => {
    const { shown, hidden } = shownChildren(node, isRoot);
    for (const child of shown) {
      const { label, node: end } = chain(child);
      const open = expanded.has(end);
      out.push(`${indent}${label} (${end.total}${!open && end.folders ? `, ${end.folders} subfolders` : ""})`);
      if (open) walk(end, `${indent}  `, false);
    }
    if (hidden.length) out.push(`${indent}… +${hidden.length} more folder${hidden.length === 1 ? "" : "s"} (${hidden.reduce((s, c) => s + c.total, 0)} files)`);
  };
  walk(root, "", true);
  return out;
}

/**
 * The structure section within `budget` tokens: top-level folders, then as many folders opened
 * (breadth first, larger first) as fit. "" when not even the heading fits.
 */
export function structureSection(root: FolderNode, budget: number, estimate: EstimateTokens, order: readonly FolderNode[] = expansionOrder(root)): string {
  const heading = `## Structure (folders; files in each subtree; ${root.files} file${root.files === 1 ? "" : "s"} at the root)`;
  if (estimate(heading) > budget) return "";
  if (root.children.size === 0) return heading;
  const render = (m: number) => `${heading}\n${renderFolderTree(root, new Set(order.slice(0, m))).join("\n")}`;
  // Every line costs at least a couple of tokens: no need to try opening more than the budget could show.
  let hi = 0;
  let lines = shownChildren(root, true).shown.length;
  while (hi < order.length && lines <= budget / 2) lines += shownChildren(order[hi++]!, false).shown.length + 1;
  const fitted = largestFitting(hi, budget, render, estimate);
  if (fitted.k >= 0) return fitted.text;
  // Not even the top level fits: cut it by lines.
  const top = renderFolderTree(root, new Set());
  const cut = largestFitting(top.length, budget, (k) => `${heading}\n${[...top.slice(0, k), `… +${top.length - k} more folders`].join("\n")}`, estimate);
  return cut.k >= 0 ? cut.text : heading;
}
