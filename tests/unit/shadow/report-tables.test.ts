// What `ipuaro memory list` prints goes to a terminal: text a model (or a file it read) wrote must not
// carry escape sequences or bells to it.
import { expect, it } from "vitest";
import type { MemoryEntry, NoteEntry } from "../../../src/main/shadow/memory-store.js";
import { memoryTable } from "../../../src/main/shadow/report-tables.js";

it("shows control characters in memories and notes escaped, never raw", () => {
  const memory: MemoryEntry = { id: "m1", category: "NAMING", content: "files \u001b[31mred\u001b[0m", tags: [], session_id: null, created_at: 0, updated_at: 0 };
  const note: NoteEntry = { id: "note:1", content: "ring \u0007 the bell", surface_condition: null, condition: { kind: "next_session" } as NoteEntry["condition"], status: "active", session_id: null, created_at: 0 };
  const out = memoryTable([memory], [note]);
  expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  expect(out).toContain("files \\x1b[31mred\\x1b[0m");
  expect(out).toContain("ring \\x07 the bell");
});

it("a risk warning is explained by the measure that raised it, never by a 'safe to change' beside it", async () => {
  const { riskExplanation } = await import("../../../src/main/shadow/session-memory.js");
  const low = { risk_level: "low" as const, recommendation: "LOW RISK: no past change to a.ts was followed by an error. Safe to change; run its own tests." };
  const high = { risk_level: "high" as const, recommendation: "HIGH RISK: 46% of past changes to a.ts were followed by errors" };
  expect(riskExplanation("high", "edited 20 times in 3 days", low)).toBe("edited 20 times in 3 days");
  expect(riskExplanation("high", "edited 20 times in 3 days", high)).toBe(high.recommendation);
  expect(riskExplanation("high", null, high)).toBe(high.recommendation);
});

it("fits a hotspots table into a narrow terminal by cutting long paths from the left, keeping their ends", async () => {
  const { formatAnalyze } = await import("../../../src/main/shadow/report-tables.js");
  const hotspot = (file: string, score: number) => ({
    file,
    score,
    level: "high",
    breakdown: { edit_frequency: 1, error_rate: 0, recent_changes: 1, frustration: 0, complexity: 0.5, change_x_complexity: 0.7 },
    stats: { total_edits: 12, errors_caused: 2, errors_in_file: 0, sessions_touched: 3, last_edit: "2026-11-29", avg_lines_changed: 4, human_fixes: 1, reverts: 0, git_reverts: 0 },
    explanation: "",
  });
  const result = { hotspots: [hotspot("packages/billing/src/invoices/generators/monthly-invoice-generator.ts", 0.81), hotspot("src/a.ts", 0.4)], timeframe: "30d", total_files_analyzed: 2 };
  const wide = formatAnalyze("hotspots", result);
  // Cells stop at 60 characters: a path keeps its end, where the file name is.
  expect(wide).toContain("\n…illing/src/invoices/generators/monthly-invoice-generator.ts  0.81");
  const narrow = formatAnalyze("hotspots", result, { width: 80 }).split("\n");
  for (const line of narrow) expect(line.length).toBeLessThanOrEqual(80);
  expect(narrow[1]).toMatch(/^…\S*-generator\.ts +0\.81 +high +12 +2 +1 +0\.5 +2026-11-29$/);
  expect(narrow[2]).toMatch(/^src\/a\.ts +0\.4 /);
  // Too narrow for every column even cut: the rows are cut at the width (a wrapped row read as another row).
  const tiny = formatAnalyze("hotspots", result, { width: 20 }).split("\n");
  for (const line of tiny.slice(0, 3)) {
    expect(line.length).toBeLessThanOrEqual(20);
    expect(line.endsWith("…")).toBe(true);
  }
  expect(tiny[0]).toMatch(/^FILE /);
});

it("fits a hotspots table to a chat's code block at 80 and 100 columns (69 and 89 for the text), closing up its gaps before cutting columns", async () => {
  const { formatAnalyze } = await import("../../../src/main/shadow/report-tables.js");
  const hotspot = (file: string) => ({
    file,
    score: 0.31,
    level: "medium",
    breakdown: { edit_frequency: 1, error_rate: 0, recent_changes: 1, frustration: 0, complexity: 0, change_x_complexity: 0 },
    stats: { total_edits: 1, errors_caused: 0, errors_in_file: 0, sessions_touched: 1, last_edit: "2026-11-30", avg_lines_changed: 4, human_fixes: 0, reverts: 1, git_reverts: 0 },
    explanation: "",
  });
  const result = { hotspots: [hotspot("tsconfig.json"), hotspot("packages/core/src/money/currency-conversion.ts")], timeframe: "30d", total_files_analyzed: 2 };
  for (const width of [69, 89]) {
    const lines = formatAnalyze("hotspots", result, { width }).split("\n");
    for (const line of lines) expect(line.length, `${width}: ${line}`).toBeLessThanOrEqual(width);
    // Every header whole, every row whole down to its last column.
    expect(lines[0]).toMatch(/^FILE +SCORE +LEVEL +EDITS +ERRORS +REWORK +COMPLEXITY +LAST EDIT$/);
    expect(lines[1]).toMatch(/^tsconfig\.json +0\.31 +medium +1 +0 +1 +0 +2026-11-30$/);
    expect(lines[2]).toMatch(/conversion\.ts +0\.31 .*2026-11-30$/);
  }
  // At 69 the two-space gaps cannot stay (FILE would have to go below 12): one space, and FILE has 14.
  const at69 = formatAnalyze("hotspots", result, { width: 69 }).split("\n");
  expect(at69[0]).toMatch(/^FILE {11}SCORE LEVEL  EDITS ERRORS REWORK COMPLEXITY LAST EDIT$/);
  expect(at69[2]).toMatch(/^…conversion\.ts 0\.31 /);
});
