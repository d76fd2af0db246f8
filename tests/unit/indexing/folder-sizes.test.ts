// The largest folders a huge project has, shown when the user narrows a first index to a subfolder.
import { describe, expect, it } from "vitest";
import { formatFolderSizes, largestFolders } from "../../../src/main/indexing/folder-sizes.js";

const many = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}/f${i}.ts`);

describe("largest folders", () => {
  const paths = [
    ...many("packages/core/src", 1200),
    ...many("packages/ui/src", 900),
    ...many("packages/auth", 300),
    ...many("packages/tiny", 2),
    ...many("apps/web", 700),
    ...many("docs", 40),
    "scripts/release.sh",
    "package.json",
    "README.md",
  ];

  it("ranks top-level folders by file count, each with its biggest subfolders", () => {
    expect(largestFolders(paths, 2, 3)).toEqual([
      {
        path: "packages",
        files: 2402,
        children: [
          { name: "core", files: 1200 },
          { name: "ui", files: 900 },
          { name: "auth", files: 300 },
        ],
        moreChildren: 1,
      },
      { path: "apps", files: 700, children: [{ name: "web", files: 700 }], moreChildren: 0 },
    ]);
  });

  it("prints one aligned line per folder, subfolders only when there is a choice among them", () => {
    expect(formatFolderSizes(largestFolders(paths, 4, 2))).toEqual([
      "packages/  2,402 files  (core 1,200 · ui 900 · …)",
      "apps/      700 files",
      "docs/      40 files",
      "scripts/   1 file",
    ]);
  });
});
