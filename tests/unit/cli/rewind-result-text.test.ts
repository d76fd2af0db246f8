// What `ipuaro rewind` prints: every file with what happened to it, then one line with the counts, so a
// long list still says at a glance what was restored and what was left.
import { describe, expect, it } from "vitest";
import type { RewindResult } from "../../../src/main/checkpoints/index.js";
import { rewindResultText } from "../../../src/main/cli/commands/rewind-command.js";

function result(patch: Partial<RewindResult>): RewindResult {
  return {
    point: { n: 2, entryId: "e2", message: "Rename both things", at: 0, hasCheckpoint: true },
    mode: "code",
    dryRun: false,
    draft: null,
    restored: [],
    deleted: [],
    conflicts: [],
    skipped: [],
    changes: [],
    notes: [],
    git: null,
    warnings: [],
    ...patch,
  };
}

describe("rewind result text", () => {
  it("ends with the counts of what was restored, recreated, deleted, left in conflict and not restored", () => {
    const text = rewindResultText(
      result({
        restored: ["a.ts", "b.ts"],
        deleted: ["gen.ts"],
        conflicts: ["c.ts"],
        skipped: [{ path: "big.bin", reason: "too_large" }],
        changes: [
          { path: "a.ts", action: "restore", insertions: 1, deletions: 1 },
          { path: "b.ts", action: "create", insertions: 3, deletions: 0 },
          { path: "gen.ts", action: "delete", insertions: 0, deletions: 2 },
        ],
      }),
    );
    const lines = text.split("\n");
    expect(lines).toContain("restored a.ts (+1 −1)");
    expect(lines).toContain("not restored: big.bin: larger than checkpoints.maxFileBytes when the checkpoint was made, so it was not backed up");
    expect(lines.at(-1)).toBe("Files 1 restored, 1 recreated, 1 deleted; 1 conflict left as it is; 1 not restored.");
  });

  it("a dry run says what would be; nothing to do adds no count line", () => {
    const dry = rewindResultText(result({ dryRun: true, conflicts: ["c.ts", "d.ts"] }));
    expect(dry.split("\n").at(-1)).toBe("No file would change; 2 conflicts left as they are.");
    expect(rewindResultText(result({}))).toBe("The files already are as they were: no code changes.");
  });
});
