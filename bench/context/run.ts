// How long building the initial context takes on a big repository (issue 4: < 200 ms for 12K files,
// never over budget).
//
//   npx tsx bench/context/run.ts [DIR] [--files 12000] [--seed 1] [--budget 10000] [--runs 9]
//                                [--redis-url unix:///path/redis.sock] [--json]
//
// Without DIR a monorepo of --files files is generated (bench/generate). Without --redis-url a private
// redis-server is started. The repository is indexed (cold or warm), then the context is built:
//   first    the first build in this process (cold JIT, nothing cached)
//   fresh    builds that read everything from Redis again (cache: null)
//   cached   builds reusing the parsed snapshot (the default within a session)
//   mention  cached builds with a conversation mentioning a symbol and a folder
import os from "node:os";
import path from "node:path";
import { benchArgs, requireFolder } from "../lib/bench-args.js";
import { Redis } from "ioredis";
import { generateMonorepo } from "../generate/generate-monorepo.js";
import { loadConfig } from "../../src/main/config/loader.js";
import { buildInitialContext, type InitialContext } from "../../src/main/context/initial-context.js";
import { SnapshotCache } from "../../src/main/context/snapshot-cache.js";
import { ProjectIndexer } from "../../src/main/indexing/project-indexer.js";
import { TokenEstimator } from "../../src/main/llm/token-estimator.js";
import { ProjectStore } from "../../src/main/store/project-store.js";
import { startRedisServer, type TestRedisServer } from "../../tests/helpers/redis-server.js";

const TARGET_MS = 200;

const USAGE = "usage: npm run bench:context -- [DIR] [--files N] [--seed N] [--budget TOKENS] [--runs N] [--redis-url URL] [--json]";
const { values, positionals } = benchArgs(
  USAGE,
  {
    files: { type: "string", default: "12000" },
    seed: { type: "string", default: "1" },
    budget: { type: "string", default: "10000" },
    runs: { type: "string", default: "9" },
    "redis-url": { type: "string" },
    json: { type: "boolean", default: false },
  },
  true,
);
const budget = Number(values.budget);
const runs = Math.max(1, Number(values.runs));

let root = positionals[0] ? path.resolve(positionals[0]) : "";
if (!root) {
  root = path.join(os.tmpdir(), `ipuaro-bench-context-${values.files}-${values.seed}`);
  process.stderr.write(`generating ${values.files} files into ${root}…\n`);
  await generateMonorepo({ files: Number(values.files), out: root, seed: Number(values.seed) });
}
requireFolder(root, USAGE);

let server: TestRedisServer | null = null;
const url = values["redis-url"] ?? (server = await startRedisServer()).url;
const redis = url.startsWith("unix://") ? new Redis({ path: url.slice("unix://".length) }) : new Redis(url);
const store = ProjectStore.forRoot(redis, root);
const { config } = loadConfig({ projectRoot: root, env: { IPUARO_REDIS_URL: url, XDG_CONFIG_HOME: path.join(os.tmpdir(), "ipuaro-bench-no-user-config") } });
const indexer = new ProjectIndexer(root, config, store);
process.stderr.write("indexing…\n");
const indexStarted = performance.now();
const stats = await indexer.index(await indexer.scan());
await indexer.close();
process.stderr.write(`indexed ${stats.files} files in ${((performance.now() - indexStarted) / 1000).toFixed(1)} s\n`);

const estimator = new TokenEstimator();
const estimateTokens = (text: string) => estimator.estimate(text);
const build = (extra: Partial<Parameters<typeof buildInitialContext>[0]> = {}) =>
  buildInitialContext({ store, root, budgetTokens: budget, estimateTokens, cache: null, ...extra });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
let overBudget = 0;
const check = (ctx: InitialContext) => {
  if (ctx.tokens > budget || estimateTokens(ctx.text) > budget) overBudget++;
  return ctx;
};

const first = check(await build());
const series = async (extra: Partial<Parameters<typeof buildInitialContext>[0]>) => {
  const times: number[] = [];
  const parts = { loadMs: [] as number[], rankMs: [] as number[], fitMs: [] as number[] };
  let last = first;
  for (let i = 0; i < runs; i++) {
    last = check(await build(extra));
    times.push(last.timings.totalMs);
    for (const k of ["loadMs", "rankMs", "fitMs"] as const) parts[k].push(last.timings[k]);
  }
  const r = (x: number) => Math.round(x * 10) / 10;
  const stages = `load ${r(median(parts.loadMs))}, rank ${r(median(parts.rankMs))}, fit ${r(median(parts.fitMs))}`;
  return { medianMs: r(median(times)), minMs: r(Math.min(...times)), stages, last };
};
const fresh = await series({ cache: null });
const cache = new SnapshotCache();
const cached = await series({ cache });
// A class from the middle of the ranking, and the folder of the last-ranked file: far from the top.
let symbol = "index";
for (const p of first.rankedFiles.slice(Math.floor(first.rankedFiles.length / 2))) {
  const name = (await store.getAst(p))?.classes[0]?.name;
  if (name) {
    symbol = name;
    break;
  }
}
const folder = first.rankedFiles.filter((p) => p.includes("/")).at(-1)?.split("/").slice(0, -1).join("/") ?? "";
const mention = await series({ cache, mentions: [`Why does ${symbol} break when called from ${folder}?`] });

const summary = {
  root,
  files: first.totalFiles,
  budget,
  tokens: first.tokens,
  outlined: first.includedFiles.length,
  summarisedFolders: first.summarisedFolders,
  firstMs: Math.round(first.timings.totalMs * 10) / 10,
  firstTimings: first.timings,
  fresh: { medianMs: fresh.medianMs, minMs: fresh.minMs, stages: fresh.stages },
  cached: { medianMs: cached.medianMs, minMs: cached.minMs, stages: cached.stages },
  mention: { medianMs: mention.medianMs, minMs: mention.minMs, topFiles: mention.last.includedFiles.slice(0, 3), mentioned: [symbol, folder] },
  overBudget,
  ok: overBudget === 0 && fresh.medianMs < TARGET_MS,
};
if (values.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
else {
  process.stdout.write(
    [
      `${summary.files} files, budget ${budget} tokens → ${summary.tokens} tokens, ${summary.outlined} outlines, ${summary.summarisedFolders} folder lines`,
      `first build ${summary.firstMs} ms (load ${first.timings.loadMs.toFixed(1)}, rank ${first.timings.rankMs.toFixed(1)}, fit ${first.timings.fitMs.toFixed(1)})`,
      `fresh read  median ${fresh.medianMs} ms, min ${fresh.minMs} ms (${runs} runs; medians: ${fresh.stages})`,
      `cached      median ${cached.medianMs} ms, min ${cached.minMs} ms (medians: ${cached.stages})`,
      `mentioning ${symbol} and ${folder}: median ${mention.medianMs} ms; top: ${summary.mention.topFiles.join(", ")}`,
      `${summary.ok ? "PASS" : "FAIL"}  fresh median < ${TARGET_MS} ms and never over budget (over: ${overBudget})`,
    ].join("\n") + "\n",
  );
}
redis.disconnect();
await server?.stop();
process.exitCode = summary.ok ? 0 : 1;
