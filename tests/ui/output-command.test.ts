// /output (Ctrl+O) counts a command's output, not the lines ipuaro wrote above it: `seq 1 20000` through
// run_command was reported as "its last 5,000 of 20,003 lines", and the cut took the `$ command` header off.
import { afterEach, describe, expect, it } from "vitest";
import { KEYS } from "../helpers/headless-terminal.js";
import { stats, toolResult } from "./scripted-backend.js";
import { startUi, type UiHarness } from "./ui-harness.js";

let h: UiHarness | null = null;
afterEach(() => {
  h?.close();
  h = null;
});

describe("/output", () => {
  it("counts only the output's lines and keeps the command's header above the lines it shows", async () => {
    h = await startUi({ cols: 100, rows: 30 });
    const output = Array.from({ length: 20_000 }, (_, i) => String(i + 1)).join("\n");
    h.backend.turns.push(async function* () {
      yield { type: "tool-call", callId: "c1", name: "run_command", args: {}, title: "run_command seq 1 20000; sleep 20" };
      yield {
        type: "tool-result",
        result: toolResult("c1", "run_command", "run_command seq 1 20000; sleep 20", {
          display: {
            title: "x",
            summary: "exit code 0 · 20.0s",
            preview: ["… 19996 more lines", "19997", "19998", "19999", "20000"],
            details: `$ seq 1 20000; sleep 20\nexit code 0 in 20.0s\n${output}`,
            detailsHeaderLines: 2,
          },
        }),
      };
      yield { type: "finished", reason: "answer", text: "", stats: stats() };
    });
    h.t.type("count", KEYS.enter);
    await h.t.waitForText("[run_command seq 1 20000; sleep 20] exit code 0 · 20.0s");
    h.t.type("/output", KEYS.enter);
    await h.t.waitForText("(its last 5,000 of 20,000 lines):");
    const notice = h.app.transcript.entries.at(-1)!;
    expect(notice.kind).toBe("notice");
    const text = (notice as { text: string }).text.split("\n");
    // Title, fence, the two header lines, then the output's last 5,000 lines: 15001 … 20000.
    expect(text.slice(1, 5)).toEqual(["```", "$ seq 1 20000; sleep 20", "exit code 0 in 20.0s", "15001"]);
    expect(text.at(-2)).toBe("20000");
    expect(text.length).toBe(1 + 1 + 2 + 5000 + 1);
  });
});
