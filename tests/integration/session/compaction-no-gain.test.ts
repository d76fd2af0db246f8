// A compaction that would not make the context smaller is not applied, by /compact or automatically:
// on a two-turn conversation the summary (the model's, or the outline used when it fails) is longer than
// the turns it replaces, and a tester saw "Context 14% → 15% (2 messages summarised)".
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SessionStore } from "../../../src/main/session/session-store.js";
import { FakeOllama } from "../../helpers/fake-ollama.js";
import { buildAcmeShop, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { removeDir } from "../../helpers/temp-dir.js";
import { isSummaryRequest, startAgent, withConfig } from "./agent-harness.js";

const server = useRedisServer();
let project: IndexedProject;
let fake: FakeOllama;

const LONG_SUMMARY = [
  "## Goal",
  "- Find out which unit amounts are stored in, and whether the conversion rounds anywhere on the way in or out.",
  "## Files touched",
  "- none so far; packages/core/src/money.ts is the likely place to look next",
  "## Decisions",
  "- amounts go in as cents and come out as dollars; nothing was changed",
  "## Open tasks",
  "- confirm the rounding rule in money.ts before answering the next question about it",
].join("\n");

beforeAll(async () => {
  project = await openIndexedProject(buildAcmeShop(), server().url);
  await project.reindex();
});
afterAll(async () => {
  await project.close();
  removeDir(project.root);
});
afterEach(async () => {
  await fake?.close();
});

const storedCompactions = async (id: string) => {
  const state = (await new SessionStore(project.redis, project.store.projectName).load(id))!;
  return { count: state.stats.compactions, markers: [...state.entries.values()].filter((e) => e.kind === "compaction").length };
};

describe("a compaction that would not shrink the context", () => {
  it("/compact on two short turns whose summary fails: nothing is replaced, and the report says why", async () => {
    fake = await new FakeOllama().start();
    fake.reply().text("Cents.");
    fake.reply().text("Dollars.");
    fake.reply().httpError(500, "model runner crashed");
    const agent = await startAgent(project, fake, withConfig(project.config, { contextWindow: 32768 }));
    await agent.turn("What unit goes in?");
    await agent.turn("What unit comes out?");
    const history = [...agent.runtime.orchestrator.history];
    const report = (await agent.runtime.compact())!;
    fake.assertAllConsumed();
    expect(report).toMatchObject({ skipped: "no-gain", method: "truncate" });
    expect(report.summaryError).toContain("model runner crashed");
    expect(report.tokensAfter).toBeGreaterThanOrEqual(report.tokensBefore);
    expect(agent.runtime.orchestrator.history).toEqual(history);
    expect(await storedCompactions(agent.runtime.session.id)).toEqual({ count: 0, markers: 0 });
  });

  it("/compact whose summary is longer than the turns: not applied, and asked again it does not ask the model again", async () => {
    fake = await new FakeOllama().start();
    fake.reply().text("Cents.");
    fake.reply().text("Dollars.");
    fake.reply().text(LONG_SUMMARY);
    fake.reply().text("Both, yes.");
    const agent = await startAgent(project, fake, withConfig(project.config, { contextWindow: 32768 }));
    await agent.turn("What unit goes in?");
    await agent.turn("What unit comes out?");
    const history = [...agent.runtime.orchestrator.history];
    expect(await agent.runtime.compact()).toMatchObject({ skipped: "no-gain", method: "llm-summary" });
    expect(agent.runtime.orchestrator.history).toEqual(history);
    expect(await agent.runtime.compact()).toMatchObject({ skipped: "no-gain" });
    expect(fake.chatRequests.filter(isSummaryRequest)).toHaveLength(1);
    // The next request carries the turns themselves, not a summary.
    await agent.turn("So, both?");
    fake.assertAllConsumed();
    const last = fake.chatRequests.at(-1)!.messages.map((m) => m.content).join("\n");
    expect(last).toContain("What unit goes in?");
    expect(last).not.toContain("<conversation_summary>");
    expect(await storedCompactions(agent.runtime.session.id)).toEqual({ count: 0, markers: 0 });
  });

  it("automatic compression (past session.maxHistoryMessages) is not applied either, and not asked for again within the turn", async () => {
    fake = await new FakeOllama().start();
    fake.reply().text("Cents.");
    fake.reply().text("Dollars.");
    // The third turn: a summary is planned before its first request and dropped; the tool round's second
    // request plans the same summary and must not ask the model for it again.
    fake.reply().text(LONG_SUMMARY);
    fake.reply().text(`<tool_call name="get_lines"><path>packages/core/src/money.ts</path></tool_call>`);
    fake.reply().text("Both.");
    const agent = await startAgent(project, fake, withConfig(project.config, { contextWindow: 32768, maxHistoryMessages: 4 }));
    await agent.turn("What unit goes in?");
    await agent.turn("What unit comes out?");
    const third = await agent.turn("So, both?");
    fake.assertAllConsumed();
    expect(fake.violations).toEqual([]);
    expect(fake.chatRequests.filter(isSummaryRequest)).toHaveLength(1);
    expect(third.events.some((e) => e.type === "compacted")).toBe(false);
    const last = fake.chatRequests.at(-1)!.messages.map((m) => m.content).join("\n");
    expect(last).toContain("What unit goes in?");
    expect(last).not.toContain("<conversation_summary>");
    expect(await storedCompactions(agent.runtime.session.id)).toEqual({ count: 0, markers: 0 });
  });
});
