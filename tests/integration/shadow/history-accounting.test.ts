// How changes are counted and blamed (real git, real Redis): a commit of edits recorded at this checkout
// is the same work, not a second change; a revert is never blamed for a later fix and counts as
// frustration; glob related_files link files in the knowledge graph; the first import of a long history
// that outlasts analyze's limit says so.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAnalyze } from "../../../src/main/shadow/analyze.js";
import { createAnalyticsEvents, type AnalyticsEvents } from "../../../src/main/shadow/events-recorder.js";
import { syncGitHistory } from "../../../src/main/shadow/git-history.js";
import { isShadowError, toShadowError } from "../../../src/main/shadow/shadow-errors.js";
import { shadowScope } from "../../../src/main/shadow/shadow-scope.js";
import { analyze } from "../../../src/main/tools/analyze.js";
import { decide } from "../../../src/main/tools/decide.js";
import { closeIndexedProject, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir } from "../../helpers/temp-dir.js";
import { toolContext, type TestToolContext } from "../../helpers/tool-context.js";
import { call, type Json } from "./shadow-calls.js";
import { DAY, git, MINUTE } from "./shadow-fixture.js";

const server = useRedisServer();
let project: IndexedProject;
let ctx: TestToolContext;
const hashes: Record<string, string> = {};
const CART = "src/cart.ts";
const NOTES = "src/notes.ts";
const MONEY = "src/money.ts";
const TAX = "src/tax.ts";

const lines = (name: string) => Array.from({ length: 12 }, (_, i) => `export const ${name}${i} = ${i};`);

function write(root: string, file: string, text: string[]): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), [...text, ""].join("\n"));
}

function newRepo(prefix: string): string {
  const root = makeTempDir(prefix);
  git(root, ["init", "--quiet", "--initial-branch=main"]);
  git(root, ["config", "commit.gpgsign", "false"]);
  // The person at this checkout: their commits can hold the edits recorded here.
  git(root, ["config", "user.name", "Alice"]);
  git(root, ["config", "user.email", "alice@example.com"]);
  return root;
}

/**
 * History (days ago). The person at this checkout is Alice.
 *   60      Alice  initial                         every file
 *   10      agent S1 edits cart twice; tsc then fails in cart
 *    9      a human edit of notes seen by the watcher
 *    8      Alice  cart: totals (local commit)     cart, notes     ← the same work as the three edits above
 *    6      agent S2 edits cart
 *    5      Bob    cart: discounts (pulled)        cart            ← a teammate's work: counted
 *   29      Bob    tax: rates                      tax (last line)
 *   28.5    Bob    tax: rounding                   tax (first line)
 *   28      Carol  money: banker rounding          money
 *   27.5    Carol  revert "tax: rounding"
 *   27      Carol  revert "money: banker rounding"
 *   21      Bob    fix: totals                     money, tax
 */
beforeAll(async () => {
  const now = Date.now();
  const root = newRepo("ipuaro-history-accounting-");
  const commit = (author: string | null, daysAgo: number, subject: string) => {
    git(root, ["add", "--all"]);
    git(root, ["commit", "--quiet", "-m", subject], { ...(author ? { author } : {}), at: now - daysAgo * DAY });
    hashes[subject] = git(root, ["rev-parse", "HEAD"]).trim();
  };
  const revert = (subject: string, daysAgo: number) => {
    git(root, ["revert", "--no-edit", hashes[subject]!], { author: "Carol", at: now - daysAgo * DAY });
    hashes[`revert ${subject}`] = git(root, ["rev-parse", "HEAD"]).trim();
  };
  for (const [file, name] of [[CART, "cart"], [NOTES, "note"], [MONEY, "money"], [TAX, "tax"]] as const) write(root, file, lines(name));
  fs.writeFileSync(path.join(root, "package.json"), '{ "name": "accounting", "version": "1.0.0", "type": "module" }\n');
  commit("Alice", 60, "initial");
  write(root, TAX, [...lines("tax").slice(0, -1), "export const tax11 = 12;"]);
  commit("Bob", 29, "tax: rates");
  write(root, TAX, ["export const tax0 = 100;", ...lines("tax").slice(1, -1), "export const tax11 = 12;"]);
  commit("Bob", 28.5, "tax: rounding");
  write(root, MONEY, ["export const money0 = 100;", ...lines("money").slice(1)]);
  commit("Carol", 28, "money: banker rounding");
  revert("tax: rounding", 27.5);
  revert("money: banker rounding", 27);
  write(root, MONEY, [...lines("money"), "// totals in cents"]);
  write(root, TAX, [...lines("tax").slice(0, -1), "export const tax11 = 12;", "// totals in cents"]);
  commit("Bob", 21, "fix: totals");

  project = await openIndexedProject(root, server().url);
  let clock = now;
  const events = createAnalyticsEvents(shadowScope(project.store, root, { now: () => clock }), { onError: (e) => { throw e; } });
  const at = async (daysAgo: number, fn: (e: AnalyticsEvents) => Promise<unknown>) => {
    clock = now - daysAgo * DAY;
    await fn(events);
  };
  const edit = (sessionId: string) => ({ sessionId, file: CART, before: ["a"], after: ["a", "b"], tool: "edit_lines" });
  await at(10, (e) => e.editApplied(edit("S1")));
  await at(10 - 5 / (24 * 60), (e) => e.editApplied(edit("S1")));
  await at(10 - 8 / (24 * 60), (e) => e.commandFailed({ sessionId: "S1", source: "run_command", command: "npx tsc --noEmit", output: `${CART}(3,1): error TS2322: Type 'string' is not assignable to type 'number'.\n` }));
  await at(9, (e) => e.externalChange({ file: NOTES, change: "updated" }));
  write(root, CART, [...lines("cart"), "export const total = 1;"]);
  write(root, NOTES, [...lines("note"), "// edited by hand"]);
  commit(null, 8, "cart: totals"); // the checkout's own identity, as git_commit commits
  await at(6, (e) => e.editApplied(edit("S2")));
  write(root, CART, [...lines("cart"), "export const total = 2;"]);
  commit("Bob", 5, "cart: discounts");
  clock = now;
  await project.reindex();
  ctx = toolContext(project);
}, 60_000);
afterAll(async () => {
  await closeIndexedProject(project);
});

const run = (args: Record<string, unknown>) => call(analyze, args, ctx);

describe("a commit of edits recorded at this checkout", () => {
  it("is the same work as those edits: one change each, the commit written onto the latest edit", async () => {
    const cart = await run({ query: "file_history", target: CART });
    // initial, S1's two edits (the second committed in "cart: totals"), S2's edit, Bob's commit.
    expect(cart.total_edits).toBe(5);
    expect(cart.authors).toEqual({ ai: 3, human: 2, by_name: { Alice: 1, Bob: 1 } });
    const committed = cart.timeline.filter((t: Json) => t.subject === "cart: totals");
    expect(committed).toHaveLength(1);
    expect(committed[0]).toMatchObject({ source: "agent", session_id: "S1", commit: hashes["cart: totals"]!.slice(0, 8), caused_error: true, error_type: "type_error" });
    const notes = await run({ query: "file_history", target: NOTES });
    expect(notes.total_edits).toBe(2); // initial + the human edit, which the commit names
    expect(notes.timeline[0]).toMatchObject({ source: "human", author: "Alice", subject: "cart: totals" });
  });

  it("does not inflate edit counts or dilute the breakage rate", async () => {
    const hot = await run({ query: "hotspots", limit: 20 });
    expect(hot.hotspots.find((h: Json) => h.file === CART).stats.total_edits).toBe(4); // in 30 days
    const prediction = await run({ query: "predict_change", target: CART });
    expect(prediction.total_changes).toBe(5);
    expect(prediction.historical_breakage_rate).toBe(0.2); // 1 of 5, not 1 of 6
    const mine = await run({ query: "my_stats" });
    expect(mine.top_files.find((f: Json) => f.file === CART)).toEqual({ file: CART, edits: 3, errors: 1 });
  });
});

describe("a fix after a revert", () => {
  it("blames neither the revert nor the change it undid; the latest change still in the code takes it", async () => {
    const money = await run({ query: "file_history", target: MONEY });
    const bySubject = new Map<string, Json>(money.timeline.map((e: Json) => [e.subject, e]));
    expect(bySubject.get('Revert "money: banker rounding"')).toMatchObject({ caused_error: false });
    expect(bySubject.get("money: banker rounding")).toMatchObject({ caused_error: true, error_type: "reverted" });
    const p = await run({ query: "predict_change", target: MONEY });
    expect(p.historical_breakage_rate).toBe(0.25); // only the reverted change, of 4
    expect(p.recent_similar_changes.find((c: Json) => c.commit === hashes["revert money: banker rounding"]!.slice(0, 8)).result).toBe("clean");
    const tax = await run({ query: "file_history", target: TAX });
    const taxBySubject = new Map<string, Json>(tax.timeline.map((e: Json) => [e.subject, e]));
    expect(taxBySubject.get('Revert "tax: rounding"')).toMatchObject({ caused_error: false });
    expect(taxBySubject.get("tax: rounding")).toMatchObject({ error_type: "reverted" });
    expect(taxBySubject.get("tax: rates")).toMatchObject({ caused_error: true, error_type: "fix_commit" });
  });
});

describe("git reverts", () => {
  it("count toward a hotspot's frustration", async () => {
    const hot = await run({ query: "hotspots", timeframe: "all", limit: 20 });
    const money = hot.hotspots.find((h: Json) => h.file === MONEY);
    expect(money.stats).toMatchObject({ total_edits: 4, reverts: 1, git_reverts: 1, human_fixes: 0 });
    expect(money.breakdown.frustration).toBe(0.5); // 2 × 1 revert / 4 changes
    expect(money.explanation).toContain("reverted in git 1 time");
    const history = await run({ query: "file_history", target: MONEY });
    expect(history.reverts).toBe(1);
  });
});

describe("knowledge_search", () => {
  it("links a decision's glob related_files to the indexed files they match", async () => {
    await call(decide, { title: "Amounts in cents", description: "Every amount in the source is an integer number of cents.", status: "accepted", related_files: ["src/m*.ts"] }, ctx);
    const r = await run({ query: "knowledge_search", target: "amounts in cents" });
    const decision = r.results.find((x: Json) => x.node_type === "decision");
    expect(decision.related).toEqual([`references ${MONEY}`]);
  });
});

describe("the first import of a long history", () => {
  it("outlasting analyze's limit says the history is being imported; asked again, analyze answers", async () => {
    const root = newRepo("ipuaro-history-import-");
    write(root, "src/a.ts", lines("a"));
    git(root, ["add", "--all"]);
    git(root, ["commit", "--quiet", "-m", "initial"], { author: "Alice", at: Date.now() - DAY });
    const fresh = await openIndexedProject(root, server().url);
    try {
      await fresh.reindex();
      const scope = shadowScope(fresh.store, root);
      // 1 ms: git alone takes longer, as a 20,000-commit import takes longer than 5 s.
      const err = await runAnalyze(scope, { query: "file_history", target: "src/a.ts" }, { timeoutMs: 1 }).then(() => null, (e: unknown) => e);
      expect(isShadowError(err, "SHADOW_ERR_TIMEOUT")).toBe(true);
      const envelope = toShadowError(err, "analyze").toJSON();
      expect(envelope.message).toMatch(/git history is still being imported .* ask the same question again in a moment/);
      expect(envelope.details).toMatchObject({ retryable: true, importing_git_history: true });
      await syncGitHistory(scope); // the import the timed-out call started
      const again = await runAnalyze(scope, { query: "file_history", target: "src/a.ts" }, { timeoutMs: 60 * MINUTE });
      expect((again.result as Json).timeline[0]).toMatchObject({ subject: "initial", author: "Alice" });
    } finally {
      await closeIndexedProject(fresh);
    }
  });
});
