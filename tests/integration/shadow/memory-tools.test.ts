// memory_write, memory_search, decide, context_inject, knowledge_search and decisions_list on the shop
// fixture, plus what the orchestrator gets: the session-start memory block and the pre-edit risk warning.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEvents } from "../../../src/main/shadow/events-store.js";
import { riskWarningFor, sessionStartMemory } from "../../../src/main/shadow/session-memory.js";
import { analyze } from "../../../src/main/tools/analyze.js";
import { contextInjectTool } from "../../../src/main/tools/context-inject.js";
import { decide } from "../../../src/main/tools/decide.js";
import { memoryNote } from "../../../src/main/tools/memory-note.js";
import { memorySearchTool } from "../../../src/main/tools/memory-search.js";
import { memoryWrite } from "../../../src/main/tools/memory-write.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { call, fails, type Json } from "./shadow-calls.js";
import { buildShadowFixture, ENGINE, FORMAT, PRICE, type ShadowFixture } from "./shadow-fixture.js";

const server = useRedisServer();
let fx: ShadowFixture;
const words = (t: string) => Math.ceil(t.split(/\s+/).length * 1.3);

beforeAll(async () => {
  fx = await buildShadowFixture(server().url);
  const ctx = { ...fx.ctx, sessionId: "S9" };
  await call(memoryWrite, { category: "CONFIG_VALUES", content: "Prices are stored as integer cents, never as floating point numbers." }, ctx);
  await call(memoryWrite, { category: "ARCHITECTURE", content: "The engine in src/legacy/engine.ts is legacy code: every caller goes through runEngine." }, ctx);
  await call(memoryWrite, { category: "NAMING", content: "Source files use kebab-case names; classes use PascalCase." }, ctx);
  await call(memoryWrite, { category: "PROJECT_RULES", content: "Run the pricing tests after every change to src/pricing." }, ctx);
  await call(decide, { title: "Money as integer cents", description: "All amounts are integer cents so rounding never drifts between cart and checkout.", status: "accepted", alternatives: ["floats", "decimal.js"], related_files: [PRICE, "src/cart/cart.ts"] }, ctx);
  await call(decide, { title: "Replace the legacy engine", description: "Rewrite runEngine as a pure pricing pipeline once checkout is stable.", related_files: [ENGINE] }, ctx);
}, 60_000);
afterAll(async () => {
  await fx?.close();
});

describe("memory_write", () => {
  it("stores a fact with extracted tags", async () => {
    const r = await call(memoryWrite, { category: "CONSTRAINTS", content: "Node 20 only; TypeScript 5.9.3 and vitest 4.1.12 are pinned in package.json, see src/main/cli." }, fx.ctx);
    expect(r.node_id).toMatch(/^memory:[0-9a-f]{12}$/);
    expect(r.tags).toEqual(expect.arrayContaining(["path:src/main/cli", "tech:typescript", "tech:vitest", "version:5.9.3", "version:4.1.12"]));
    expect(r.stored_at).toBeTypeOf("number");
    expect(r.message).toMatch(/^Fact stored in CONSTRAINTS/);
  });

  it("updates the same fact instead of duplicating it (case and spacing ignored)", async () => {
    const first = await call(memoryWrite, { category: "NAMING", content: "Test files end in .test.ts and live under tests/." }, fx.ctx);
    const again = await call(memoryWrite, { category: "PROJECT_RULES", content: "  test files END in .test.ts   and live under tests/. " }, fx.ctx);
    expect(again.node_id).toBe(first.node_id);
    expect(again.category).toBe("PROJECT_RULES");
    expect(again.updated_at).toBeTypeOf("number");
    expect(again.message).toMatch(/already known; updated/);
    const all = await fx.scope.redis.hkeys(fx.scope.keys.memory);
    expect(all.filter((k) => k === first.node_id)).toHaveLength(1);
  });
});

describe("memory_search", () => {
  it("ranks the most relevant entry first across sources", async () => {
    const r = await call(memorySearchTool, { query: "integer cents" }, fx.ctx);
    expect(r.sources_queried).toEqual(["memory", "decisions", "file_history", "analytics"]);
    expect(r.results.slice(0, 2).map((x: Json) => x.source).sort()).toEqual(["decision", "memory"]);
    expect(r.results[0].relevance).toBe(1);
    const rel = r.results.map((x: Json) => x.relevance);
    expect([...rel].sort((a, b) => b - a)).toEqual(rel);
  });

  it("searches only the sources asked for, including file history and hotspots", async () => {
    const decisions = await call(memorySearchTool, { query: "engine", sources: ["decisions"] }, fx.ctx);
    expect(decisions.results.map((x: Json) => x.label)).toEqual(["Replace the legacy engine"]);
    const files = await call(memorySearchTool, { query: "engine", sources: ["file_history"] }, fx.ctx);
    expect(files.results[0]).toMatchObject({ source: "file_history", label: ENGINE });
    const analytics = await call(memorySearchTool, { query: "hotspot price", sources: ["analytics"], limit: 1 }, fx.ctx);
    expect(analytics.results).toEqual([expect.objectContaining({ source: "analytics", id: `hotspot:${PRICE}` })]);
  });
});

describe("decide and decisions_list", () => {
  it("numbers decisions, extracts tags when none are given, and supersedes by id", async () => {
    const r = await call(decide, { title: "Use Redis streams for events", description: "Events go to a Redis sorted set so time windows are one range query.", context: "analytics" }, fx.ctx);
    expect(r).toMatchObject({ status: "ok", decision_id: 3, decision_status: "proposed", related_files_count: 0 });
    expect(r.tags).toContain("tech:redis");
    const next = await call(decide, { title: "Events in a sorted set", description: "Keep events in one sorted set scored by time; streams add nothing here.", status: "accepted", supersedes: 3 }, fx.ctx);
    expect(next.supersedes).toBe(3);
    const list = await call(analyze, { query: "decisions_list" }, fx.ctx);
    expect(list.total).toBe(4);
    expect(list.decisions[0].title).toBe("Events in a sorted set");
    expect(list.decisions.find((d: Json) => d.id === 3)).toMatchObject({ status: "superseded", superseded_by: 4 });
    const accepted = await call(analyze, { query: "decisions_list", target: "accepted" }, fx.ctx);
    expect(accepted.decisions.map((d: Json) => d.id)).toEqual([4, 1]);
    expect(list.decisions.find((d: Json) => d.id === 1)).toMatchObject({ alternatives: ["floats", "decimal.js"], related_files: [PRICE, "src/cart/cart.ts"] });
  });
});

describe("knowledge_search", () => {
  it("finds decisions, memories, files and functions by BM25 over every node", async () => {
    const r = await call(analyze, { query: "knowledge_search", target: "legacy engine", limit: 8 }, fx.ctx);
    const types = new Set(r.results.map((x: Json) => x.node_type));
    for (const t of ["decision", "memory", "file", "api"]) expect(types.has(t), t).toBe(true);
    expect(r.results[0].relevance).toBe(1);
    const file = r.results.find((x: Json) => x.node_type === "file");
    expect(file.name).toBe(ENGINE);
    expect(file.related.length).toBeGreaterThan(0);
  });

  it("reuses the graph between searches, but never misses what was remembered since", async () => {
    const asts = fx.ctx.store.iterateAsts.bind(fx.ctx.store);
    let reads = 0;
    fx.ctx.store.iterateAsts = ((...args: Parameters<typeof asts>) => (reads++, asts(...args))) as typeof asts;
    try {
      await call(analyze, { query: "knowledge_search", target: "engine" }, fx.ctx);
      const first = reads;
      await call(analyze, { query: "knowledge_search", target: "cents" }, fx.ctx);
      expect(reads).toBe(first); // the ASTs were not read again
      await call(memoryWrite, { category: "ARCHITECTURE", content: "Quokka invoices are generated nightly by the batch runner." }, fx.ctx);
      const after = await call(analyze, { query: "knowledge_search", target: "quokka invoices" }, fx.ctx);
      expect(after.results[0]).toMatchObject({ node_type: "memory" });
      expect(after.results[0].description).toContain("Quokka invoices");
    } finally {
      fx.ctx.store.iterateAsts = asts;
    }
  });
});

describe("context_inject", () => {
  it("builds every section, or only those asked for", async () => {
    const all = await call(contextInjectTool, {}, fx.ctx);
    expect(all.sections).toEqual(["architecture", "conventions", "hotspots", "recent_changes", "decisions"]);
    expect(all.context).toContain("The engine in src/legacy/engine.ts is legacy code");
    expect(all.context).toContain("[NAMING] Source files use kebab-case names");
    expect(all.context).toMatch(new RegExp(`\`${PRICE}\` — score 0\\.\\d+ \\(high\\)`));
    expect(all.context).toContain("**#1 Money as integer cents**");
    expect(all.context).not.toContain("Replace the legacy engine"); // proposed, not accepted
    const one = await call(contextInjectTool, { include: ["conventions"] }, fx.ctx);
    expect(one.sections).toEqual(["conventions"]);
  });

  it("adds what is known about a focused file or module", async () => {
    const file = await call(contextInjectTool, { include: ["decisions"], focus: PRICE }, fx.ctx);
    expect(file.focus).toBe(PRICE);
    expect(file.context).toMatch(/## Focus: src\/pricing\/price\.ts\n- Imports 1 project files; imported by 4/);
    expect(file.context).toMatch(/Change risk: high/);
    expect(file.context).toContain("Decision #1 [accepted] Money as integer cents");
    const mod = await call(contextInjectTool, { include: ["conventions"], focus: "src/pricing" }, fx.ctx);
    expect(mod.context).toMatch(/## Focus: src\/pricing\n- Module with 2 indexed files\./);
    expect(mod.context).toContain("Run the pricing tests after every change to src/pricing.");
  });
});

describe("for the orchestrator", () => {
  it("injects rules, conventions, decisions and due notes at session start, within the budget", async () => {
    await call(memoryNote, { content: "Ask the user whether the cents migration is finished." }, fx.ctx);
    const full = await sessionStartMemory({ store: fx.project.store, root: fx.root, sessionId: "S10", budgetTokens: 2000, estimateTokens: words });
    expect(full.text).toMatch(/^## Project memory \(ipuaro\)\nReminders:\n- Ask the user whether the cents migration is finished\. \(shown at the next session start; note note:/);
    expect(full.text).toMatch(/\nRules:\n(- .*\n)*- Run the pricing tests after every change to src\/pricing\.\n/);
    expect(full.text).toContain("- test files END in .test.ts and live under tests/.");
    expect(full.text).toContain("Naming:\n- Source files use kebab-case names");
    expect(full.text).toContain("Accepted decisions:\n- #4 Events in a sorted set");
    expect(full.omitted).toBe(0);
    expect(full.notes).toHaveLength(1);
    expect(full.notes[0]!.status).toBe("surfaced");
    expect(full.git.status).toBe("up-to-date");
    const starts = (await readEvents(fx.scope)).filter((e) => e.type === "session_start" && e.session === "S10");
    expect(starts).toHaveLength(1);
    // Surfaced notes are not shown again; a small budget keeps the highest-priority lines.
    const small = await sessionStartMemory({ store: fx.project.store, root: fx.root, sessionId: "S11", budgetTokens: 30, estimateTokens: words });
    expect(small.text).not.toContain("Reminders:");
    expect(small.text).toContain("Rules:");
    expect(small.tokens).toBeLessThanOrEqual(30);
    expect(small.omitted).toBeGreaterThan(0);
  });

  it("a backlog of due reminders surfaces a few per session and leaves room for the rules and decisions", async () => {
    for (let i = 1; i <= 20; i++) await call(memoryNote, { content: `Напоминание номер ${i}: check the cents migration step ${i}.` }, fx.ctx);
    const first = await sessionStartMemory({ store: fx.project.store, root: fx.root, sessionId: "S20", budgetTokens: 2000, estimateTokens: words });
    const shownNow = (first.text.match(/Напоминание номер/g) ?? []).length;
    expect(shownNow).toBeGreaterThan(0);
    expect(shownNow).toBeLessThanOrEqual(8);
    expect(first.notes).toHaveLength(shownNow);
    expect(first.text).toMatch(/\(\d+ more due reminders wait for the next sessions/);
    expect(first.text).toContain("Rules:\n");
    expect(first.text).toContain("Accepted decisions:\n- #4 Events in a sorted set");
    // The ones held back are still active: the next session shows the next ones, none twice.
    const second = await sessionStartMemory({ store: fx.project.store, root: fx.root, sessionId: "S21", budgetTokens: 2000, estimateTokens: words });
    const again = second.notes.map((n) => n.id);
    expect(again.length).toBeGreaterThan(0);
    for (const id of again) expect(first.notes.map((n) => n.id)).not.toContain(id);
  });

  it("warns before editing high- and critical-risk files; critical needs explicit confirmation", async () => {
    const engine = await riskWarningFor(fx.project.store, fx.root, ENGINE);
    expect(engine).toMatchObject({ level: "critical", requiresConfirmation: true });
    expect(engine!.message).toMatch(/^Warning: src\/legacy\/engine\.ts is a critical-risk file \(hotspot score 0\.\d+, change risk 0\.92\)\. CRITICAL RISK/);
    const price = await riskWarningFor(fx.project.store, fx.root, PRICE);
    expect(price).toMatchObject({ level: "high", requiresConfirmation: false });
    expect(await riskWarningFor(fx.project.store, fx.root, FORMAT)).toBeNull();
    expect(await riskWarningFor(fx.project.store, fx.root, "src/not-there.ts")).toBeNull();
  });

  it("memory_search refuses an empty query and unknown sources with the seed's codes", async () => {
    await fails(memorySearchTool, { query: "   " }, fx.ctx, "SHADOW_ERR_SEARCH_QUERY_EMPTY");
    await fails(memorySearchTool, { query: "x", sources: [] }, fx.ctx, "SHADOW_ERR_NO_SOURCES");
  });
});
