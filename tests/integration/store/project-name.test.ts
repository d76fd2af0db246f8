// Two folders with the same parent and folder names (dev/app in two places) get an index each; a folder
// moved elsewhere under the same names takes its index along.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { projectNameFor } from "../../../src/main/store/keys.js";
import { hashedProjectName } from "../../../src/main/store/project-name.js";
import { openProjectStore, type OpenedProjectStore } from "../../../src/main/store/open-project-store.js";
import { ProjectIndexer } from "../../../src/main/indexing/project-indexer.js";
import { loadConfig } from "../../../src/main/config/loader.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";

const server = useRedisServer();
const dirs: string[] = [];
const opened: OpenedProjectStore[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.release();
  for (const d of dirs.splice(0)) removeDir(d);
});

async function indexed(root: string): Promise<OpenedProjectStore> {
  const { config } = loadConfig({ projectRoot: root, env: { HOME: root, IPUARO_REDIS_URL: server().url } });
  const o = await openProjectStore(config, root);
  opened.push(o);
  const indexer = new ProjectIndexer(root, { ...config, indexing: { ...config.indexing, workers: 1 } }, o.store);
  try {
    await indexer.scanAndIndex();
  } finally {
    await indexer.close();
  }
  return o;
}

describe("project names", () => {
  it("a second folder named like an indexed one gets its own index, and keeps it", async () => {
    const a = makeTempDir("ipuaro-names-a-");
    const b = makeTempDir("ipuaro-names-b-");
    dirs.push(a, b);
    writeTree(a, { "dev/app/src/one.ts": "export const one = 1;\n" });
    writeTree(b, { "dev/app/src/two.ts": "export const two = 2;\n" });
    const first = await indexed(path.join(a, "dev/app"));
    const second = await indexed(path.join(b, "dev/app"));
    expect(first.store.projectName).toBe("dev-app");
    expect(second.store.projectName).toBe(hashedProjectName(path.join(b, "dev/app")));
    expect(await first.store.listPaths()).toEqual(["src/one.ts"]);
    expect(await second.store.listPaths()).toEqual(["src/two.ts"]);
    // Opened again, each finds its own.
    expect((await indexed(path.join(b, "dev/app"))).store.projectName).toBe(second.store.projectName);
    expect((await indexed(path.join(a, "dev/app"))).store.projectName).toBe("dev-app");
  });

  it("a project moved to another place under the same names keeps its index", async () => {
    const a = makeTempDir("ipuaro-moved-a-");
    const b = makeTempDir("ipuaro-moved-b-");
    dirs.push(a, b);
    writeTree(a, { "work/shop/src/cart.ts": "export const cart = 1;\n" });
    const before = await indexed(path.join(a, "work/shop"));
    expect(before.store.projectName).toBe(projectNameFor(path.join(a, "work/shop")));
    fs.mkdirSync(path.join(b, "work"));
    fs.renameSync(path.join(a, "work/shop"), path.join(b, "work/shop"));
    const after = await indexed(path.join(b, "work/shop"));
    expect(after.store.projectName).toBe("work-shop");
    expect(await after.store.getConfigField("root")).toBe(fs.realpathSync(path.join(b, "work/shop")));
  });
});
