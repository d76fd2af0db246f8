// analyze over the scripted shop history (shadow-fixture.ts): real git, real Redis, events recorded
// through the AnalyticsEvents recorder. Expected numbers are worked out from the script in the fixture.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCommits } from "../../../src/main/shadow/git-history.js";
import { recommendation } from "../../../src/main/shadow/predict-change.js";
import { analyze } from "../../../src/main/tools/analyze.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { call, type Json } from "./shadow-calls.js";
import { buildShadowFixture, CART, CHECKOUT, CHECKOUT_TEST, DISCOUNT, ENGINE, FORMAT, git, ORDERS, PRICE, PRICING_TEST, ROUTES, type ShadowFixture } from "./shadow-fixture.js";

const server = useRedisServer();
let fx: ShadowFixture;

beforeAll(async () => {
  fx = await buildShadowFixture(server().url);
}, 60_000);
afterAll(async () => {
  await fx?.close();
});

const run = (args: Record<string, unknown>) => call(analyze, args, fx.ctx);

describe("hotspots", () => {
  it("ranks the file that keeps breaking tests first, with a 0-1 breakdown, and leaves sweeps out", async () => {
    const r = await run({ query: "hotspots" });
    const files = r.hotspots.map((h: Json) => h.file);
    expect(files.slice(0, 2)).toEqual([PRICE, ENGINE]);
    expect(files.some((f: string) => f.startsWith("gen/"))).toBe(false); // only ever touched by >30-file commits
    const price = r.hotspots[0];
    expect(price.level).toBe("high");
    expect(price.stats).toMatchObject({ total_edits: 9, errors_caused: 6, human_fixes: 1, reverts: 1, sessions_touched: 3 });
    expect(price.breakdown.complexity).toBe(1); // the most complex file of the index
    for (const h of r.hotspots) {
      for (const v of Object.values(h.breakdown) as number[]) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(1);
      }
      expect(h.score).toBeGreaterThan(0.1);
    }
    const scores = r.hotspots.map((h: Json) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(r.timeframe).toBe("30d");
    expect(price.explanation).toMatch(/6 errors traced to it; 1 human fix of agent edits/);
  });

  it("blames errors on the change that caused them, not on the file where they showed up", async () => {
    const r = await run({ query: "hotspots", limit: 20 });
    const test = r.hotspots.find((h: Json) => h.file === PRICING_TEST);
    expect(test.stats.errors_caused).toBe(0);
    expect(test.stats.errors_in_file).toBe(4);
    expect(r.hotspots.find((h: Json) => h.file === FORMAT).breakdown.error_rate).toBe(0);
  });
});

describe("predict_change", () => {
  it("grades engine critical, price high, the clean files low", async () => {
    const levels: Record<string, string> = {};
    for (const f of [ENGINE, PRICE, FORMAT, CART, DISCOUNT]) levels[f] = (await run({ query: "predict_change", target: f })).risk_level;
    expect(levels).toEqual({ [ENGINE]: "critical", [PRICE]: "high", [FORMAT]: "low", [CART]: "low", [DISCOUNT]: "low" });
  });

  it("never calls a file that broke before 'safe to change', however little depends on it", async () => {
    for (const f of [FORMAT, CART, DISCOUNT]) {
      const r = await run({ query: "predict_change", target: f });
      if (r.historical_breakage_rate > 0) expect(r.recommendation).toMatch(/^LOW RISK \(little depends on it\), but \d+% of past changes/);
      else expect(r.recommendation).toContain("Safe to change");
    }
    // The fixture's low files never broke; the wording for one that did:
    expect(recommendation("low", "src/a.ts", 0.33, [], 0)).toBe("LOW RISK (little depends on it), but 33% of past changes to src/a.ts were followed by errors: run its own tests after the change.");
  });

  it("gives the breakage rate, what broke with it first among the affected files, and the recent outcomes", async () => {
    const price = await run({ query: "predict_change", target: `./${PRICE}` });
    expect(price.target).toBe(PRICE);
    expect(price.historical_breakage_rate).toBe(0.46); // 6 of 13 changes (7 commits, 5 agent edits, 1 human edit)
    expect(price.total_changes).toBe(13);
    expect(price.affected_files.slice(0, 2)).toEqual([PRICING_TEST, CHECKOUT_TEST]);
    expect(price.affected_files).toEqual(expect.arrayContaining([CART, CHECKOUT, ORDERS, DISCOUNT]));
    expect(price.recent_similar_changes[0]).toMatchObject({ source: "human", result: "clean" });
    expect(price.recent_similar_changes[1]).toMatchObject({ source: "agent", session_id: "S1", result: "caused a type error" });
    expect(price.recent_similar_changes[2]).toMatchObject({ source: "agent", session_id: "S1", result: `broke ${CHECKOUT_TEST}, ${PRICING_TEST}` });
    expect(price.recommendation).toMatch(/^HIGH RISK: 46% of past changes/);
    const engine = await run({ query: "predict_change", target: ENGINE });
    expect(engine.historical_breakage_rate).toBe(0.83);
    expect(engine.recommendation).toMatch(/^CRITICAL RISK/);
  });
});

describe("file_history", () => {
  it("is a newest-first timeline of commits, agent edits and human edits, with outcomes", async () => {
    const r = await run({ query: "file_history", target: PRICE });
    expect(r.total_edits).toBe(15); // 13 changes + 2 sweeps
    expect(r.authors).toEqual({ ai: 5, human: 10, by_name: { Alice: 4, Bob: 4, Carol: 1 } });
    expect(r.unique_sessions).toBe(3);
    expect(r.timeline[0]).toMatchObject({ source: "git", author: "Alice", subject: "bulk reformat again", sweep: true, caused_error: false });
    const human = r.timeline.find((t: Json) => t.human_fix);
    expect(human).toMatchObject({ source: "human", agent: "human", changes: "edited outside ipuaro" });
    const tsc = r.timeline.find((t: Json) => t.error_type === "type_error");
    expect(tsc).toMatchObject({ session_id: "S1", agent: "ai", changes: "+3/-3 lines", caused_error: true });
    expect(tsc.error_message).toContain("TS2322");
    const fixed = r.timeline.find((t: Json) => t.subject === "discount caps");
    expect(fixed).toMatchObject({ caused_error: true, error_type: "fix_commit" });
    expect(r.top_collaborators).toEqual([DISCOUNT, PRICING_TEST, CHECKOUT]);
    const dates = r.timeline.map((t: Json) => t.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(r.stability_score).toBeLessThan(0.5);
  });

  it("honours the timeframe", async () => {
    const r = await run({ query: "file_history", target: PRICE, timeframe: "7d" });
    expect(r.timeline.map((t: Json) => t.subject)).toEqual(["bulk reformat again", "bulk reformat"]);
  });
});

describe("dependency_graph", () => {
  it("gives imports, importers, co-change frequency and coupling, and files broken after its changes", async () => {
    const r = await run({ query: "dependency_graph", target: PRICE });
    expect(r.imports).toEqual([ENGINE]);
    expect(r.imported_by).toEqual([CART, CHECKOUT, ORDERS, PRICING_TEST]);
    // price is in 7 non-bulk commits; discount in 5, all with price; the pricing test in 3; checkout in 2.
    expect(r.co_changed_with.map((c: Json) => [c.file, c.frequency, c.coupling, c.shared_commits])).toEqual([
      [DISCOUNT, 0.71, 0.83, 5],
      [PRICING_TEST, 0.43, 0.6, 3],
      [CHECKOUT, 0.29, 0.44, 2],
    ]);
    // format.ts shares two bulk commits with price: ignored for co-change.
    expect(r.co_changed_with.some((c: Json) => c.file === FORMAT)).toBe(false);
    expect(r.causes_bugs_in).toEqual([
      { file: PRICING_TEST, count: 5 },
      { file: CHECKOUT_TEST, count: 1 },
    ]);
    expect(r.transitive).toBeUndefined();
  });

  it("follows edges up to depth 3 and takes a folder as a module", async () => {
    const deep = await run({ query: "dependency_graph", target: PRICE, depth: 2 });
    expect(deep.transitive.imported_by).toContainEqual({ file: ROUTES, depth: 2 });
    expect(deep.total_dependents).toBe(deep.imported_by.length + deep.transitive.imported_by.length);
    const mod = await run({ query: "dependency_graph", target: "src/pricing/" });
    expect(mod.kind).toBe("module");
    expect(mod.co_changed_with.some((c: Json) => c.file === DISCOUNT)).toBe(false); // inside the module
    expect(mod.imports).toEqual([ENGINE]);
  });
});

describe("team_pulse, my_stats, code_errors", () => {
  it("sees health decline over 30 days and recover over the last 7", async () => {
    const month = await run({ query: "team_pulse" });
    expect(month.trend).toBe("declining");
    expect(month.previous_health_score).toBe(0.91);
    expect(month.project_health_score).toBeLessThan(month.previous_health_score);
    expect(month.hotspot_count).toBeGreaterThanOrEqual(1);
    expect(month.module_breakdown[0].module).toBe("src/legacy");
    expect(month.module_breakdown.find((m: Json) => m.module === "src/pricing")).toMatchObject({ files: 2, hotspot: "price.ts" });
    // Month by month over half a year whatever the window: 27 file changes in commits (sweeps left out),
    // 12 agent edits, 1 human edit, spread over the 80 days of history.
    const months = month.health_over_time.map((m: Json) => m.month);
    expect(months.length).toBeGreaterThanOrEqual(3);
    expect([...months].sort()).toEqual(months);
    expect(month.health_over_time.reduce((s: number, m: Json) => s + m.changes, 0)).toBe(40);
    expect(month.health_over_time[0].score).toBe(1); // the month of the clean initial commit
    expect(Math.min(...month.health_over_time.map((m: Json) => m.score))).toBeLessThan(0.7); // the weeks of broken sessions
    const week = await run({ query: "team_pulse", timeframe: "7d" });
    expect(week.trend).toBe("improving");
    expect(week.error_rate).toBe(0);
  });

  it("reports the local user's sessions, tools and fix rate", async () => {
    const r = await run({ query: "my_stats" });
    expect(r.me).toEqual({ name: "Alice", email: "alice@example.com" });
    expect(r.sessions_total).toBe(6);
    expect(r.tools_used).toEqual({ get_lines: 2, edit_lines: 6, run_tests: 3, run_command: 1 });
    expect(r.human_fix_ratio).toBe(0.08); // 1 human fix of 12 agent edits
    expect(r.top_files[0]).toEqual({ file: PRICE, edits: 7, errors: 6 });
    expect(r.errors_encountered).toBe(10);
  });

  it("groups recent errors by the file they point at", async () => {
    const r = await run({ query: "code_errors" });
    expect(r.total_errors).toBe(10);
    expect(r.files[0]).toMatchObject({ file: PRICING_TEST, count: 4, kinds: { test_failure: 4 } });
    expect(r.files.find((f: Json) => f.file === PRICE).recent[0]).toMatchObject({ line: 12, kind: "type_error", session_id: "S1" });
  });
});

describe("git history import", () => {
  it("imports once, then only new commits", async () => {
    await run({ query: "hotspots" });
    const before = await readCommits(fx.scope);
    expect(before).toHaveLength(11);
    fx.commit("Dave", 0, "cart: rounding", [CART]);
    const history = await run({ query: "file_history", target: CART, timeframe: "7d" });
    expect(history.timeline[0]).toMatchObject({ author: "Dave", subject: "cart: rounding" });
    const after = await readCommits(fx.scope);
    expect(after).toHaveLength(12);
    expect(new Set(after.map((c) => c.hash)).size).toBe(12);
    expect(await fx.scope.redis.hget(fx.scope.keys.git, "last_commit")).toBe(git(fx.root, ["rev-parse", "HEAD"]).trim());
  });
});
