// /status's rows: the Tools row reads as English for any count (it said "1 edits applied" after one edit);
// the Context row says an estimate and an unknown window; the Session row tells the turns of the whole
// session from the conversation as it is now.
import { describe, expect, it } from "vitest";
import { contextRow, indexRow, millisText, secondsText, sessionRow, toolsRow } from "../../src/ui/runtime/status-report.js";

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

describe("/status Context and Session rows", () => {
  it("says when the context figure is an estimate, and does not divide by a window not known yet", () => {
    expect(contextRow({ tokensUsed: 4900, tokensLimit: 32768, loadedFiles: ["a.ts"], measuredMessages: 6 })).toBe("4,900 / 32,768 tokens (15%), 1 file loaded");
    expect(contextRow({ tokensUsed: 4900, tokensLimit: 32768, loadedFiles: [] })).toBe("4,900 / 32,768 tokens (15%, estimated), 0 files loaded");
    expect(contextRow({ tokensUsed: 4900, tokensLimit: 0, loadedFiles: [] })).toBe("4,900 tokens (estimated) of a window not known yet (Ollama has not answered), 0 files loaded");
  });

  it("counts the conversation as it is now beside the turns of the whole session (a rewind keeps those)", () => {
    const m = (role: "user" | "assistant" | "tool", note?: "rewind") => ({ role, content: "x", timestamp: 0, ...(note ? { note } : {}) });
    const messages = [m("user"), m("assistant"), m("user"), m("assistant"), m("tool"), m("user", "rewind")];
    expect(sessionRow("s1", { turns: 18, totalTokens: 12345, totalTime: 40_000 }, messages)).toBe(
      "s1: 2 messages of yours in the conversation now; 18 turns in all, 12,345 tokens, 40.0 s",
    );
  });
});

describe("/status figures at any size", () => {
  it("gives a small index in bytes or KiB, not 0.0 MB, and counts one file as one", () => {
    expect(indexRow(19, 39_100)).toBe("19 files, 38 KiB in Redis");
    expect(indexRow(3, 5_000)).toBe("3 files, 4.9 KiB in Redis");
    expect(indexRow(1, 900)).toBe("1 file, 900 B in Redis");
    expect(indexRow(12_000, 120 * 1024 * 1024)).toBe("12,000 files, 120 MiB in Redis");
  });

  it("gives a fast ping and a short or long session time with the digits they need", () => {
    expect(millisText(0.04)).toBe("0.04 ms");
    expect(millisText(3.25)).toBe("3.3 ms");
    expect(secondsText(0)).toBe("0 s");
    expect(secondsText(350)).toBe("0.35 s");
    expect(secondsText(40_000)).toBe("40.0 s");
    expect(secondsText(725_000)).toBe("12 min 5 s");
    expect(secondsText(7_380_000)).toBe("2 h 3 min");
  });
});
