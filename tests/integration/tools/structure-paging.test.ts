// get_structure on a big repository: the answer opens the folders that hold the code (not dozens of
// one-file folders), a folder with thousands of files pages with `offset` instead of being cut off.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_TOOL_OUTPUT_CHARS } from "../../../src/main/tools/define-tool.js";
import { getStructure, STRUCTURE_MAX_LINES } from "../../../src/main/tools/get-structure.js";
import { MAX_ENTRIES_PER_FOLDER, ROOT_PAGE_ENTRIES } from "../../../src/main/tools/structure-tree.js";
import { closeIndexedProject, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { toolContext } from "../../helpers/tool-context.js";
import { makeTempDir, writeTree, type FileTree } from "../../helpers/temp-dir.js";

const server = useRedisServer();
let project: IndexedProject;
const FLAT_FILES = 1500;
const PACKAGES = ["auth", "core", "db", "http", "ui", "utils"];

beforeAll(async () => {
  const tree: FileTree = { "package.json": JSON.stringify({ name: "big" }) };
  // 150 deploy folders of one config each: many, small, and not where the code is.
  for (let i = 0; i < 150; i++) tree[`deploy/k8s/svc-${String(i).padStart(3, "0")}/service.yaml`] = `kind: Service\nname: svc-${i}\n`;
  // Packages whose src/ holds feature folders: what the model needs to see to find its way.
  for (const pkg of PACKAGES) {
    for (let f = 0; f < 40; f++) {
      for (let k = 0; k < 3; k++) tree[`packages/${pkg}/src/feature-${f}/part-${k}.ts`] = `export const part${k} = ${k};\n`;
    }
  }
  for (let i = 0; i < FLAT_FILES; i++) tree[`generated/flat/icon-${String(i).padStart(4, "0")}.ts`] = `export const icon${i} = "${i}";\n`;
  const root = makeTempDir("ipuaro-structure-big-");
  writeTree(root, tree);
  project = await openIndexedProject(root, server().url);
  await project.reindex();
}, 120_000);
afterAll(() => closeIndexedProject(project));

async function structure(args: Record<string, unknown>) {
  const result = await getStructure.run("t", args, toolContext(project));
  return result;
}

describe("get_structure of a big repository", () => {
  it("opens the larger folders first: the packages' feature folders show, not only 150 one-file deploy folders", async () => {
    const result = await structure({});
    expect(result.success).toBe(true);
    const lines = String(result.data).split("\n");
    expect(lines.length).toBeLessThanOrEqual(STRUCTURE_MAX_LINES);
    // Smallest first opened the 150 one-file folders and left every src/ shut (no feature folder shown).
    const srcOpened = lines.filter((l) => l.trim() === "feature-0/ (3 files)" || l.trim() === "feature-0/ (3 files) …").length;
    expect(srcOpened).toBeGreaterThanOrEqual(4);
    // The rest of a folder with more entries than one shows is counted, with the call that lists it.
    // deploy/ holds only k8s/: one line, `deploy/k8s/`, so its entries sit one level in.
    expect(lines).toContain("  deploy/k8s/ (150 files)");
    expect(lines).toContain(`    … +${150 - MAX_ENTRIES_PER_FOLDER} more folders (get_structure deploy/k8s)`);
  });

  it("pages through a folder of 1,500 files instead of cutting the answer off", async () => {
    const first = await structure({ path: "generated/flat" });
    expect(first.success).toBe(true);
    expect(first.truncated).toBe(false);
    const text = String(first.data);
    expect(text.length).toBeLessThan(MAX_TOOL_OUTPUT_CHARS);
    const lines = text.split("\n");
    expect(lines[0]).toBe(`generated/flat/ (${FLAT_FILES} files)`);
    expect(lines[1]).toBe("  icon-0000.ts (1 export)");
    expect(lines).toContain(`  … entries 1-${ROOT_PAGE_ENTRIES} of ${FLAT_FILES} in generated/flat/ (folders first, then files, by name); get_structure with offset=${ROOT_PAGE_ENTRIES} for the next ${ROOT_PAGE_ENTRIES}`);
    const last = await structure({ path: "generated/flat", offset: FLAT_FILES - 50 });
    const lastLines = String(last.data).split("\n");
    expect(lastLines[1]).toBe(`  icon-${FLAT_FILES - 50}.ts (1 export)`);
    expect(lastLines).toContain(`  … entries ${FLAT_FILES - 49}-${FLAT_FILES} of ${FLAT_FILES} in generated/flat/ (folders first, then files, by name)`);
    expect(getStructure.titleFor({ path: "generated/flat", offset: 200 })).toBe("get_structure generated/flat from 200");
  });

  it("says an offset past the end is one, with the number of entries", async () => {
    const result = await structure({ path: "generated/flat", offset: FLAT_FILES });
    expect(result.success).toBe(false);
    expect(result.error).toBe(`offset ${FLAT_FILES} is past the end: generated/flat/ has ${FLAT_FILES} entries (subfolders and files); the first is offset 0`);
  });

  it("a folder inside the answer shows its first entries and how to list the rest", async () => {
    const result = await structure({ path: "generated" });
    const lines = String(result.data).split("\n");
    expect(lines.slice(0, 3)).toEqual([`generated/ (${FLAT_FILES} files)`, `  flat/ (${FLAT_FILES} files)`, "    icon-0000.ts (1 export)"]);
    expect(lines).toContain(`    … +${FLAT_FILES - MAX_ENTRIES_PER_FOLDER} more files (get_structure generated/flat)`);
  });
});
