// /analyze on real frames: its tables fit the chat at ordinary widths (a tester saw the LAST EDIT column
// wrap onto its own row at 80 and 100 columns), and its options are those of `ipuaro analyze` — one it
// does not know is named, not silently dropped.
import { afterEach, describe, expect, it } from "vitest";
import { formatAnalyze } from "../../src/main/shadow/report-tables.js";
import { KEYS } from "../helpers/headless-terminal.js";
import { startUi, type UiHarness } from "./ui-harness.js";

let h: UiHarness | null = null;
afterEach(() => {
  h?.close();
  h = null;
});

function hotspot(file: string, score: number, level: string, lastEdit: string) {
  return {
    file,
    score,
    level,
    breakdown: { edit_frequency: 1, error_rate: 0, recent_changes: 1, frustration: 0, complexity: 0, change_x_complexity: 0 },
    stats: { total_edits: 1, errors_caused: 0, errors_in_file: 0, sessions_touched: 1, last_edit: lastEdit, avg_lines_changed: 4, human_fixes: 0, reverts: 0, git_reverts: 0 },
    explanation: "",
  };
}

const HOTSPOTS = {
  hotspots: [
    hotspot("tsconfig.json", 0.31, "medium", "2026-11-30"),
    hotspot("packages/core/src/money.ts", 0.27, "medium", "2026-11-29"),
    hotspot("packages/billing/src/invoices/generators/monthly-invoice-generator.ts", 0.12, "low", "2026-11-28"),
  ],
  timeframe: "30d",
  total_files_analyzed: 3,
};

async function analyze(ui: UiHarness, line: string): Promise<void> {
  ui.t.type(line, KEYS.enter);
  await ui.t.waitFor(() => ui.app.input.editor.text === "", `${line} to be taken`);
}

describe("/analyze tables", () => {
  for (const cols of [80, 100]) {
    it(`fit the chat at ${cols} columns: each row of the table on one screen row`, async () => {
      h = await startUi({ cols, rows: 30 });
      h.backend.analyzeText = (_req, width) => formatAnalyze("hotspots", HOTSPOTS, width ? { width } : {});
      await analyze(h, "/analyze hotspots");
      await h.t.waitForText("3 files changed in 30d");
      const lines = h.t.lines();
      const row = lines.find((l) => l.includes("tsconfig.json"))!;
      expect(row).toMatch(/tsconfig\.json +0\.31 +medium +1 +0 +0 +0 +2026-11-30/);
      expect(lines.find((l) => l.includes("money.ts"))).toMatch(/0\.27 +medium +1 +0 +0 +0 +2026-11-29/);
      expect(lines.find((l) => l.includes("-generator.ts"))).toMatch(/0\.12 +low +1 +0 +0 +0 +2026-11-28/);
      expect(lines.find((l) => l.includes("FILE"))).toMatch(/FILE +SCORE +LEVEL +EDITS +ERRORS +REWORK +COMPLEXITY +LAST EDIT/);
      // No row of the table spilled onto a row of its own.
      for (const l of lines) expect(l).not.toMatch(/^\s*│\s+\S+\s*$/);
    });
  }

  it("a table that cannot fit a narrow chat is cut, not wrapped onto extra rows", async () => {
    h = await startUi({ cols: 50, rows: 30 });
    h.backend.analyzeText = (_req, width) => formatAnalyze("hotspots", HOTSPOTS, width ? { width } : {});
    await analyze(h, "/analyze hotspots");
    await h.t.waitForText("3 files changed in 30d");
    const lines = h.t.lines();
    const table = lines.slice(lines.findIndex((l) => l.includes("FILE")), lines.findIndex((l) => l.includes("3 files changed")));
    // The header and three rows, then the blank line before the total: nothing more.
    expect(table.filter((l) => /│ \S/.test(l))).toHaveLength(4);
  });
});

describe("/analyze options", () => {
  it("passes --limit, --timeframe, --depth and --target on, as `ipuaro analyze` takes them", async () => {
    h = await startUi({ cols: 100 });
    await analyze(h, "/analyze hotspots --limit 2 --timeframe=7d");
    await h.t.waitForText("/analyze hotspots --limit 2 --timeframe=7d");
    await analyze(h, "/analyze dependency_graph --target src/a.ts --depth 2");
    await h.t.waitFor(() => h!.backend.analyzed.length === 2, "the second request");
    await analyze(h, "/analyze knowledge_search retry policy --limit 5");
    await h.t.waitFor(() => h!.backend.analyzed.length === 3, "the third request");
    expect(h.backend.analyzed.map(([r]) => r)).toEqual([
      { query: "hotspots", limit: "2", timeframe: "7d" },
      { query: "dependency_graph", target: "src/a.ts", depth: "2" },
      { query: "knowledge_search", target: "retry policy", limit: "5" },
    ]);
  });

  it("names an option it does not understand instead of ignoring it, and asks nothing of the backend", async () => {
    h = await startUi({ cols: 100 });
    await analyze(h, "/analyze hotspots --top 2");
    await h.t.waitForText("/analyze: --top is not an option it understands; it takes --target P");
    await analyze(h, "/analyze hotspots --limit");
    await h.t.waitForText("/analyze: --limit needs a value");
    expect(h.backend.analyzed).toEqual([]);
  });
});
