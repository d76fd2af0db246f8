// /output (Ctrl+O) counts a command's output, not the lines ipuaro wrote above it: `seq 1 20000` through
// run_command was reported as "its last 5,000 of 20,003 lines", and the cut took the `$ command` header off.
import { outputPreview } from "../../src/main/tools/tool-types.js";
import { afterEach, describe, expect, it } from "vitest";
import { KEYS } from "../helpers/headless-terminal.js";
import { gate, stats, toolResult } from "./scripted-backend.js";
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

describe("a running command's output", () => {
  it("shows its last lines under the tool line as they come, Ctrl+O shows it so far, and the result replaces it", async () => {
    h = await startUi({ cols: 100, rows: 30 });
    const step = [gate(), gate()];
    h.backend.turns.push(async function* ({ ui }) {
      yield { type: "tool-call", callId: "c1", name: "run_command", args: {}, title: "run_command npm run build" };
      ui.commandOutput?.("> build\n\x1b[32mcompiling 1/3\x1b[0m\rcompiling 2/3\r");
      await step[0]!.wait;
      ui.commandOutput?.("compiling 3/3\nwarning: Привет 👋 unused\n");
      await step[1]!.wait;
      yield { type: "tool-result", result: toolResult("c1", "run_command", "run_command npm run build", { display: { title: "x", summary: "exit code 0 · 2.0s", preview: ["done"] } }) };
      yield { type: "finished", reason: "answer", text: "", stats: stats() };
    });
    h.t.type("build it", KEYS.enter);
    await h.t.waitForText("[run_command npm run build] …");
    // A line redrawn with \r shows its last state; colours are gone.
    await h.t.waitForText("│ compiling 2/3");
    expect(h.t.text()).toContain("│ > build");
    // The wait is the command's, not the model's.
    expect(h.t.text()).toContain("⟳ running…");
    expect(h.t.text()).not.toContain("thinking");
    step[0]!.open();
    await h.t.waitForText("│ warning: Привет 👋 unused");
    expect(h.t.find("│ compiling 2/3")).toBeNull();
    h.t.type(KEYS.ctrlO);
    await h.t.waitForText("(still running)");
    await h.t.waitForText("compiling 3/3");
    step[1]!.open();
    await h.t.waitForText("[run_command npm run build] exit code 0 · 2.0s");
    await h.t.waitForText("│ done");
    const last = h.app.transcript.entries.findLast((e) => e.kind === "agent")!;
    expect(JSON.stringify(last)).not.toContain("Привет");
  });
});

describe("a command stopped while it runs", () => {
  it("keeps the output shown so far under its call, and Ctrl+O shows it marked as cancelled", async () => {
    h = await startUi({ cols: 100, rows: 30 });
    const cancelled = "cancelled by the user; all its processes were stopped";
    h.backend.turns.push(async function* ({ ui, signal }) {
      yield { type: "tool-call", callId: "c1", name: "run_command", args: {}, title: "run_command for i in 1 2 3 4 5 6; do echo tick $i; sleep 1; done" };
      for (let i = 1; i <= 6; i++) ui.commandOutput?.(`tick ${i}\n`);
      await new Promise<void>((r) => signal.addEventListener("abort", () => r(), { once: true }));
      // What the orchestrator reports for a command Esc stopped: an error, with no output of its own to show.
      yield { type: "tool-result", result: toolResult("c1", "run_command", "x", { success: false, error: `${cancelled}\nlast output:\ntick 6`, display: { title: "x", summary: cancelled } }) };
      yield { type: "finished", reason: "aborted", text: "", stats: stats() };
    });
    h.t.type("tick", KEYS.enter);
    await h.t.waitForText("│ tick 6");
    h.t.type(KEYS.escape);
    await h.t.waitForText("✗ cancelled by the user;");
    await h.t.settle();
    // The ticks it had shown stay, as a finished command's tail does.
    expect(h.t.text()).toContain("│ … 2 more lines (Ctrl+O shows all)");
    for (const n of [3, 4, 5, 6]) expect(h.t.text()).toContain(`│ tick ${n}`);
    h.t.type(KEYS.ctrlO);
    await h.t.waitForText("the output until then");
    const notice = h.app.transcript.entries.at(-1) as { kind: string; text: string };
    expect(notice.kind).toBe("notice");
    expect(notice.text).toContain(`✗ ${cancelled}: the output until then\ntick 1\ntick 2\ntick 3\ntick 4\ntick 5\ntick 6`);
    expect(notice.text).not.toContain("No command or test output");
  });

  it("keeps it too when the turn ends before the call's result came", async () => {
    h = await startUi({ cols: 100, rows: 30 });
    h.backend.turns.push(async function* ({ ui }) {
      yield { type: "tool-call", callId: "c1", name: "run_command", args: {}, title: "run_command make" };
      ui.commandOutput?.("building a\nbuilding b\n");
      yield { type: "finished", reason: "error", text: "", stats: stats() };
    });
    h.t.type("build", KEYS.enter);
    await h.t.waitForText("[run_command make] ✗");
    await h.t.waitForText("│ building b");
    h.t.type(KEYS.ctrlO);
    await h.t.waitForText("✗ stopped with the turn: the output until then");
  });
});

describe("the line over a command's last lines", () => {
  it("says '1 more line', not '1 more lines'", async () => {
    h = await startUi({ cols: 100, rows: 30 });
    h.backend.turns.push(async function* () {
      yield { type: "tool-call", callId: "c1", name: "run_command", args: {}, title: "run_command seq 5" };
      yield {
        type: "tool-result",
        result: toolResult("c1", "run_command", "x", { display: { title: "x", summary: "exit code 0 · 0.1s", preview: outputPreview("1\n2\n3\n4\n5"), details: "$ seq 5\n1\n2\n3\n4\n5", detailsHeaderLines: 1 } }),
      };
      yield { type: "finished", reason: "answer", text: "", stats: stats() };
    });
    h.t.type("count", KEYS.enter);
    await h.t.waitForText("│ … 1 more line (Ctrl+O shows all)");
  });
});
