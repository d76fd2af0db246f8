// A message that can never fit (with the system prompt alone it is past the limit a request may fill) is
// refused before anything happens: no summary request, no compaction, nothing stored, the context
// estimate as it was. A tester pasted ~320 KB after a few turns: 20 messages were summarised first, the
// message was refused anyway, and it stayed in the history to be summarised by the next "hi".
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TurnEvent } from "../../../src/main/agent/orchestrator.js";
import type { IpuaroError } from "../../../src/main/errors.js";
import { SessionStore } from "../../../src/main/session/session-store.js";
import { FakeOllama } from "../../helpers/fake-ollama.js";
import { buildAcmeShop, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { removeDir } from "../../helpers/temp-dir.js";
import { isSummaryRequest, scriptConversation, startAgent, withConfig, type AgentUnderTest } from "./agent-harness.js";

const server = useRedisServer();
let project: IndexedProject;
let fake: FakeOllama;

const WINDOW = 12288;
const SUMMARY = "## Goal\nMoney.\n## Files touched\n- none\n## Decisions\n- cents\n## Open tasks\n- none";

/** About `tokens` tokens of pasted code (~70 characters, ~19 tokens a line). */
function paste(tokens: number): string {
  const lines = Math.ceil(tokens / 19);
  return Array.from({ length: lines }, (_, i) => `line ${i}: const value${i} = compute(${i}, "some text to make it long");`).join("\n");
}

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

/**
 * An agent with three answered turns behind it: the context is well filled (about 7,700 of the 12,288
 * tokens, the system prompt about 4,100 of them), so a large message makes the next request compress.
 */
async function agentWithHistory(autoCompressAt?: number | null): Promise<AgentUnderTest> {
  scriptConversation(fake, ["Cents.", "Dollars.", "Both."], { summaries: 0, summary: SUMMARY });
  const agent = await startAgent(project, fake, withConfig(project.config, { contextWindow: WINDOW, ...(autoCompressAt !== undefined ? { autoCompressAt } : {}) }));
  await agent.turn(`What unit goes in?\n${paste(2000)}`);
  await agent.turn("What unit comes out?");
  await agent.turn(`And here?\n${paste(2000)}`);
  fake.assertAllConsumed();
  expect(fake.chatRequests.some(isSummaryRequest)).toBe(false);
  return agent;
}

function refusal(events: TurnEvent[]): IpuaroError {
  const error = events.find((e) => e.type === "error");
  if (error?.type !== "error") throw new Error(`no error event in ${JSON.stringify(events.map((e) => e.type))}`);
  return error.error;
}

describe("a message too large for any request", () => {
  it("is refused at once: no summary request, no compaction, the history, stored session and context estimate unchanged", async () => {
    fake = await new FakeOllama().start();
    const agent = await agentWithHistory();
    const session = agent.runtime.session;
    const requests = fake.chatRequests.length;
    const history = structuredClone(agent.runtime.orchestrator.history);
    const messages = structuredClone(session.messages());
    const context = structuredClone(session.state.context);
    const stats = structuredClone(session.state.stats);
    const head = session.state.head;

    const { events } = await agent.turn(`What is wrong here?\n${paste(80_000)}`);

    expect(fake.chatRequests).toHaveLength(requests);
    expect(fake.chatRequests.some(isSummaryRequest)).toBe(false);
    expect(events.map((e) => e.type)).toEqual(["error", "finished"]);
    const error = refusal(events);
    expect(error.code).toBe("MESSAGE_TOO_LARGE");
    expect(error.recoverable).toBe(false);
    expect(error.message).toMatch(/^Your message is about [\d,]+ tokens: with the instructions, tools and project map \(about [\d,]+\) a request would be about [\d,]+, more than the context window of 12,288\./);
    expect(error.message).toContain("it was not sent");
    expect(error.suggestion).toContain("@path");
    expect(error.suggestion).toContain("raise llm.contextWindow");
    expect(events.at(-1)).toMatchObject({ type: "finished", reason: "error", text: error.message });

    expect(agent.runtime.orchestrator.history).toEqual(history);
    expect(session.messages()).toEqual(messages);
    expect(session.state.head).toBe(head);
    expect(session.state.context).toEqual(context);
    expect(session.state.stats).toEqual(stats);
    // What is stored says the same (a restart shows the session as it was).
    const stored = (await new SessionStore(project.redis, project.store.projectName).load(session.id))!;
    expect(stored.head).toBe(head);
    expect(stored.context).toEqual(context);

    // The next message goes on from the conversation as it was: nothing to compress, the paste nowhere.
    fake.reply().text("Hello.");
    const next = await agent.turn("hi");
    fake.assertAllConsumed();
    expect(next.events.some((e) => e.type === "compacted")).toBe(false);
    expect(next.events.at(-1)).toMatchObject({ type: "finished", reason: "answer", text: "Hello." });
    const sent = fake.chatRequests.at(-1)!.messages.filter((m) => m.role !== "system");
    expect(sent.map((m) => m.content)).toEqual([...history.map((m) => m.content), "hi"]);
  });

  it("names the share context.maxContextUsage leaves when the message is under the window but past it", async () => {
    fake = await new FakeOllama().start();
    const agent = await agentWithHistory();
    const requests = fake.chatRequests.length;
    // With the system prompt under the 12,288 window, over the 9,830 (80%) a request may fill.
    const { events } = await agent.turn(`What is wrong here?\n${paste(7500)}`);
    expect(fake.chatRequests).toHaveLength(requests);
    expect(events.some((e) => e.type === "compacted")).toBe(false);
    const error = refusal(events);
    expect(error.code).toBe("MESSAGE_TOO_LARGE");
    expect(error.message).toMatch(/more than the 9,830 \(80% of the 12,288-token context window\) a request may fill/);
    expect(error.message).toMatch(/a message can take about [\d,]+ tokens here/);
    expect(error.suggestion).toContain("raise context.maxContextUsage");
  });

  it("still compresses for a large message that fits once the older turns are summarised, and sends it", async () => {
    fake = await new FakeOllama().start();
    const agent = await agentWithHistory();
    fake.reply().text((seen) => (isSummaryRequest(seen) ? SUMMARY : "It reads the price."));
    fake.reply().text((seen) => (isSummaryRequest(seen) ? SUMMARY : "It reads the price."));
    const { events } = await agent.turn(`What does this do?\n${paste(4000)}`);
    fake.assertAllConsumed();
    expect(fake.chatRequests.filter(isSummaryRequest)).toHaveLength(1);
    expect(events.find((e) => e.type === "compacted")).toMatchObject({ report: { trigger: "auto", summarisedMessages: 6 } });
    expect(events.at(-1)).toMatchObject({ type: "finished", reason: "answer", text: "It reads the price." });
    expect(fake.chatRequests.at(-1)!.messages.at(-1)!.content).toContain("What does this do?");
  });

  it("a message that fits alone but not beside a history nothing compresses (autoCompressAt null) is a request too large, not sent", async () => {
    fake = await new FakeOllama().start();
    const agent = await agentWithHistory(null);
    const requests = fake.chatRequests.length;
    // About 5,400 tokens: with the system prompt alone well under the window, with the history past it.
    const { events } = await agent.turn(`What does this do?\n${paste(6000)}`);
    expect(fake.chatRequests).toHaveLength(requests);
    const error = refusal(events);
    expect(error.code).toBe("REQUEST_TOO_LARGE");
    expect(error.message).toMatch(/^This request would be about [\d,]+ tokens, more than the context window of 12,288, and compression cannot make room/);
  });
});
