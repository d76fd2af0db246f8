// What the chat says after /compact and after an automatic compression: the "Context a% → b%" line only
// for a compaction that was applied with the model's summary. A tester saw "Context 14% → 15% (2 messages
// summarised)" followed by a warning that the summary had failed.
import { afterEach, describe, expect, it } from "vitest";
import type { CompactionRun } from "../../src/main/context/compression/compact-conversation.js";
import { KEYS } from "../helpers/headless-terminal.js";
import { stats } from "./scripted-backend.js";
import { startUi, type UiHarness } from "./ui-harness.js";

let h: UiHarness | null = null;
afterEach(() => {
  h?.close();
  h = null;
});

function report(over: Partial<CompactionRun>): CompactionRun {
  return {
    tokensBefore: 4600,
    tokensAfter: 2300,
    tokensLimit: 32768,
    percentBefore: 14,
    percentAfter: 7,
    summarisedMessages: 2,
    stubbedResults: 0,
    droppedFiles: [],
    loadedFiles: [],
    method: "llm-summary",
    trigger: "manual",
    ...over,
  };
}

async function compact(ui: UiHarness): Promise<void> {
  ui.t.type("/compact", KEYS.enter);
  await ui.t.waitFor(() => ui.app.input.editor.text === "", "/compact to be taken");
}

describe("compaction notices", () => {
  it("/compact that would not shrink the context says nothing was compacted, not a success line", async () => {
    h = await startUi({ cols: 100 });
    h.backend.compactReport = report({ tokensAfter: 4900, percentAfter: 15, skipped: "no-gain" });
    await compact(h);
    await h.t.waitForText("Nothing to compact: the conversation is already small");
    await h.t.waitForText("(14% → 15%)");
    expect(h.t.text()).not.toContain("Context 14% → 15%");
    expect(h.t.text()).not.toContain("summarised");
  });

  it("/compact whose summary failed and whose outline would not shrink it says both, in one notice", async () => {
    h = await startUi({ cols: 100, rows: 30 });
    h.backend.compactReport = report({ tokensAfter: 4900, percentAfter: 15, skipped: "no-gain", method: "truncate", summaryError: "model runner crashed" });
    await compact(h);
    await h.t.waitForText("Nothing to compact");
    await h.t.waitFor(() => h!.t.text().replace(/\s+/g, " ").includes("the model could not write the summary (model runner crashed)"), "the failure");
    expect(h.t.text()).not.toContain("Context 14%");
    expect(h.t.text()).not.toContain("a plain cut was used");
  });

  it("/compact applied without the model's summary says so plainly instead of the success line", async () => {
    h = await startUi({ cols: 100, rows: 30 });
    h.backend.compactReport = report({ method: "truncate", summaryError: "model runner crashed", summarisedMessages: 6, percentBefore: 60, percentAfter: 20 });
    await compact(h);
    await h.t.waitFor(() => /Context 60% → 20%, compacted without a summary/.test(h!.t.text()), "the fallback notice");
    expect(h.t.text()).not.toContain("(6 messages summarised)");
    await h.t.waitFor(() => h!.t.text().replace(/\s+/g, " ").includes("6 messages were replaced by a plain outline"), "what replaced them");
  });

  it("/compact that worked keeps the plain line", async () => {
    h = await startUi({ cols: 100 });
    h.backend.compactReport = report({});
    await compact(h);
    await h.t.waitForText("Context 14% → 7% (2 messages summarised).");
  });

  it("an automatic compression without the model's summary says so in the turn", async () => {
    h = await startUi({ cols: 100, rows: 30 });
    h.backend.turns.push(async function* () {
      yield { type: "compacted", report: report({ trigger: "auto", method: "truncate", summaryError: "timeout", percentBefore: 82, percentAfter: 40 }) };
      yield { type: "finished", reason: "answer", text: "ok", stats: stats() };
    });
    h.t.type("вопрос", KEYS.enter);
    await h.t.waitForText("context 82% → 40%, compressed without a summary");
    expect(h.t.text()).not.toContain("(compressed: 2 messages summarised)");
  });
});
