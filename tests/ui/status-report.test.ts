// /status's Tools row reads as English for any count (it said "1 edits applied" after one edit).
import { describe, expect, it } from "vitest";
import { toolsRow } from "../../src/ui/runtime/status-report.js";

describe("/status Tools row", () => {
  it("uses the singular for one call, one edit and one compaction", () => {
    expect(toolsRow({ toolCalls: 1, editsApplied: 1, editsRejected: 0, undos: 0, compactions: 1 })).toBe(
      "1 call, 1 edit applied, 0 rejected, 0 undone, 1 compaction",
    );
  });

  it("uses the plural otherwise, with thousands separated", () => {
    expect(toolsRow({ toolCalls: 1200, editsApplied: 0, editsRejected: 2, undos: 1, compactions: 0 })).toBe(
      "1,200 calls, 0 edits applied, 2 rejected, 1 undone, 0 compactions",
    );
  });
});
