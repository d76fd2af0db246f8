// Every error the shadow tools return comes in seed 001's envelope with its own code: validation bounds,
// missing data, and store failures. Three projects: the shop fixture, a quiet repository whose only
// commit is old, and an empty folder outside git.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAnalyze } from "../../../src/main/shadow/analyze.js";
import { runShadowTool } from "../../../src/main/shadow/shadow-errors.js";
import { analyze } from "../../../src/main/tools/analyze.js";
import { contextInjectTool } from "../../../src/main/tools/context-inject.js";
import { decide } from "../../../src/main/tools/decide.js";
import { memoryNote } from "../../../src/main/tools/memory-note.js";
import { memorySearchTool } from "../../../src/main/tools/memory-search.js";
import { memoryWrite } from "../../../src/main/tools/memory-write.js";
import { openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";
import { toolContext, type TestToolContext } from "../../helpers/tool-context.js";
import { call, fails } from "./shadow-calls.js";
import { buildShadowFixture, DAY, git, PRICE, type ShadowFixture } from "./shadow-fixture.js";

const server = useRedisServer();
let fx: ShadowFixture;
let quiet: IndexedProject;
let quietCtx: TestToolContext;
let empty: IndexedProject;
let emptyCtx: TestToolContext;

beforeAll(async () => {
  fx = await buildShadowFixture(server().url, { withSessions: false });
  fs.writeFileSync(path.join(fx.root, "src/orphan.ts"), "export const orphan = 1;\n"); // indexed, never committed, imported by nothing
  await fx.project.reindex();
  const quietRoot = makeTempDir("ipuaro-quiet-");
  fs.writeFileSync(path.join(quietRoot, "main.ts"), "export const main = 1;\n");
  git(quietRoot, ["init", "--quiet", "--initial-branch=main"]);
  git(quietRoot, ["add", "--all"]);
  git(quietRoot, ["commit", "--quiet", "-m", "initial"], { author: "Alice", at: Date.now() - 200 * DAY });
  quiet = await openIndexedProject(quietRoot, server().url);
  await quiet.reindex();
  quietCtx = toolContext(quiet);
  empty = await openIndexedProject(makeTempDir("ipuaro-empty-"), server().url);
  emptyCtx = toolContext(empty);
}, 60_000);
afterAll(async () => {
  await fx?.close();
  for (const p of [quiet, empty]) {
    await p?.close();
    if (p) removeDir(p.root);
  }
});

describe("analyze argument checks", () => {
  it.each([
    [{}, "SHADOW_ERR_INVALID_QUERY"],
    [{ query: "heatmap" }, "SHADOW_ERR_INVALID_QUERY"],
    [{ query: 3 }, "SHADOW_ERR_INVALID_QUERY"],
    [{ query: "hotspots", timeframe: "1y" }, "SHADOW_ERR_INVALID_TIMEFRAME"],
    [{ query: "hotspots", timeframe: 30 }, "SHADOW_ERR_INVALID_TIMEFRAME"],
    [{ query: "hotspots", limit: 0 }, "SHADOW_ERR_INVALID_LIMIT"],
    [{ query: "hotspots", limit: 101 }, "SHADOW_ERR_INVALID_LIMIT"],
    [{ query: "hotspots", limit: 2.5 }, "SHADOW_ERR_INVALID_LIMIT"],
    [{ query: "hotspots", limit: "ten" }, "SHADOW_ERR_INVALID_LIMIT"],
    [{ query: "dependency_graph", target: PRICE, depth: 4 }, "SHADOW_ERR_INVALID_DEPTH"],
    [{ query: "predict_change" }, "SHADOW_ERR_MISSING_TARGET"],
    [{ query: "file_history", target: "  " }, "SHADOW_ERR_MISSING_TARGET"],
    [{ query: "dependency_graph" }, "SHADOW_ERR_MISSING_TARGET"],
    [{ query: "knowledge_search" }, "SHADOW_ERR_MISSING_TARGET"],
    [{ query: "knowledge_search", target: "a" }, "SHADOW_ERR_SEARCH_TOO_BROAD"],
    [{ query: "knowledge_search", target: "the of and" }, "SHADOW_ERR_SEARCH_TOO_BROAD"],
    [{ query: "decisions_list", target: "done" }, "SHADOW_ERR_INVALID_STATUS"],
    [{ query: "decisions_list" }, "SHADOW_ERR_NO_DECISIONS"],
  ])("%j → %s", async (args, code) => {
    await fails(analyze, args, fx.ctx, code);
  });

  it("accepts limits and depths given as strings (XML tool calls carry strings)", async () => {
    const r = await call(analyze, { query: "hotspots", limit: "2" }, fx.ctx);
    expect(r.hotspots).toHaveLength(2);
  });

  it("refuses unknown files and paths outside the root, suggesting a file of the same name", async () => {
    const wrong = await fails(analyze, { query: "predict_change", target: "src/price.ts" }, fx.ctx, "SHADOW_ERR_FILE_NOT_FOUND");
    expect(wrong.message).toContain(`did you mean ${PRICE}?`);
    expect(wrong.details).toMatchObject({ target: "src/price.ts", similar: [PRICE], retryable: false });
    await fails(analyze, { query: "file_history", target: "../outside.ts" }, fx.ctx, "SHADOW_ERR_PATH_OUTSIDE_ROOT");
    await fails(analyze, { query: "file_history", target: "/etc/passwd" }, fx.ctx, "SHADOW_ERR_PATH_OUTSIDE_ROOT");
    await fails(analyze, { query: "dependency_graph", target: "src/nowhere" }, fx.ctx, "SHADOW_ERR_FILE_NOT_FOUND");
    await fails(analyze, { query: "file_history", target: "src/a\0b.ts" }, fx.ctx, "SHADOW_ERR_INVALID_QUERY");
  });

  it("says when there is no data for the question", async () => {
    await fails(analyze, { query: "predict_change", target: "src/orphan.ts" }, fx.ctx, "SHADOW_ERR_NO_PREDICTION_DATA");
    await fails(analyze, { query: "dependency_graph", target: "src/orphan.ts" }, fx.ctx, "SHADOW_ERR_NO_DEPENDENCIES");
    await fails(analyze, { query: "file_history", target: "src/orphan.ts" }, fx.ctx, "SHADOW_ERR_FILE_NOT_FOUND");
    const none = await fails(analyze, { query: "hotspots" }, quietCtx, "SHADOW_ERR_NO_HOTSPOTS");
    expect(none.details).toMatchObject({ timeframe: "30d", files_analyzed: 0 });
    await fails(analyze, { query: "team_pulse", timeframe: "7d" }, quietCtx, "SHADOW_ERR_INSUFFICIENT_DATA");
    await fails(analyze, { query: "my_stats" }, quietCtx, "SHADOW_ERR_INSUFFICIENT_DATA");
    const insufficient = await fails(analyze, { query: "hotspots" }, emptyCtx, "SHADOW_ERR_INSUFFICIENT_DATA");
    expect(insufficient.details.retryable).toBe(true);
    expect(insufficient.message).toContain("no edits, errors or git history are recorded for this project yet");
    await fails(analyze, { query: "knowledge_search", target: "anything" }, emptyCtx, "SHADOW_ERR_EMPTY_KNOWLEDGE_GRAPH");
  });

  it("says why hotspots has nothing when the git history is one bulk import", async () => {
    const root = makeTempDir("ipuaro-bulk-");
    for (let i = 0; i < 40; i++) fs.writeFileSync(path.join(root, `f${i}.ts`), `export const f${i} = ${i};\n`);
    git(root, ["init", "--quiet", "--initial-branch=main"]);
    git(root, ["add", "--all"]);
    git(root, ["commit", "--quiet", "-m", "import"], { author: "Alice", at: Date.now() - 2 * DAY });
    const bulk = await openIndexedProject(root, server().url);
    try {
      await bulk.reindex();
      const r = await fails(analyze, { query: "hotspots" }, toolContext(bulk), "SHADOW_ERR_INSUFFICIENT_DATA");
      expect(r.message).toContain("its git history holds only bulk commits");
    } finally {
      await bulk.close();
      removeDir(root);
    }
  });

  it("times out with SHADOW_ERR_TIMEOUT, and reports a corrupt index entry as DATABASE_CORRUPT", async () => {
    const slow = await runShadowTool("analyze", async () => ({ result: await runAnalyze(fx.scope, { query: "team_pulse" }, { timeoutMs: 0 }), summary: "" }));
    expect(slow.ok).toBe(false);
    expect(JSON.parse((slow as { message: string }).message)).toMatchObject({ code: "SHADOW_ERR_TIMEOUT", details: { retryable: true } });
    await quiet.redis.hset(quiet.store.keys.meta, "main.ts", "{not json");
    const corrupt = await fails(analyze, { query: "hotspots", timeframe: "all" }, quietCtx, "SHADOW_ERR_DATABASE_CORRUPT");
    expect(corrupt.details.retryable).toBe(false);
    await quiet.reindex();
  });

  it("leaves unknown parameters to the framework's INVALID_ARGS", async () => {
    const r = await analyze.run("t", { query: "hotspots", bogus: 1 }, fx.ctx);
    expect(r.code).toBe("INVALID_ARGS");
  });
});

describe("memory and decision argument checks", () => {
  it.each([
    [memoryWrite, { category: "RULES", content: "A long enough fact." }, "SHADOW_ERR_UNKNOWN_CATEGORY"],
    [memoryWrite, { content: "A long enough fact." }, "SHADOW_ERR_UNKNOWN_CATEGORY"],
    [memoryWrite, { category: "NAMING", content: "  short   " }, "SHADOW_ERR_CONTENT_TOO_SHORT"],
    [memoryWrite, { category: "NAMING" }, "SHADOW_ERR_CONTENT_TOO_SHORT"],
    [memoryWrite, { category: "NAMING", content: "x".repeat(10_001) }, "SHADOW_ERR_CONTENT_TOO_LONG"],
    [memorySearchTool, { query: "" }, "SHADOW_ERR_SEARCH_QUERY_EMPTY"],
    [memorySearchTool, {}, "SHADOW_ERR_SEARCH_QUERY_EMPTY"],
    [memorySearchTool, { query: "cents", sources: [] }, "SHADOW_ERR_NO_SOURCES"],
    [memorySearchTool, { query: "cents", sources: ["memory", "web"] }, "SHADOW_ERR_INVALID_SOURCES"],
    [memorySearchTool, { query: "cents", sources: "memory,web" }, "SHADOW_ERR_INVALID_SOURCES"],
    [memorySearchTool, { query: "cents", limit: 1000 }, "SHADOW_ERR_INVALID_LIMIT"],
    [memorySearchTool, { query: "a" }, "SHADOW_ERR_SEARCH_TOO_BROAD"],
    [memoryNote, { content: "too short" }, "SHADOW_ERR_CONTENT_TOO_SHORT"],
    [memoryNote, { content: "y".repeat(10_001) }, "SHADOW_ERR_CONTENT_TOO_LONG"],
    [memoryNote, { content: "A long enough note.", surface_condition: "z".repeat(501) }, "SHADOW_ERR_CONTENT_TOO_LONG"],
    [decide, { title: "ADR", description: "A description that is long enough." }, "SHADOW_ERR_TITLE_TOO_SHORT"],
    [decide, { description: "A description that is long enough." }, "SHADOW_ERR_TITLE_TOO_SHORT"],
    [decide, { title: "Use cents", description: "Too short." }, "SHADOW_ERR_DESCRIPTION_TOO_SHORT"],
    [decide, { title: "Use cents", description: "A description that is long enough.", status: "done" }, "SHADOW_ERR_INVALID_STATUS"],
    [decide, { title: "Use cents", description: "A description that is long enough.", related_files: ["../secrets.ts"] }, "SHADOW_ERR_PATH_OUTSIDE_ROOT"],
    [decide, { title: "Use cents", description: "A description that is long enough.", supersedes: 99 }, "SHADOW_ERR_NO_DECISIONS"],
    [contextInjectTool, { include: ["architecture", "gossip"] }, "SHADOW_ERR_INVALID_INCLUDE"],
    [contextInjectTool, { focus: "src/nowhere" }, "SHADOW_ERR_INVALID_FOCUS"],
    [contextInjectTool, { focus: "../elsewhere" }, "SHADOW_ERR_INVALID_FOCUS"],
  ])("%s %j → %s", async (tool, args, code) => {
    await fails(tool, args, fx.ctx, code);
  });

  it("refuses a second decision with the same title (ignoring case), naming the first", async () => {
    await call(decide, { title: "Money in cents", description: "All amounts are integer cents everywhere." }, fx.ctx);
    const dup = await fails(decide, { title: "  money IN cents ", description: "Another description, also long enough." }, fx.ctx, "SHADOW_ERR_DECISION_EXISTS");
    expect(dup.details.existing_id).toBe(1);
  });

  it("has no context to inject for a project with nothing indexed or remembered", async () => {
    await fails(contextInjectTool, {}, emptyCtx, "SHADOW_ERR_NO_CONTEXT_AVAILABLE");
  });
});
