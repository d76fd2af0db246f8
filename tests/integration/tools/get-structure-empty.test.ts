// get_structure before any index run, and after one that found nothing to keep: only the first should
// send the model (or the user) to run the index.
import { afterEach, describe, expect, it } from "vitest";
import { getStructure } from "../../../src/main/tools/get-structure.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, writeTree } from "../../helpers/temp-dir.js";
import { openProject, type GitProject } from "./git-test-repo.js";

const server = useRedisServer();
let opened: GitProject | null = null;
afterEach(async () => {
  await opened?.close();
  opened = null;
});

describe("get_structure on a project with nothing indexed", () => {
  it("says to run the index only when it has not run", async () => {
    const root = makeTempDir("ipuaro-empty-structure-");
    writeTree(root, { "README.md": "# notes\n", "docs/plan.txt": "later\n" });
    opened = await openProject(root, server().url);
    const before = await getStructure.run("s1", {}, opened.ctx);
    expect(before.code).toBe("NOT_FOUND");
    expect(before.error).toContain("run `ipuaro index` first");

    await opened.project.reindex();
    const after = await getStructure.run("s2", {}, opened.ctx);
    expect(after.code).toBe("NOT_FOUND");
    expect(after.error).toMatch(/^the project holds no files the index keeps \(indexed \d{4}-\d\d-\d\dT/);
    expect(after.error).not.toContain("run `ipuaro index`");
  });
});
