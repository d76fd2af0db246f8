import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TurnEvent } from "../../../src/main/agent/orchestrator.js";
import { RECENT_MESSAGES, TARGET_FILL } from "../../../src/main/context/compression/compact-conversation.js";
import { SessionStore } from "../../../src/main/session/session-store.js";
import { FakeOllama, type ChatSeen } from "../../helpers/fake-ollama.js";
import { buildAcmeShop, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { removeDir, writeTree } from "../../helpers/temp-dir.js";
import { compactSession } from "../../../src/main/agent/agent-runtime.js";
import { bigSource, isSummaryRequest, scriptConversation, startAgent, withConfig } from "./agent-harness.js";

const server = useRedisServer();
let project: IndexedProject;
let fake: FakeOllama;

const WINDOW = 12288;
const AGENTS_RULE = "Always answer in plain English; rule 7-alpha.";
const SUMMARY = [
  "## Goal",
  "Understand what big-1.ts, big-2.ts and big-3.ts do and how they differ.",
  "## Files touched",
  "- packages/core/src/big-1.ts: defines big1_* constants",
  "## Decisions",
  "- big-1 only computes constants",
  "## Open tasks",
  "- compare big-2 and big-3",
].join("\n");

const call = (file: string) => `<tool_call name="get_lines"><path>${file}</path></tool_call>`;
const BIG = (n: number) => `packages/core/src/big-${n}.ts`;

beforeAll(async () => {
  const root = buildAcmeShop();
  writeTree(root, {
    [BIG(1)]: bigSource("big1", 125),
    [BIG(2)]: bigSource("big2", 125),
    [BIG(3)]: bigSource("big3", 125),
    "AGENTS.md": `# Team rules\n${AGENTS_RULE}\n`,
  });
  project = await openIndexedProject(root, server().url);
  await project.reindex();
});
afterAll(async () => {
  await project.close();
  removeDir(project.root);
});
afterEach(async () => {
  await fake?.close();
});

const mainRequests = () => fake.chatRequests.filter((c) => !isSummaryRequest(c));
const allText = (c: ChatSeen) => c.messages.map((m) => m.content).join("\n");

describe("context compression", () => {
  it("compresses a long session past 80%: summary for old turns, stubs for old results, the rest kept, well under the threshold", async () => {
    fake = await new FakeOllama().start();
    const config = withConfig(project.config, { contextWindow: WINDOW });
    scriptConversation(
      fake,
      [
        call(BIG(1)),
        "big-1.ts only defines big1_* constants.",
        call(BIG(2)),
        call("packages/core/src/money.ts"),
        call("packages/core/src/logger.ts"),
        call(BIG(3)),
        "big-2 and big-3 differ only in their names; money.ts is unrelated.",
      ],
      { summaries: 1, summary: SUMMARY },
    );
    const agent = await startAgent(project, fake, config);
    const first = await agent.turn("What does big-1.ts do?");
    expect(first.events.some((e) => e.type === "compacted")).toBe(false);
    const second = await agent.turn("Now compare big-2.ts with big-3.ts, and check money.ts and logger.ts on the way.");
    fake.assertAllConsumed();

    const compacted = second.events.filter((e): e is Extract<TurnEvent, { type: "compacted" }> => e.type === "compacted");
    expect(compacted).toHaveLength(1);
    const report = compacted[0]!.report;
    expect(report.percentBefore).toBeGreaterThanOrEqual(80);
    expect(report.percentAfter).toBeLessThanOrEqual(TARGET_FILL * 100);
    expect(report.method).toBe("llm-summary");
    expect(report.trigger).toBe("auto");
    expect(report.summarisedMessages).toBe(4); // the whole first turn
    // Stubbing by mention was not enough to get under the target, so every result but the newest went.
    expect(report.stubbedResults).toBe(3);
    expect(report.droppedFiles.sort()).toEqual([BIG(1), BIG(2), "packages/core/src/logger.ts", "packages/core/src/money.ts"]);
    expect(report.loadedFiles).toEqual([BIG(3)]);
    // Files whose code left the context must be read again before an edit; the one still shown need not.
    const ledger = agent.runtime.session.toolState.readLedger;
    for (const dropped of report.droppedFiles) expect(ledger.has(dropped), dropped).toBe(false);
    expect(ledger.has(BIG(3))).toBe(true);

    // The request after the compression, as the server saw it.
    const requests = mainRequests();
    const summaryAt = fake.chatRequests.findIndex(isSummaryRequest);
    const beforeReq = fake.chatRequests[summaryAt - 1]!;
    const afterReq = fake.chatRequests[summaryAt + 1]!;
    expect(requests.at(-1)).toBe(afterReq);
    // Fixed part: system prompt, project outline and instruction file (the outline's ranking follows the talk).
    const system = afterReq.messages[0]!;
    expect(system.role).toBe("system");
    expect(system.content).toContain(AGENTS_RULE);
    expect(system.content).toContain("get_lines");
    expect(system.content).toContain("export class Money implements MoneyLike");
    expect(system.content.length).toBeGreaterThan(beforeReq.messages[0]!.content.length * 0.9);
    // The summary replaced the first turn, with the task state and the files from the tool log.
    const text = allText(afterReq);
    expect(text).toContain("<conversation_summary>");
    expect(text).toContain("## Open tasks\n- compare big-2 and big-3");
    expect(text).toContain(`Files touched (from the tool log): ${BIG(1)} (read)`);
    expect(text).not.toContain("What does big-1.ts do?");
    expect(text).not.toContain("big1-line-5");
    // The last user message stays verbatim; big-2's code (not mentioned lately) became a stub; big-3's stays.
    expect(text).toContain("Now compare big-2.ts with big-3.ts, and check money.ts and logger.ts on the way.");
    expect(text).not.toContain("big2-line-5");
    expect(text).toMatch(/\[compressed: get_lines packages\/core\/src\/big-2\.ts → \d+ lines; call the tool again if you need it\]/);
    expect(text).toContain('<tool_call name="get_lines"><path>packages/core/src/money.ts</path></tool_call>');
    expect(text).toContain("big3-line-110");
    // The call still has its (stubbed) result right after it: well-formed, no orphans.
    expect(fake.violations).toEqual([]);
    // The summary request itself: a transcript, tool results cut to one line each.
    const summaryReq = fake.chatRequests[summaryAt]!;
    expect(summaryReq.stream).toBe(false);
    expect(allText(summaryReq)).toContain("User: What does big-1.ts do?");
    expect(allText(summaryReq)).not.toContain("big1-line-5");
    // New size, by the server's own count: well under the threshold.
    expect(afterReq.promptTokens).toBeLessThan(0.8 * WINDOW * 0.75);
    expect(beforeReq.promptTokens).toBeGreaterThanOrEqual(0.8 * WINDOW * 0.9);
    expect(second.events.filter((e) => e.type === "context").at(-1)).toMatchObject({ tokensLimit: WINDOW });

    // Persisted: a restart sees the compressed view, and the full history is still in the tree.
    const state = (await new SessionStore(project.redis, project.store.projectName).load(agent.runtime.session.id))!;
    expect(state.stats.compactions).toBe(1);
    const reloaded = await startAgent(project, fake, config, { kind: "id", id: state.meta.id });
    expect(reloaded.runtime.orchestrator.history).toEqual(agent.runtime.orchestrator.history);
    expect(reloaded.runtime.session.messages().map((m) => m.content)).toContain("What does big-1.ts do?");
    expect(RECENT_MESSAGES).toBe(5);
  });

  it("does not compress when context.autoCompressAt is null, even past 80%", async () => {
    fake = await new FakeOllama().start();
    const config = withConfig(project.config, { contextWindow: WINDOW, autoCompressAt: null });
    scriptConversation(fake, [call(BIG(1)), "ok", call(BIG(2)), call(BIG(3)), "done"], { summaries: 0, summary: SUMMARY });
    const agent = await startAgent(project, fake, config);
    await agent.turn("What does big-1.ts do?");
    const { events } = await agent.turn("And big-2.ts and big-3.ts?");
    fake.assertAllConsumed();
    expect(events.some((e) => e.type === "compacted")).toBe(false);
    const last = fake.chatRequests.at(-1)!;
    expect(last.promptTokens).toBeGreaterThan(0.8 * WINDOW);
    expect(allText(last)).toContain("big1-line-5");
    expect(events.filter((e) => e.type === "context").at(-1)).toMatchObject({ tokensUsed: expect.any(Number), tokensLimit: WINDOW });
  });

  it("sizes the context by estimate until the server has counted a request: a first turn interrupted before any answer still shows it", async () => {
    fake = await new FakeOllama().start();
    const config = withConfig(project.config, { contextWindow: WINDOW });
    const agent = await startAgent(project, fake, config);
    fake.reply().hang();
    const abort = new AbortController();
    const events: TurnEvent[] = [];
    const gen = agent.runtime.orchestrator.runTurn("What does big-1.ts do?", abort.signal);
    for (;;) {
      const next = await gen.next();
      if (next.done) break;
      events.push(next.value);
      // The estimate arrives before the request goes out; the model never answers, so stop the turn.
      if (next.value.type === "context") setTimeout(() => abort.abort(), 50);
    }
    const context = events.find((e) => e.type === "context");
    expect(context).toMatchObject({ tokensLimit: WINDOW });
    const estimate = (context as { tokensUsed: number }).tokensUsed;
    // The system prompt alone (project map, tools) is hundreds of tokens; the estimate is no guess from nothing.
    expect(estimate).toBeGreaterThan(500);
    expect(estimate).toBeLessThan(WINDOW);
    expect(events.at(-1)).toMatchObject({ type: "finished", reason: "cancelled" });
    // Stored with the session: reopened, it shows the same size (not "unknown").
    const state = (await new SessionStore(project.redis, project.store.projectName).load(agent.runtime.session.id))!;
    expect(state.context).toMatchObject({ tokensUsed: estimate, tokensLimit: WINDOW });
    expect(state.context.measuredMessages).toBeUndefined();
    fake.reset();

    // Once the server counts a request, its count replaces the estimate.
    fake.reply().text("It defines constants.");
    const answered = await agent.turn("What does big-1.ts do?");
    const counted = answered.events.filter((e) => e.type === "context").at(-1) as { tokensUsed: number };
    expect(counted.tokensUsed).toBe(fake.chatRequests.at(-1)!.promptTokens + (answered.stats.completionTokens ?? 0));
    expect(agent.runtime.session.state.context.measuredMessages).toBeGreaterThan(0);
    fake.assertAllConsumed();
  });

  it("summarises older turns once the view holds more than session.maxHistoryMessages messages, though the context is nearly empty", async () => {
    fake = await new FakeOllama().start();
    const config = withConfig(project.config, { contextWindow: 32768, maxHistoryMessages: 4 });
    // Answers longer than the summary: one that outgrew the turns it replaces would not be applied.
    const detail = "The amount is an integer count of the smallest unit, so no rounding happens on the way. ".repeat(6);
    fake.reply().text(`Cents. ${detail}`);
    fake.reply().text(`Dollars. ${detail}`);
    // The third request would carry 5 messages (> 4): the two earlier turns are summarised first.
    fake.reply().text("## Goal\nUnits.\n## Files touched\n- none\n## Decisions\n- cents in, dollars out\n## Open tasks\n- none");
    fake.reply().text("Both.");
    const agent = await startAgent(project, fake, config);
    await agent.turn("What unit goes in?");
    const second = await agent.turn("What unit comes out?");
    expect(second.events.some((e) => e.type === "compacted")).toBe(false);
    const third = await agent.turn("So, both?");
    fake.assertAllConsumed();
    expect(third.events.find((e) => e.type === "compacted")).toMatchObject({ report: { trigger: "auto", summarisedMessages: 4 } });
    const last = mainRequests().at(-1)!;
    expect(allText(last)).toContain("cents in, dollars out");
    expect(allText(last)).not.toContain("What unit goes in?");
    // The summary and the question, as one user message (roles alternate).
    expect(last.messages.filter((m) => m.role !== "system")).toHaveLength(1);
  });

  it("/compact with a focus: the summary request names it, and the next request starts from the summary", async () => {
    fake = await new FakeOllama().start();
    const config = withConfig(project.config, { contextWindow: 32768 });
    fake.reply().text(call(BIG(1)));
    fake.reply().text("big-1 defines constants.");
    fake.reply().text(call("packages/core/src/money.ts"));
    fake.reply().text("Money rounds to cents.");
    fake.reply().text("## Goal\nUnderstand money rounding.\n## Files touched\n- money.ts\n## Decisions\n- rounds to cents\n## Open tasks\n- none");
    fake.reply().text("Yes, still cents.");
    const agent = await startAgent(project, fake, config);
    await agent.turn("What does big-1.ts do?");
    await agent.turn("How does money.ts round?");
    const report = (await compactSession(agent.runtime, { focus: "money rounding" }))!;
    expect(report).toMatchObject({ trigger: "manual", method: "llm-summary", summarisedMessages: 4 });
    expect(report.percentAfter).toBeLessThan(report.percentBefore);
    const summaryReq = fake.chatRequests[4]!;
    expect(isSummaryRequest(summaryReq)).toBe(true);
    expect(allText(summaryReq)).toContain("Keep in particular everything about: money rounding");
    await agent.turn("Still cents?");
    fake.assertAllConsumed();
    const next = allText(fake.chatRequests[5]!);
    expect(next).toContain("Understand money rounding.");
    expect(next).not.toContain("big1-line-5");
    expect(next).toContain("How does money.ts round?");
    const state = (await new SessionStore(project.redis, project.store.projectName).load(agent.runtime.session.id))!;
    const marker = [...state.entries.values()].find((e) => e.kind === "compaction");
    expect(marker).toMatchObject({ compaction: { trigger: "manual", focus: "money rounding" } });
  });

  it("builds the summary from the messages when the summary request fails, and says why", async () => {
    fake = await new FakeOllama().start();
    const config = withConfig(project.config, { contextWindow: 32768 });
    fake.reply().text(call(BIG(1)));
    fake.reply().text("big-1 defines constants.");
    fake.reply().text("Next question noted.");
    fake.reply().httpError(500, "model runner crashed");
    const agent = await startAgent(project, fake, config);
    await agent.turn("What does big-1.ts do?");
    await agent.turn("Anything else?");
    const report = (await agent.runtime.compact())!;
    fake.assertAllConsumed();
    expect(report.method).toBe("truncate");
    expect(report.summaryError).toContain("model runner crashed");
    const summary = agent.runtime.orchestrator.history[0]!.content;
    expect(summary).toContain("## Goal\n- What does big-1.ts do?");
    expect(summary).toContain(`- ${BIG(1)} (read)`);
    expect(summary).toContain("Last answer: big-1 defines constants.");
  });
});

