import { describe, expect, it } from "vitest";
import { buildFolderTree, expansionOrder, renderFolderTree, structureSection } from "../../../src/main/context/folder-tree.js";

const byChars = (text: string) => Math.ceil(text.length / 4);

describe("folder tree", () => {
  const paths = ["README.md", "apps/api/src/main.ts", "apps/api/src/orders/a.ts", "apps/api/src/orders/b.ts", "packages/core/src/x.ts", "packages/ui/y.ts"];

  it("counts files per subtree and folds single-child chains", () => {
    const root = buildFolderTree(paths);
    expect(root.total).toBe(6);
    expect(root.files).toBe(1);
    expect(root.folders).toBe(8);
    const all = new Set(expansionOrder(root));
    expect(renderFolderTree(root, all)).toEqual(["apps/api/src/ (3)", "  orders/ (2)", "packages/ (2)", "  core/src/ (1)", "  ui/ (1)"]);
    expect(renderFolderTree(root, new Set())).toEqual(["apps/api/src/ (3, 1 subfolders)", "packages/ (2, 3 subfolders)"]);
  });

  it("opens larger folders first and shows only the largest subfolders of a crowded folder", () => {
    const many = Array.from({ length: 30 }, (_, i) => Array.from({ length: i + 1 }, (_, j) => `src/m${String(i).padStart(2, "0")}/f${j}.ts`)).flat();
    const root = buildFolderTree(many);
    const lines = renderFolderTree(root, new Set(expansionOrder(root)));
    expect(lines[0]).toBe("src/ (465)");
    expect(lines.filter((l) => l.startsWith("  m"))).toHaveLength(12);
    expect(lines).toContain("  m29/ (30)");
    expect(lines.at(-1)).toBe(`  … +18 more folders (${(18 * 19) / 2} files)`);
  });

  it("fits the section to the budget, shallower when tight", () => {
    const big = Array.from({ length: 3000 }, (_, i) => `packages/p${i % 30}/src/d${i % 7}/e${i % 5}/f${i}.ts`);
    const root = buildFolderTree(big);
    for (const budget of [20, 60, 200, 1000]) {
      const text = structureSection(root, budget, byChars);
      expect(byChars(text)).toBeLessThanOrEqual(budget);
      expect(text.startsWith("## Structure")).toBe(true);
    }
    expect(structureSection(root, 1000, byChars).split("\n").length).toBeGreaterThan(structureSection(root, 200, byChars).split("\n").length);
    expect(structureSection(root, 3, byChars)).toBe("");
  });
});
