// A generated 2,000-file monorepo indexed into a real Redis: the budget holds at every size, the
// ranking responds to mentions, and the build time is reported (bench/context/run.ts measures 12K).
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateMonorepo } from "../../../bench/generate/generate-monorepo.js";
import { buildInitialContext, type BuildInitialContextOptions } from "../../../src/main/context/initial-context.js";
import { SnapshotCache } from "../../../src/main/context/snapshot-cache.js";
import { TokenEstimator } from "../../../src/main/llm/token-estimator.js";
import { openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";

const server = useRedisServer();
let project: IndexedProject;
let tmp: string;
const estimator = new TokenEstimator();
const estimateTokens = (text: string) => estimator.estimate(text);

beforeAll(async () => {
  tmp = makeTempDir("ipuaro-ctx-large-");
  const root = path.join(tmp, "repo");
  await generateMonorepo({ files: 2000, out: root, seed: 3 });
  project = await openIndexedProject(root, server().url);
  await project.reindex();
}, 180_000);
afterAll(async () => {
  await project?.close();
  removeDir(tmp);
});

const build = (over: Partial<BuildInitialContextOptions> = {}) =>
  buildInitialContext({ store: project.store, root: project.root, budgetTokens: 10_000, estimateTokens, cache: null, ...over });

describe("initial context of a 2,000-file repository", () => {
  it.each([300, 1000, 4000, 10_000, 30_000])("stays within %i tokens, outlining the top and summarising the rest", async (budget) => {
    const ctx = await build({ budgetTokens: budget });
    console.info(`budget ${budget}: ${ctx.tokens} tokens, ${ctx.includedFiles.length} outlines, ${ctx.summarisedFolders} folder lines, built in ${ctx.timings.totalMs.toFixed(1)} ms`);
    expect(ctx.tokens).toBeLessThanOrEqual(budget);
    expect(estimateTokens(ctx.text)).toBe(ctx.tokens);
    expect(ctx.totalFiles).toBeGreaterThan(1800);
    if (budget >= 1000) {
      expect(ctx.includedFiles.length).toBeGreaterThan(0);
      expect(ctx.includedFiles.length).toBeLessThan(ctx.rankedFiles.length);
      expect(ctx.summarisedFolders).toBeGreaterThan(0);
      // Most of the budget is used, not just a safe fraction of it.
      expect(ctx.tokens).toBeGreaterThan(budget * 0.8);
    }
    expect(ctx.includedFiles).toEqual(ctx.rankedFiles.slice(0, ctx.includedFiles.length));
  });

  it("a mentioned symbol from deep in the ranking gets the first outline", async () => {
    const plain = await build();
    const deep = plain.rankedFiles.slice(Math.floor(plain.rankedFiles.length / 2)).filter((p) => p.endsWith(".ts"));
    let target = "";
    let symbol = "";
    for (const p of deep) {
      const names = (await project.store.getAst(p))?.classes.map((c) => c.name) ?? [];
      if (names[0]) {
        [target, symbol] = [p, names[0]];
        break;
      }
    }
    expect(symbol).not.toBe("");
    const ctx = await build({ mentions: [`The ${symbol} class throws on startup, can you check it?`] });
    expect(ctx.includedFiles[0]).toBe(target);
    expect(ctx.text).toContain(`class ${symbol}`);
  });

  it("cached and fresh builds give the same text, whatever earlier builds left in the cache", async () => {
    const cache = new SnapshotCache();
    const fresh = await build({ budgetTokens: 6000 });
    const first = await build({ budgetTokens: 6000, cache });
    // These read many more ASTs into the cached snapshot than a 6000-token build needs.
    await build({ budgetTokens: 40_000, cache });
    await build({ budgetTokens: 3000, cache, mentions: [fresh.rankedFiles.at(-1)!] });
    const second = await build({ budgetTokens: 6000, cache });
    expect(first.text).toBe(fresh.text);
    expect(second.text).toBe(fresh.text);
    console.info(`fresh ${fresh.timings.totalMs.toFixed(1)} ms, cached ${second.timings.totalMs.toFixed(1)} ms`);
  });
});
