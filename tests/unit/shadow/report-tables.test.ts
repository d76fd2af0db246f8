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
