// What `ipuaro rewind` prints: every file with what happened to it, then one line with the counts, so a
// long list still says at a glance what was restored and what was left.
import { describe, expect, it } from "vitest";
import type { RewindResult } from "../../../src/main/checkpoints/index.js";
import { pointStatsText, rewindResultText } from "../../../src/main/cli/commands/rewind-command.js";

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
  it("says once that nothing changed when all was left in conflict, and lists a long list only in part", () => {
    const lone = rewindResultText(result({ conflicts: ["c.ts"] })).split("\n");
    expect(lone.filter((l) => /no file/i.test(l))).toEqual(["No file changed; 1 conflict left as it is."]);
    const many = Array.from({ length: 5000 }, (_, i) => ({ path: `gen/f${i}.log`, action: "delete" as const, insertions: 0, deletions: 1 }));
    const lines = rewindResultText(result({ changes: many, deleted: many.map((c) => c.path) })).split("\n");
    expect(lines.length).toBeLessThan(60);
    expect(lines).toContain("  … and 4,950 more (--json lists every one)");
    expect(lines.at(-1)).toBe("Files 5000 deleted.");
  });


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

  it("names the folders a rewind removed once the files created in them were deleted", () => {
    const text = rewindResultText(
      result({
        deleted: ["src/new/deep/x.ts", "lib/gen/y.ts"],
        changes: [
          { path: "lib/gen/y.ts", action: "delete", insertions: 0, deletions: 1 },
          { path: "src/new/deep/x.ts", action: "delete", insertions: 0, deletions: 1 },
        ],
        removedFolders: ["lib/gen", "src/new", "src/new/deep", "src/new/deep/more"],
      }),
    );
    expect(text.split("\n").slice(0, 4)).toEqual([
      "deleted lib/gen/y.ts (+0 −1)",
      "deleted src/new/deep/x.ts (+0 −1)",
      "removed empty folder lib/gen/ (the files created there were deleted)",
      "removed empty folder src/new/ and the 2 inside it (the files created there were deleted)",
    ]);
  });

  it("a point's stats count the files it cannot restore as changes, never as 'no code changes'", () => {
    const p = { hasCheckpoint: true, files: 0, unrestorable: 0, insertions: 0, deletions: 0 };
    expect(pointStatsText(p)).toBe("no code changes");
    expect(pointStatsText({ ...p, files: 1, unrestorable: 1 })).toBe("1 file it cannot restore");
    expect(pointStatsText({ ...p, files: 3, unrestorable: 1, insertions: 2, deletions: 1 })).toBe("3 files +2 −1, 1 it cannot restore");
    expect(pointStatsText({ ...p, files: 2, insertions: 2, deletions: 2 })).toBe("2 files +2 −2");
  });

  it("a dry run says what would be; nothing to do adds no count line", () => {
    const dry = rewindResultText(result({ dryRun: true, conflicts: ["c.ts", "d.ts"] }));
    expect(dry.split("\n").at(-1)).toBe("No file would change; 2 conflicts left as they are.");
    expect(rewindResultText(result({}))).toBe("The files already are as they were: no code changes.");
  });
});
