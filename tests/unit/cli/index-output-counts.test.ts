// Counts in what `ipuaro index` (and --watch) prints read "1 file", not "1 files".
import { describe, expect, it } from "vitest";
import type { IndexStats } from "../../../src/pipeline/index-pipeline.js";
import { summaryText } from "../../../src/main/cli/index-report.js";
import { formatWatchEvent } from "../../../src/main/cli/watch-log.js";

function stats(files: number): IndexStats {
  return {
    files,
    parsed: files,
    unchanged: 0,
    removed: 0,
    bytes: 10,
    skipped: { binary: 0, nonUtf8: 0, ignored: 0, unsupported: 0, errors: 0 },
    symlinks: 0,
    parseErrors: 0,
    parseErrorPaths: [],
    nonUtf8Paths: [],
    schemaReset: false,
    graphRebuilt: true,
    stages: { walk: 0, readHash: 0, parse: 0, write: 0, graph: 0 },
    totalSeconds: 0.5,
    errors: [],
  };
}

describe("index output counts", () => {
  it("summary: 1 file, 0 files, 2 files", () => {
    expect(summaryText("app", stats(1)).split("\n")[0]).toBe("indexed 1 file of app in 0.50s");
    expect(summaryText("app", stats(0)).split("\n")[0]).toBe("indexed 0 files of app in 0.50s");
    expect(summaryText("app", stats(2)).split("\n")[0]).toBe("indexed 2 files of app in 0.50s");
  });

  it("--watch lines: a batch of one file, watching one file, one file reloaded", () => {
    const batch = { type: "batch", files: 1, checked: 1, parsed: 1, removed: 0, resolved: 0, graphRebuilt: true, ms: 3, workMs: 2, writeMs: 1, stages: {} } as unknown as Parameters<typeof formatWatchEvent>[0];
    expect(formatWatchEvent(batch)).toBe("batch: 1 file changed, 1 parsed, 0 removed, graph rebuilt in 3 ms");
    expect(formatWatchEvent({ type: "ready", files: 1, graphFiles: 1, ms: 4 })).toBe("watching 1 indexed file (loaded in 4 ms); Ctrl+C to stop");
    expect(formatWatchEvent({ type: "ready", files: 3, graphFiles: 3, ms: 4 })).toBe("watching 3 indexed files (loaded in 4 ms); Ctrl+C to stop");
    expect(formatWatchEvent({ type: "reloaded", files: 1, rechecked: 0, ms: 5 })).toBe("another index run rewrote the index: reloaded 1 file in 5 ms");
  });

  it("--watch lines: the index dropped under the watcher, and built again", () => {
    expect(formatWatchEvent({ type: "dropped", files: 1 })).toBe("the index of this project was dropped (ipuaro index --drop, or Redis lost its data): indexing the project again (it held 1 file)…");
    expect(formatWatchEvent({ type: "reloaded", files: 3, rechecked: 0, ms: 5, rebuilt: true })).toBe("the index is built again: 3 files; watching");
  });
});
