// A long session compacts more than once. The second compaction sees the first one's summary, not the
// messages it replaced: the goal, decisions and files touched before it must survive into the new one.
import { describe, expect, it } from "vitest";
import { countTokens, SessionHistory } from "./session-history.js";
import { compactConversation, type Summariser } from "../../../src/main/context/compression/compact-conversation.js";
import { buildTranscript, filesTouchedInSummary, filesTouchedSection, mergeTouched } from "../../../src/main/context/compression/conversation-summary.js";



function recordingSummariser(text: string): Summariser & { transcripts: string[] } {
  const transcripts: string[] = [];
  const fn = (async (input) => {
    transcripts.push(input.transcript);
    return { text, method: "llm-summary" as const };
  }) as Summariser & { transcripts: string[] };
  fn.transcripts = transcripts;
  return fn;
}

async function twoCompactions(tokensLimit: number) {
  const h = new SessionHistory();
  h.user("Goal: rename Money to Cash across the repo");
  h.call("get_lines", "src/money.ts");
  h.call("edit_lines", "src/money.ts");
  h.answer("Decided: keep a deprecated Money alias in src/money.ts.");
  h.user("next, the invoices");
  const first = (await compactConversation({ path: h.entries, countTokens, tokensLimit, summarise: recordingSummariser("## Goal\nrename Money to Cash\n## Decisions\nkeep a deprecated Money alias"), trigger: "auto" }))!;
  h.compaction(first.record);
  for (let i = 0; i < 12; i++) {
    h.call("get_lines", `src/invoice-${i}.ts`, 60);
    h.answer(`invoice-${i} uses Money in ${"several places, ".repeat(20)}`);
  }
  h.user("now the tests");
  const second = recordingSummariser("## Goal\ninvoices");
  const result = (await compactConversation({ path: h.entries, countTokens, tokensLimit, summarise: second, trigger: "auto" }))!;
  return { first, second, result };
}

describe("a second compaction", () => {
  it("still lists the files touched before the first one, edited ones as edited", async () => {
    const { first, result } = await twoCompactions(100_000);
    expect(first.record.summary).toContain("Files touched (from the tool log): src/money.ts (edited)");
    const line = result.record.summary.split("\n").find((l) => l.startsWith("Files touched (from the tool log): "))!;
    expect(line).toContain("src/money.ts (edited)");
    expect(line).toContain("src/invoice-11.ts (read)");
    expect(line.indexOf("src/money.ts")).toBeLessThan(line.indexOf("src/invoice-0.ts"));
  });

  it("gives the model the earlier summary even when the transcript has to be cut", async () => {
    // A small window: the transcript share cannot hold all twelve rounds.
    const { second, result } = await twoCompactions(3000);
    const transcript = second.transcripts[0]!;
    expect(transcript).toContain("left out");
    expect(transcript).toContain("keep a deprecated Money alias");
    expect(transcript.indexOf("Earlier summary:")).toBeLessThan(transcript.indexOf("left out"));
    expect(result.record.summary).toContain("src/money.ts (edited)");
  });

  it("without the model, keeps the earlier summary's text and one merged file list", async () => {
    const h = new SessionHistory();
    h.user("Goal: rename Money to Cash");
    h.call("edit_lines", "src/money.ts");
    h.answer("done with money.ts");
    h.user("invoices next");
    const first = (await compactConversation({ path: h.entries, countTokens, tokensLimit: 100_000, summarise: async () => null, trigger: "auto" }))!;
    h.compaction(first.record);
    h.call("get_lines", "src/invoice.ts");
    h.answer("invoice.ts read");
    h.user("tests next");
    const second = (await compactConversation({ path: h.entries, countTokens, tokensLimit: 100_000, summarise: async () => null, trigger: "auto" }))!;
    const summary = second.record.summary;
    expect(summary).toContain("rename Money to Cash");
    expect(summary.match(/^Files touched \(from the tool log\)/gm)).toHaveLength(1);
    expect(summary).toContain("Files touched (from the tool log): src/money.ts (edited), src/invoice.ts (read)");
  });
});

describe("the tool log of a summary", () => {
  it("names a created file as created and a deleted one as deleted", async () => {
    const h = new SessionHistory();
    h.user("Goal: split money.ts");
    h.call("create_file", "src/cash.ts");
    h.call("edit_lines", "src/cash.ts");
    h.call("delete_file", "src/money.ts");
    h.answer("split");
    h.user("next");
    const { record } = (await compactConversation({ path: h.entries, countTokens, tokensLimit: 100_000, summarise: async () => null, trigger: "auto" }))!;
    expect(record.summary).toContain("Files touched (from the tool log): src/cash.ts (created), src/money.ts (deleted)");
  });
});

describe("tool-log lines", () => {
  it("parse back what filesTouchedSection wrote, and merge with edited winning", () => {
    const parsed = filesTouchedInSummary("## Goal\nx\n\nFiles touched (from the tool log): a b.ts (read), src/c.ts (edited)");
    expect(parsed).toEqual([{ path: "a b.ts", how: "read" }, { path: "src/c.ts", how: "edited" }]);
    expect(mergeTouched(parsed, [{ path: "a b.ts", how: "edited" }, { path: "d.ts", how: "read" }])).toEqual([
      { path: "a b.ts", how: "edited" },
      { path: "src/c.ts", how: "edited" },
      { path: "d.ts", how: "read" },
    ]);
    expect(buildTranscript([], 100)).toBe("");
  });

  it("say a file was created, deleted or only failed to be edited, not just 'edited' or 'read'", () => {
    const line = "Files touched (from the tool log): src/new.ts (created), src/old.ts (deleted), src/x.ts (edit failed), src/y.ts (read)";
    const parsed = filesTouchedInSummary(line);
    expect(filesTouchedSection(parsed)).toBe(line);
    expect(mergeTouched(parsed, [{ path: "src/new.ts", how: "edited" }, { path: "src/x.ts", how: "read" }, { path: "src/y.ts", how: "edit failed" }, { path: "src/old.ts", how: "created" }])).toEqual([
      { path: "src/new.ts", how: "created" },
      { path: "src/old.ts", how: "created" },
      { path: "src/x.ts", how: "edit failed" },
      { path: "src/y.ts", how: "edit failed" },
    ]);
  });
});
