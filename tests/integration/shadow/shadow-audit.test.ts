// Defects found by driving the memory and analytics tools on a real repository (real git, real Redis):
// a revert blamed on the wrong commit, answers cut mid-JSON, Russian word forms and conditions missed,
// decisions that could not be revised, and glob related_files ignored by context_inject's focus.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenize } from "../../../src/main/shadow/bm25.js";
import { parseNoteCondition } from "../../../src/main/shadow/note-conditions.js";
import { relatedTo } from "../../../src/main/shadow/related-files.js";
import { MODEL_JSON_BUDGET, toModelJson } from "../../../src/main/shadow/shadow-errors.js";
import { analyze } from "../../../src/main/tools/analyze.js";
import { contextInjectTool } from "../../../src/main/tools/context-inject.js";
import { decide } from "../../../src/main/tools/decide.js";
import { MAX_TOOL_OUTPUT_CHARS } from "../../../src/main/tools/define-tool.js";
import { memoryNote } from "../../../src/main/tools/memory-note.js";
import { memorySearchTool } from "../../../src/main/tools/memory-search.js";
import { memoryWrite } from "../../../src/main/tools/memory-write.js";
import { closeIndexedProject, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir } from "../../helpers/temp-dir.js";
import { toolContext, type TestToolContext } from "../../helpers/tool-context.js";
import { call, fails, type Json } from "./shadow-calls.js";
import { DAY, git } from "./shadow-fixture.js";

const server = useRedisServer();
let project: IndexedProject;
let ctx: TestToolContext;
const MONEY = "src/money.ts";
const GENERATED_FILES = 110;
const hashes: Record<string, string> = {};

function write(root: string, file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
}

/**
 * History (days ago): 60 initial money.ts; 40 "money: banker rounding" edits its first line (A);
 * 35 "money: docs" appends a comment (B); 30 `git revert A`; 20-16 five commits of 22 module files each.
 */
beforeAll(async () => {
  const root = makeTempDir("ipuaro-shadow-audit-");
  const now = Date.now();
  git(root, ["init", "--quiet", "--initial-branch=main"]);
  git(root, ["config", "commit.gpgsign", "false"]);
  const commit = (author: string, daysAgo: number, subject: string) => {
    git(root, ["add", "--all"]);
    git(root, ["commit", "--quiet", "-m", subject], { author, at: now - daysAgo * DAY });
    hashes[subject] = git(root, ["rev-parse", "HEAD"]).trim();
  };
  const body = Array.from({ length: 12 }, (_, i) => `export const c${i} = ${i};`);
  write(root, MONEY, ["export const rounding = 'half-up';", ...body, ""].join("\n"));
  write(root, "package.json", '{ "name": "audit", "version": "1.0.0", "type": "module" }\n');
  commit("Alice", 60, "initial");
  write(root, MONEY, ["export const rounding = 'banker';", ...body, ""].join("\n"));
  commit("Carol", 40, "money: banker rounding");
  write(root, MONEY, ["export const rounding = 'banker';", ...body, "// amounts are cents", ""].join("\n"));
  commit("Bob", 35, "money: docs");
  git(root, ["revert", "--no-edit", hashes["money: banker rounding"]!], { author: "Carol", at: now - 30 * DAY });
  hashes.revert = git(root, ["rev-parse", "HEAD"]).trim();
  for (let batch = 0; batch < 5; batch++) {
    for (let i = 0; i < GENERATED_FILES / 5; i++) {
      const file = `src/modules/m${batch}-${i}.ts`;
      write(root, file, `import { rounding } from "../money.js";\nexport function m${batch}_${i}(x: number): number {\n  if (x > ${i}) {\n    for (let k = 0; k < x; k++) {\n      if (k % 2) x += k;\n    }\n  }\n  return rounding ? x : -x;\n}\n`);
    }
    commit("Dave", 20 - batch, `modules batch ${batch}`);
  }
  project = await openIndexedProject(root, server().url);
  await project.reindex();
  ctx = toolContext(project);
}, 60_000);
afterAll(async () => {
  await closeIndexedProject(project);
});

describe("git reverts", () => {
  it("blame the commit they reverted, not the last commit that touched the file", async () => {
    const r = await call(analyze, { query: "file_history", target: MONEY }, ctx);
    const bySubject = new Map<string, Json>(r.timeline.map((e: Json) => [e.subject, e]));
    expect(bySubject.get("money: banker rounding")).toMatchObject({ caused_error: true, error_type: "reverted" });
    expect(bySubject.get("money: banker rounding").error_message).toContain(hashes.revert!.slice(0, 8));
    expect(bySubject.get("money: docs")).toMatchObject({ caused_error: false });
    const p = await call(analyze, { query: "predict_change", target: MONEY }, ctx);
    const reverted = p.recent_similar_changes.find((c: Json) => c.commit === hashes["money: banker rounding"]!.slice(0, 8));
    expect(reverted.result).toBe("was reverted");
  });
});

describe("answers too long for the tool output", () => {
  it("stay valid JSON: lists are shortened and the left-out items counted", async () => {
    const r = await analyze.run("t1", { query: "hotspots", timeframe: "all", limit: 100 }, ctx);
    expect(r.success).toBe(true);
    expect(r.truncated).toBe(false);
    const parsed = JSON.parse(r.data!);
    expect(r.data!.length).toBeLessThanOrEqual(MAX_TOOL_OUTPUT_CHARS);
    expect(parsed.hotspots.length).toBeGreaterThan(10);
    expect(parsed.left_out.hotspots + parsed.hotspots.length).toBe(100);
    expect(parsed.note).toMatch(/smaller limit/);
  });

  it("keep the indented form when it fits, and compact JSON before dropping anything", () => {
    const small = { a: [1, 2, 3] };
    expect(toModelJson(small)).toBe(JSON.stringify(small, null, 1));
    const medium = { list: Array.from({ length: 40 }, (_, i) => ({ i, name: `n${i}` })) };
    const compact = JSON.stringify(medium);
    expect(JSON.parse(toModelJson(medium, compact.length))).toEqual(medium);
    const cut = JSON.parse(toModelJson(medium, 400));
    expect(cut.list.length + cut.left_out.list).toBe(40);
    expect(JSON.stringify(cut).length).toBeLessThanOrEqual(400);
    expect(MODEL_JSON_BUDGET).toBeLessThan(MAX_TOOL_OUTPUT_CHARS);
  });
});

describe("Russian", () => {
  it("folds every case of -ие/-ия, -ость and -ья nouns to one stem", () => {
    const stems = (words: string[]) => new Set(words.map((w) => tokenize(w)[0]));
    expect(stems(["округление", "округления", "округлению", "округлением", "округлении"]).size).toBe(1);
    expect(stems(["сессия", "сессии", "сессией", "сессиях", "сессию"]).size).toBe(1);
    expect(stems(["точность", "точности", "точностью"]).size).toBe(1);
    expect(stems(["решение", "решения", "решений"]).size).toBe(1);
    expect(stems(["статья", "статьи", "статью", "статей"]).size).toBe(1);
  });

  it("memory_search finds a note and a fact by another case of their words", async () => {
    await call(memoryNote, { content: "Проверить округление сумм после релиза" }, ctx);
    await call(memoryWrite, { category: "PROJECT_RULES", content: "Точность расчётов важнее скорости: суммы храним в копейках." }, ctx);
    const rounding = await call(memorySearchTool, { query: "округления", sources: ["memory"] }, ctx);
    expect(rounding.results.map((x: Json) => x.label)).toContain("Проверить округление сумм после релиза");
    const precision = await call(memorySearchTool, { query: "точностью", sources: ["memory"] }, ctx);
    expect(precision.results[0]?.label).toMatch(/^Точность расчётов/);
  });

  it("understands surface conditions written in Russian", async () => {
    expect(parseNoteCondition("когда PR #42 будет смержен")).toEqual({ kind: "pr_merged", number: 42 });
    expect(parseNoteCondition("когда ветка feature/cents будет слита")).toEqual({ kind: "branch_merged", branch: "feature/cents" });
    expect(parseNoteCondition("когда выйдет версия 1.2.0")).toEqual({ kind: "version", min: "1.2.0" });
    expect(parseNoteCondition("когда src/a.ts будет содержать функцию foo")).toEqual({ kind: "symbol", name: "foo", symbolKind: "function", path: "src/a.ts" });
    expect(parseNoteCondition("когда в src/cart.ts появится класс Basket")).toEqual({ kind: "symbol", name: "Basket", symbolKind: "class", path: "src/cart.ts" });
    expect(parseNoteCondition("в следующей сессии")).toEqual({ kind: "next_session" });
    const r = await call(memoryNote, { content: "Удалить старый расчёт округления", surface_condition: "когда PR #7 будет смержен" }, ctx);
    expect(r.condition).toEqual({ kind: "pr_merged", number: 7 });
    expect(r.message).toMatch(/once a merge of the PR appears/);
  });
});

describe("decide", () => {
  it("revises a decision under the same title by superseding it, as its own error message suggests", async () => {
    const first = await call(decide, { title: "Rounding mode", description: "Round half up everywhere; banker rounding confused the accountants.", status: "proposed" }, ctx);
    await fails(decide, { title: "Rounding mode", description: "Round half up everywhere, now agreed with accounting." }, ctx, "SHADOW_ERR_DECISION_EXISTS");
    const second = await call(decide, { title: "Rounding mode", description: "Round half up everywhere, now agreed with accounting.", status: "accepted", supersedes: first.decision_id }, ctx);
    expect(second).toMatchObject({ decision_status: "accepted", supersedes: first.decision_id });
    // A second revision is not blocked by the first, superseded one.
    const third = await call(decide, { title: "Rounding mode", description: "Round half even for tax lines only; half up elsewhere.", status: "accepted", supersedes: second.decision_id }, ctx);
    const list = await call(analyze, { query: "decisions_list" }, ctx);
    const byId = new Map<number, Json>(list.decisions.map((d: Json) => [d.id, d]));
    expect(byId.get(first.decision_id)).toMatchObject({ status: "superseded", superseded_by: second.decision_id });
    expect(byId.get(second.decision_id)).toMatchObject({ status: "superseded", superseded_by: third.decision_id });
    expect(byId.get(third.decision_id)).toMatchObject({ status: "accepted", supersedes: second.decision_id });
  });

  it("refuses to supersede a decision that was already superseded, naming its successor", async () => {
    const old = await call(decide, { title: "Money storage v1", description: "Store money as floating point euros for simplicity." }, ctx);
    const next = await call(decide, { title: "Money storage v2", description: "Store money as integer cents to avoid drift.", status: "accepted", supersedes: old.decision_id }, ctx);
    const envelope = await fails(decide, { title: "Money storage v3", description: "Store money as bigint cents for large totals.", supersedes: old.decision_id }, ctx, "SHADOW_ERR_DECISION_EXISTS");
    expect(envelope.message).toContain(`superseded by decision ${next.decision_id}`);
    expect(envelope.details.existing_id).toBe(next.decision_id);
    const list = await call(analyze, { query: "decisions_list" }, ctx);
    expect(list.decisions.find((d: Json) => d.id === old.decision_id).superseded_by).toBe(next.decision_id);
  });
});

describe("context_inject focus", () => {
  it("shows decisions whose related_files glob covers the focused file", async () => {
    const d = await call(decide, { title: "Modules take rounding from money.ts", description: "Every module imports rounding from src/money.ts, never its own copy.", status: "accepted", related_files: ["src/modules/*.ts"] }, ctx);
    const r = await call(contextInjectTool, { focus: "src/modules/m0-3.ts", include: ["decisions"] }, ctx);
    expect(r.context).toContain(`Decision #${d.decision_id}`);
    const folder = await call(contextInjectTool, { focus: "src", include: ["decisions"] }, ctx);
    expect(folder.context).toContain(`Decision #${d.decision_id}`);
    const other = await call(contextInjectTool, { focus: MONEY, include: ["decisions"] }, ctx);
    expect(other.context).not.toContain(`Decision #${d.decision_id} `);
  });

  it("matches related_files entries: files, folders and globs", () => {
    expect(relatedTo("src/modules/*.ts", "src/modules/a.ts", false)).toBe(true);
    expect(relatedTo("src/modules/*.ts", "src/modules/deep/a.ts", false)).toBe(false);
    expect(relatedTo("src/**/*.ts", "src/modules/deep/a.ts", false)).toBe(true);
    expect(relatedTo("src/**/a.ts", "src/a.ts", false)).toBe(true);
    expect(relatedTo("src/modules", "src/modules/a.ts", false)).toBe(true);
    expect(relatedTo("./src/money.ts", "src/money.ts", false)).toBe(true);
    expect(relatedTo("src/modules/*.ts", "src", true)).toBe(true);
    expect(relatedTo("lib/*.ts", "src", true)).toBe(false);
  });
});

describe("a folder given where one file is needed", () => {
  it("is called a folder, not 'not in the index'", async () => {
    for (const query of ["predict_change", "file_history"]) {
      const envelope = await fails(analyze, { query, target: "src/modules" }, ctx, "SHADOW_ERR_FILE_NOT_FOUND");
      expect(envelope.message).toBe(`src/modules is a folder; ${query} needs one file. Use dependency_graph for a folder, or hotspots to pick its riskiest file.`);
    }
  });
});
