// `ipuaro analyze`, `ipuaro memory` and `ipuaro decisions` run in-process on a commander program with
// only these commands registered, their output captured: JSON for scripts, tables for people, the
// seed's envelope and exit code 1 for errors.
import path from "node:path";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerAnalyzeCommand } from "../../../src/main/cli/commands/analyze-command.js";
import { registerDecisionsCommand } from "../../../src/main/cli/commands/decisions-command.js";
import { registerMemoryCommand } from "../../../src/main/cli/commands/memory-command.js";
import { decide } from "../../../src/main/tools/decide.js";
import { memoryNote } from "../../../src/main/tools/memory-note.js";
import { memoryWrite } from "../../../src/main/tools/memory-write.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";
import { call, type Json } from "./shadow-calls.js";
import { buildShadowFixture, DISCOUNT, ENGINE, PRICE, type ShadowFixture } from "./shadow-fixture.js";

const server = useRedisServer();
let fx: ShadowFixture;

beforeAll(async () => {
  fx = await buildShadowFixture(server().url);
  await call(memoryWrite, { category: "CONFIG_VALUES", content: "Prices are stored as integer cents." }, fx.ctx);
  await call(memoryNote, { content: "Check the cents migration next time." }, fx.ctx);
  await call(decide, { title: "Money as integer cents", description: "All amounts are integer cents so rounding never drifts.", status: "accepted", tags: ["money"] }, fx.ctx);
  await call(decide, { title: "Replace the legacy engine", description: "Rewrite runEngine as a pure pricing pipeline later on." }, fx.ctx);
}, 60_000);
afterAll(async () => {
  await fx?.close();
});

async function ipuaro(...args: string[]): Promise<{ out: string; err: string; code: number }> {
  let out = "";
  let err = "";
  let code = 0;
  const io = {
    out: (t: string) => void (out += `${t}\n`),
    err: (t: string) => void (err += `${t}\n`),
    exit: (c: number) => void (code = c),
    env: { ...process.env, IPUARO_REDIS_URL: server().url, XDG_CONFIG_HOME: path.join(fx.root, ".no-user-config") },
  };
  const program = new Command().exitOverride();
  registerAnalyzeCommand(program, io);
  registerMemoryCommand(program, io);
  registerDecisionsCommand(program, io);
  await program.parseAsync(["node", "ipuaro", ...args]);
  return { out, err, code };
}

const json = async (...args: string[]): Promise<Json> => {
  const r = await ipuaro(...args);
  expect(r.err).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.out);
};

describe("ipuaro analyze", () => {
  it("prints the analyses as the tool's JSON", async () => {
    const hot = await json("analyze", "hotspots", fx.root, "--json", "--limit", "3");
    expect(hot.hotspots.map((h: Json) => h.file).slice(0, 2)).toEqual([PRICE, ENGINE]);
    expect(hot.hotspots).toHaveLength(3);
    const risk = await json("analyze", "predict_change", fx.root, "--target", ENGINE, "--json");
    expect(risk).toMatchObject({ target: ENGINE, risk_level: "critical" });
    // The file where the project goes: that file, of the project it is in.
    expect(await json("analyze", "predict_change", path.join(fx.root, ENGINE), "--json")).toMatchObject({ target: ENGINE, risk_level: "critical" });
    const graph = await json("analyze", "dependency_graph", fx.root, "-t", PRICE, "--depth", "2", "--json");
    expect(graph.co_changed_with[0]).toMatchObject({ file: DISCOUNT, frequency: 0.71, coupling: 0.83 });
    const pulse = await json("analyze", "team_pulse", fx.root, "--timeframe", "7d", "--json");
    expect(pulse.trend).toBe("improving");
  });

  it("prints readable tables", async () => {
    const r = await ipuaro("analyze", "hotspots", fx.root, "--limit", "2");
    const lines = r.out.trim().split("\n");
    expect(lines[0]).toMatch(/^FILE\s+SCORE\s+LEVEL\s+EDITS\s+ERRORS\s+REWORK\s+COMPLEXITY\s+LAST EDIT$/);
    expect(lines[1]).toMatch(new RegExp(`^${PRICE.replace(/[./]/g, "\\$&")}\\s+0\\.\\d+\\s+high\\s+9\\s+6\\s+2\\s+1\\s+\\d{4}-\\d{2}-\\d{2}$`));
    expect(lines.at(-1)).toMatch(/^\d+ files changed in 30d$/);
    const graph = await ipuaro("analyze", "dependency_graph", fx.root, "--target", PRICE);
    expect(graph.out).toMatch(/CHANGES WITH\s+FREQUENCY\s+COUPLING\s+SHARED\s+LAST\n/);
    expect(graph.out).toMatch(new RegExp(`${DISCOUNT.replace(/[./]/g, "\\$&")}\\s+0\\.71\\s+0\\.83\\s+5`));
    // With --depth, the files further away that the totals count are listed too.
    const deep = await json("analyze", "dependency_graph", fx.root, "-t", PRICE, "--depth", "3", "--json");
    const further = [...(deep.transitive?.imports ?? []), ...(deep.transitive?.imported_by ?? [])] as Array<{ file: string; depth: number }>;
    const text = (await ipuaro("analyze", "dependency_graph", fx.root, "--target", PRICE, "--depth", "3")).out;
    expect(further.length).toBeGreaterThan(0);
    expect(text).toMatch(/FURTHER\s+DEPTH\s+FILE\n/);
    for (const f of further) expect(text).toMatch(new RegExp(`\\s${f.depth}\\s+${f.file.replace(/[./]/g, "\\$&")}\\n?`));
  });

  it("reports bad arguments with the seed's envelope and exit code 1", async () => {
    const r = await ipuaro("analyze", "hotspots", fx.root, "--timeframe", "1y", "--json");
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toMatchObject({ error: true, code: "SHADOW_ERR_INVALID_TIMEFRAME", details: { retryable: false } });
    const plain = await ipuaro("analyze", "heatmap", fx.root);
    expect(plain.code).toBe(1);
    expect(plain.err).toMatch(/^ipuaro: SHADOW_ERR_INVALID_QUERY: query "heatmap"; use one of hotspots, predict_change/);
    expect(plain.err).not.toContain("comes first");
    // The folder where the analysis goes: said so, with the command that was meant.
    const swapped = await ipuaro("analyze", fx.root);
    expect(swapped.code).toBe(1);
    expect(swapped.err).toContain(`the analysis comes first, then the folder: ipuaro analyze hotspots ${fx.root}`);
    // A query that needs a target says how to give one.
    const untargeted = await ipuaro("analyze", "dependency_graph", fx.root);
    expect(untargeted.code).toBe(1);
    expect(untargeted.err).toContain("needs target (a project file path)");
    expect(untargeted.err).toContain("give it with --target: ipuaro analyze dependency_graph --target src/index.ts");
  });
});

describe("ipuaro memory", () => {
  it("lists, searches and deletes facts and notes", async () => {
    const list = await json("memory", "list", fx.root, "--json");
    expect(list.memories.map((m: Json) => m.content)).toEqual(["Prices are stored as integer cents."]);
    expect(list.notes.map((n: Json) => [n.content, n.status])).toEqual([["Check the cents migration next time.", "active"]]);
    expect(list.total).toEqual({ memories: 1, notes: 1 });
    const table = await ipuaro("memory", "list", fx.root);
    expect(table.out).toMatch(/^ID\s+CATEGORY\s+UPDATED\s+CONTENT\nmemory:[0-9a-f]{12}\s+CONFIG_VALUES\s+\d{4}-\d{2}-\d{2}\s+Prices are stored as integer cents\./);
    expect(table.out).not.toContain("showing");
    // A limit the lists fit in leaves no footer; a bad one is the seed's INVALID_LIMIT.
    const cut = await ipuaro("memory", "list", fx.root, "--limit", "1");
    expect(cut.out).not.toContain("showing");
    const badLimit = await ipuaro("memory", "list", fx.root, "--limit", "0", "--json");
    expect(JSON.parse(badLimit.out).code).toBe("SHADOW_ERR_INVALID_LIMIT");
    const found = await json("memory", "search", "cents", fx.root, "--sources", "memory,decisions", "--json");
    expect(found.results.map((x: Json) => x.source).sort()).toEqual(["decision", "memory", "memory"]);
    const id = list.memories[0].id;
    expect(await json("memory", "delete", id, fx.root, "--json")).toEqual({ deleted: id });
    const again = await ipuaro("memory", "delete", id, fx.root, "--json");
    expect(again.code).toBe(1);
    expect(JSON.parse(again.out).code).toBe("SHADOW_ERR_MEMORY_NOT_FOUND");
    const bad = await ipuaro("memory", "search", "cents", fx.root, "--sources", "web", "--json");
    expect(JSON.parse(bad.out).code).toBe("SHADOW_ERR_INVALID_SOURCES");
  });
});

describe("ipuaro decisions", () => {
  it("lists decisions newest first, filtered by status", async () => {
    const all = await json("decisions", fx.root, "--json");
    expect(all.total).toBe(2);
    expect(all.decisions.map((d: Json) => d.title)).toEqual(["Replace the legacy engine", "Money as integer cents"]);
    const accepted = await json("decisions", fx.root, "--status", "accepted", "--json");
    expect(accepted.decisions).toEqual([expect.objectContaining({ id: 1, status: "accepted", tags: ["money"] })]);
    const table = await ipuaro("decisions", fx.root);
    expect(table.out).toMatch(/^ID\s+STATUS\s+DATE\s+TITLE\s+TAGS\n2\s+proposed\s+\d{4}-\d{2}-\d{2}\s+Replace the legacy engine/);
    const bad = await ipuaro("decisions", fx.root, "--status", "done", "--json");
    expect(JSON.parse(bad.out).code).toBe("SHADOW_ERR_INVALID_STATUS");
    expect((await ipuaro("decisions", fx.root, "--status", "deprecated")).out).toBe("no decisions match\n");
  });

  it("says when a project has no decisions at all, rather than that none match", async () => {
    const empty = makeTempDir("ipuaro-no-decisions-");
    try {
      writeTree(empty, { "package.json": '{ "name": "empty" }\n', "src/a.ts": "export const a = 1;\n" });
      const r = await ipuaro("decisions", empty);
      expect(r.err).toBe("");
      expect(r.out).toMatch(/^no decisions recorded yet: the agent records one \(decide\)/);
      expect(await json("decisions", empty, "--json")).toEqual({ decisions: [], total: 0 });
    } finally {
      removeDir(empty);
    }
  });

  it("shows one decision in full with --id", async () => {
    const one = await ipuaro("decisions", fx.root, "--id", "1");
    expect(one.code).toBe(0);
    expect(one.out).toMatch(/^#1 Money as integer cents {2}\[accepted, \d{4}-\d{2}-\d{2}\]\ntags: money\n/);
    expect(one.out).toContain("\ndecision:\n");
    const asJson = await json("decisions", fx.root, "--id", "#1", "--json");
    expect(asJson).toMatchObject({ id: 1, title: "Money as integer cents" });
    const missing = await ipuaro("decisions", fx.root, "--id", "99");
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("no decision 99");
    // With --json the error is the JSON object on stdout, as for the command's other errors.
    const missingJson = await ipuaro("decisions", fx.root, "--id", "99", "--json");
    expect(missingJson.code).toBe(1);
    expect(JSON.parse(missingJson.out)).toMatchObject({ error: true, code: "SHADOW_ERR_NO_DECISIONS", details: { id: "99" } });
    // Not a number at all is a wrong argument, not a missing decision.
    const notNumber = await ipuaro("decisions", fx.root, "--id", "abc", "--json");
    expect([notNumber.code, JSON.parse(notNumber.out).code]).toEqual([1, "SHADOW_ERR_INVALID_QUERY"]);
  });
});
