// `ipuaro run`'s live command output: whole lines, cleaned, under the call's line.
import { describe, expect, it } from "vitest";
import { LiveOutputLines } from "../../../src/main/cli/live-output.js";

describe("LiveOutputLines", () => {
  it("writes whole lines as they complete, cleaned of colours and redraws, and the last one on flush", () => {
    const lines: string[] = [];
    const live = new LiveOutputLines((l) => lines.push(l));
    live.push("> bui");
    expect(lines).toEqual([]);
    live.push("ld\n\x1b[32mcompiling 1/3\x1b[0m\rcompiling 3/3\n\n");
    expect(lines).toEqual(["  │ > build", "  │ compiling 3/3"]);
    live.push("Привет 👋 no line break");
    live.flush();
    expect(lines.at(-1)).toBe("  │ Привет 👋 no line break");
    live.flush();
    expect(lines).toHaveLength(3);
  });

  it("keeps only the end of a line that never ends", () => {
    const lines: string[] = [];
    const live = new LiveOutputLines((l) => lines.push(l));
    for (let i = 0; i < 200; i++) live.push(`${"=".repeat(1000)}\r`);
    live.push("100%\n");
    expect(lines).toEqual(["  │ 100%"]);
  });
});
