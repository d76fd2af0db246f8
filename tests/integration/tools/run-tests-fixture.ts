// Fixture projects for run_tests: a temp project opened on a real Redis (closed after each test), with
// this repository's own vitest linked into its node_modules so `npx --no -- vitest` finds it offline.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";
import { useTempConfigHome } from "../../helpers/config-home.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, writeTree, type FileTree } from "../../helpers/temp-dir.js";
import type { PortAnswers } from "../../helpers/tool-context.js";
import { openProject, type GitProject } from "./git-test-repo.js";

const REPO_NODE_MODULES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "node_modules");

export type RunTestsFixture = (tree: FileTree, answers?: PortAnswers, opts?: { vitest?: boolean }) => Promise<GitProject>;

/** Registers the file's Redis, config home and cleanup; returns the fixture builder (one project open at a time). */
export function useRunTestsFixtures(prefix: string): RunTestsFixture {
  const server = useRedisServer();
  let opened: GitProject | null = null;
  useTempConfigHome();
  afterEach(async () => {
    await opened?.close();
    opened = null;
  });
  // A second project in one test closes the first.
  return async (tree, answers = {}, opts = {}) => {
    await opened?.close();
    opened = null;
    const root = makeTempDir(prefix);
    writeTree(root, tree);
    if (opts.vitest) {
      // Only vitest itself is linked: its own dependencies resolve from its real path, and vite's cache
      // lands in the fixture's node_modules, not in this repository's.
      fs.mkdirSync(path.join(root, "node_modules", ".bin"), { recursive: true });
      fs.symlinkSync(path.join(REPO_NODE_MODULES, "vitest"), path.join(root, "node_modules", "vitest"));
      fs.symlinkSync("../vitest/vitest.mjs", path.join(root, "node_modules", ".bin", "vitest"));
    }
    opened = await openProject(root, server().url, answers);
    return opened;
  };
}
