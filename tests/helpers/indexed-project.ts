// Builds a real-looking project in a temp dir (the acme-shop fixture plus the edge files a repository
// can't carry: ignored folders, binary and non-UTF-8 files, symlinks) and indexes it into a real Redis.
import fs from "node:fs";
import path from "node:path";
import { Redis } from "ioredis";
import { loadConfig } from "../../src/main/config/loader.js";
import type { IpuaroConfig } from "../../src/main/config/schema.js";
import { ProjectIndexer } from "../../src/main/indexing/project-indexer.js";
import { ProjectStore } from "../../src/main/store/project-store.js";
import { copyFixture, makeTempDir, removeDir, writeTree } from "./temp-dir.js";

export function buildAcmeShop(): string {
  const root = makeTempDir("ipuaro-acme-");
  copyFixture("acme-shop", root);
  writeTree(root, {
    "node_modules/react/index.js": "module.exports = {};",
    "dist/index.js": "export {};",
    "build.log": "ignored",
    "apps/api/generated-cache/cache.ts": "export const cached = 1;",
    // windows-1251 "привет" in a .ts file: not valid UTF-8.
    "packages/core/src/legacy-cp1251.ts": Buffer.concat([Buffer.from("export const greeting = \""), Buffer.from([0xef, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]), Buffer.from("\";\n")]),
    "packages/core/src/blob.ts": Buffer.from([0x65, 0x78, 0x00, 0x01, 0x02, 0x70]),
  });
  fs.symlinkSync("packages/core/src/money.ts", path.join(root, "money-link.ts"));
  fs.symlinkSync(".", path.join(root, "packages", "loop"));
  return root;
}

export interface IndexedProject {
  root: string;
  config: IpuaroConfig;
  redis: Redis;
  store: ProjectStore;
  indexer: ProjectIndexer;
  reindex(): ReturnType<ProjectIndexer["index"]>;
  close(): Promise<void>;
}

export async function openIndexedProject(root: string, redisUrl: string): Promise<IndexedProject> {
  const { config } = loadConfig({ projectRoot: root, env: { IPUARO_REDIS_URL: redisUrl, XDG_CONFIG_HOME: path.join(root, ".no-user-config") } });
  config.indexing.workers = 2;
  const redis = redisUrl.startsWith("unix://") ? new Redis({ path: redisUrl.slice("unix://".length) }) : new Redis(redisUrl);
  const store = ProjectStore.forRoot(redis, root);
  const indexer = new ProjectIndexer(root, config, store);
  return {
    root,
    config,
    redis,
    store,
    indexer,
    reindex: async () => indexer.index(await indexer.scan()),
    close: async () => {
      await indexer.close();
      redis.disconnect();
    },
  };
}

/** The acme-shop fixture (buildAcmeShop), indexed once: what most integration tests start from. */
export async function openIndexedAcmeShop(redisUrl: string): Promise<IndexedProject> {
  const project = await openIndexedProject(buildAcmeShop(), redisUrl);
  await project.reindex();
  return project;
}

/** Closes the project's connections and pool, then removes its temp folder. */
export async function closeIndexedProject(project: IndexedProject | undefined): Promise<void> {
  if (!project) return;
  await project.close();
  removeDir(project.root);
}
