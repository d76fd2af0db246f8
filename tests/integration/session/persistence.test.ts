// Persist-before-act, checked from the outside: before every request Redis already holds exactly the
// history being sent, and before a tool runs it holds the reply that called it. A restart then sees
// the same history and stats.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { LlmClient, LlmMessage } from "../../../src/main/llm/ollama-client.js";
import { SessionStore } from "../../../src/main/session/session-store.js";
import { activePath, modelView, toLlmMessages } from "../../../src/main/session/session-tree.js";
import type { SessionState } from "../../../src/main/session/session-types.js";
import { defineTool } from "../../../src/main/tools/define-tool.js";
import { TOOLS, ToolRegistry } from "../../../src/main/tools/registry.js";
import { FakeOllama } from "../../helpers/fake-ollama.js";
import { closeIndexedProject, openIndexedAcmeShop, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { startAgent } from "./agent-harness.js";

const server = useRedisServer();
let project: IndexedProject;
let fake: FakeOllama;
let sessionId = "";

beforeAll(async () => void (project = await openIndexedAcmeShop(server().url)));
afterAll(() => closeIndexedProject(project));
afterEach(async () => {
  await fake?.close();
});

const load = async (): Promise<SessionState> => (await new SessionStore(project.redis, project.store.projectName).load(sessionId))!;
const storedHistory = async (): Promise<LlmMessage[]> => toLlmMessages(modelView(activePath(await load())));

/** What Redis held at each request, next to what was sent (without the system message). */
const atRequest: Array<{ stored: LlmMessage[]; sent: LlmMessage[] }> = [];
/** The newest stored message each time the probe tool ran. */
const atToolRun: Array<{ role: string; callIds: string[] }> = [];

function watchingRedis(llm: LlmClient): LlmClient {
  return {
    host: llm.host,
    model: llm.model,
    get contextWindow() {
      return llm.contextWindow;
    },
    checkModel: () => llm.checkModel(),
    pull: (o) => llm.pull(o),
    chat: (input) => llm.chat(input),
    chatStream(input) {
      const inner = async function* () {
        atRequest.push({ stored: await storedHistory(), sent: input.messages.filter((m) => m.role !== "system").map((m) => ({ ...m })) });
        yield* llm.chatStream(input);
      };
      return Object.assign(inner(), { abort() {} });
    },
  };
}

const probe = defineTool({
  name: "probe_session",
  category: "read",
  description: "test tool: reports what the session store holds while it runs",
  parameters: z.object({ note: z.string().optional() }).strict(),
  requiresConfirmation: false,
  title: () => "probe_session",
  async execute() {
    const state = await load();
    const last = activePath(state).at(-1)!;
    const m = last.kind === "message" ? last.message : null;
    atToolRun.push({ role: m?.role ?? "none", callIds: (m?.toolCalls ?? []).map((c) => c.id) });
    return { ok: true, llm: "probed" };
  },
});

describe("session persistence", () => {
  it("stores every step before the next one happens, and a restart sees identical history and stats", async () => {
    fake = await new FakeOllama().start();
    fake.reply().text('Looking.\n<tool_call name="probe_session"><note>one</note></tool_call>\n<tool_call name="get_lines"><path>packages/core/src/logger.ts</path></tool_call>');
    fake.reply().text('<tool_call name="probe_session"><note>two</note></tool_call>');
    fake.reply().text("The logger prints with a prefix.");
    fake.reply().text("Yes, only info().");
    const registry = new ToolRegistry([...TOOLS, probe]);
    const agent = await startAgent(project, fake, project.config, { kind: "new" }, { wrapLlm: watchingRedis, registry });
    sessionId = agent.runtime.session.id;
    const first = await agent.turn("What does the logger do?");
    const second = await agent.turn("Only info()?");
    fake.assertAllConsumed();
    expect(fake.violations).toEqual([]);

    // Before each request, Redis held exactly what was sent.
    expect(atRequest).toHaveLength(4);
    for (const { stored, sent } of atRequest) expect(stored).toEqual(sent);
    expect(atRequest[0]!.sent.map((m) => m.role)).toEqual(["user"]);
    expect(atRequest[1]!.sent.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    // Before each tool ran, Redis held the assistant reply that called it (with the call's id).
    expect(atToolRun).toEqual([
      { role: "assistant", callIds: ["call_1", "call_2"] },
      { role: "assistant", callIds: ["call_3"] },
    ]);

    const state = await load();
    expect(state.stats).toMatchObject({ turns: 2, toolCalls: 3, editsApplied: 0, compactions: 0 });
    const serverTokens = fake.chatRequests.reduce((n, c) => n + c.promptTokens, 0);
    expect(state.stats.totalTokens).toBe(first.stats.tokens + second.stats.tokens);
    expect(state.stats.totalTokens).toBeGreaterThan(serverTokens);
    expect(state.stats.totalTime).toBeGreaterThan(0);
    expect(state.context).toMatchObject({ tokensLimit: 32768, loadedFiles: ["packages/core/src/logger.ts"] });
    expect(state.context.tokensUsed).toBe(fake.chatRequests.at(-1)!.promptTokens + (second.events.find((e) => e.type === "response") as { stats: { completionTokens: number } }).stats.completionTokens);
    const messages = activePath(state).map((e) => (e.kind === "message" ? e.message : null));
    expect(messages.map((m) => m?.role)).toEqual(["user", "assistant", "tool", "assistant", "tool", "assistant", "user", "assistant"]);
    expect(messages[2]!.toolResults?.map((r) => [r.callId, r.name, r.success])).toEqual([
      ["call_1", "probe_session", true],
      ["call_2", "get_lines", true],
    ]);
    // Each user message keeps its turn's stats line, to show it again with the answer.
    const shownStats = (s: typeof first.stats) => ({ timeMs: Math.round(s.timeMs), tokens: s.tokens, toolCalls: s.toolCalls });
    expect(messages[0]!.turnStats).toEqual(shownStats(first.stats));
    expect(messages[0]!.turnStats!.toolCalls).toBe(3);
    expect(messages[6]!.turnStats).toEqual(shownStats(second.stats));

    // A restart: same model view, same stats; the conversation goes on from there.
    fake.reply().text("Still the same logger.");
    const restarted = await startAgent(project, fake, project.config, { kind: "last" });
    expect(restarted.runtime.session.id).toBe(sessionId);
    expect(restarted.runtime.orchestrator.history).toEqual(agent.runtime.orchestrator.history);
    expect(restarted.runtime.session.state.stats).toEqual(state.stats);
    await restarted.turn("And now?");
    const resent = fake.chatRequests.at(-1)!.messages.filter((m) => m.role !== "system");
    expect(resent.map((m) => m.content).slice(0, -1)).toEqual(agent.runtime.orchestrator.history.map((m) => m.content));
    expect((await load()).stats.turns).toBe(3);
    expect(restarted.runtime.session.nextCallId()).toBe("call_4");
  });

  it("refuses /eval in a session that has no answer yet", async () => {
    fake = await new FakeOllama().start();
    const agent = await startAgent(project, fake, project.config);
    expect(() => agent.runtime.evaluate()).toThrow(`session ${agent.runtime.session.id} has no answer to check yet`);
    expect(fake.chatRequests).toHaveLength(0);
  });
});
