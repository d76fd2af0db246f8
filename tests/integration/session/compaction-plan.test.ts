// The compressor's choices on hand-made histories (no model, no Redis): what is summarised, what is
// stubbed, what stays.
import { describe, expect, it } from "vitest";
import { countTokens, SessionHistory } from "./session-history.js";
import { compactConversation, type Summariser } from "../../../src/main/context/compression/compact-conversation.js";
import { modelView, toLlmMessages } from "../../../src/main/session/session-tree.js";
import type { SessionEntry } from "../../../src/main/session/session-types.js";



function summariser(text = "## Goal\nthe goal"): Summariser & { calls: Array<{ transcript: string; focus?: string }> } {
  const calls: Array<{ transcript: string; focus?: string }> = [];
  const fn = (async (input) => {
    calls.push(input);
    return { text, method: "llm-summary" as const };
  }) as Summariser & { calls: typeof calls };
  fn.calls = calls;
  return fn;
}

describe("compactConversation", () => {
  it("summarises before the last user message, keeps results of the last 5 messages and of files they mention", async () => {
    const h = new SessionHistory();
    h.user("look at a.ts");
    h.read("a.ts");
    h.answer("a.ts is fine");
    h.user("now fix b.ts and c.ts, check d.ts");
    h.read("b.ts"); // outside the last 5, mentioned in them → kept
    h.read("c.ts"); // outside the last 5, not mentioned → stub
    h.read("d.ts"); // its result is the first of the last 5 messages
    h.read("e.ts", 20, "b.ts calls into e.ts. ");
    h.read("f.ts");
    const summarise = summariser();
    const result = (await compactConversation({ path: h.entries, countTokens, tokensLimit: 100_000, summarise, trigger: "manual", focus: "the b.ts fix" }))!;
    expect(summarise.calls).toHaveLength(1);
    expect(summarise.calls[0]!.focus).toBe("the b.ts fix");
    expect(summarise.calls[0]!.transcript).toContain("User: look at a.ts");
    expect(result.record.summarisedUntil).toBe("e4"); // "a.ts is fine"
    expect(result.record.summary).toContain("## Goal\nthe goal");
    expect(result.record.summary).toContain("Files touched (from the tool log): a.ts (read)");
    const text = result.history.map((m) => m.content).join("\n");
    expect(text).toContain("now fix b.ts and c.ts, check d.ts");
    expect(text).toContain("code of b.ts");
    expect(text).not.toContain("code of c.ts");
    expect(text).toContain("[compressed: get_lines c.ts → 20 lines; call the tool again if you need it]");
    expect(text).toContain("code of d.ts");
    expect(text).toContain("code of f.ts");
    expect(text).not.toContain("code of a.ts");
    expect(result.report).toMatchObject({ summarisedMessages: 4, stubbedResults: 1, droppedFiles: ["a.ts", "c.ts"], loadedFiles: ["b.ts", "d.ts", "e.ts", "f.ts"] });
    // The record reproduces exactly this view from the untouched entries.
    const marker: SessionEntry = { kind: "compaction", id: "c1", parentId: h.entries.at(-1)!.id, timestamp: 99, compaction: result.record };
    expect(toLlmMessages(modelView([...h.entries, marker]))).toEqual(result.history);
  });

  it("goes further when the result would still be too big: stubs every older result, then trims the newest", async () => {
    const h = new SessionHistory();
    h.user("read everything");
    h.read("a.ts", 200);
    h.read("b.ts", 200);
    h.read("c.ts", 400);
    const result = (await compactConversation({ path: h.entries, countTokens, tokensLimit: 8000, summarise: summariser(), trigger: "auto" }))!;
    const text = result.history.map((m) => m.content).join("\n");
    // Nothing before the last user message: no summary; the newest round is what the model waits to read.
    expect(result.record.summary).toBe("");
    expect(text).toContain("[compressed: get_lines a.ts");
    expect(text).toContain("[compressed: get_lines b.ts");
    expect(text).toContain("lines left out to save context");
    expect(text).toContain("c_ts_0 = 0");
    expect(text).toContain("c_ts_399 = 399");
    expect(text).not.toContain("c_ts_200 = 200");
    expect(result.report.tokensAfter).toBeLessThan(result.report.tokensBefore);
    expect(result.history[0]!.content).toBe("read everything");
    // The last assistant message and its calls are untouched.
    expect(result.history.at(-2)!.content).toBe('<tool_call name="get_lines"><path>c.ts</path></tool_call>');
  });

  it("returns null when there is nothing left to shrink, and keeps an earlier summary without asking the model again", async () => {
    const h = new SessionHistory();
    h.user("q1");
    h.answer("a1");
    h.user("q2");
    const summarise = summariser("first summary");
    const first = (await compactConversation({ path: h.entries, countTokens, tokensLimit: 100_000, summarise, trigger: "auto" }))!;
    const path: SessionEntry[] = [...h.entries, { kind: "compaction", id: "c1", parentId: "e3", timestamp: 9, compaction: first.record }];
    expect(await compactConversation({ path, countTokens, tokensLimit: 100_000, summarise, trigger: "auto" })).toBeNull();
    expect(summarise.calls).toHaveLength(1);
  });

  it("falls back to a summary built from the messages when the model gives none", async () => {
    const h = new SessionHistory();
    h.user("rename Money to Cash");
    h.read("money.ts");
    h.answer("Done: Money is now Cash in money.ts.");
    h.user("and the tests?");
    const result = (await compactConversation({ path: h.entries, countTokens, tokensLimit: 100_000, summarise: async () => null, trigger: "auto" }))!;
    expect(result.record.method).toBe("truncate");
    expect(result.record.summary).toContain("## Goal\n- rename Money to Cash");
    expect(result.record.summary).toContain("## Files touched\n- money.ts (read)");
    expect(result.record.summary).toContain("Last answer: Done: Money is now Cash in money.ts.");
    expect(result.record.summary).toContain("## Open tasks");
  });
});
