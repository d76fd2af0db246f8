import { describe, expect, it } from "vitest";
import { formatWatchEvent } from "../../../src/main/cli/watch-log.js";

describe("ipuaro index --watch log lines", () => {
  it("quote a file name with a line break, so one event stays one line", () => {
    const line = formatWatchEvent({ type: "created", path: "src/two\nlines.ts", hash: "a", previousHash: null, kind: "text", origin: "external", ms: 3, latencyMs: 3 });
    expect(line).toBe('created "src/two\\nlines.ts" (3 ms)');
    expect(formatWatchEvent({ type: "updated", path: "src/a b.ts", hash: "a", previousHash: "b", kind: "text", origin: "ipuaro", ms: 2, latencyMs: 2 })).toBe("updated src/a b.ts (2 ms, by ipuaro)");
  });
});
