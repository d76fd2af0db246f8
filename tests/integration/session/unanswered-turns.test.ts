// A turn that got no answer (stopped with Esc/Ctrl+C mid-answer, a failed request the user skipped or
// aborted, a run that died) is not silently dropped from what the model reads: the next request has the
// part of the answer that was shown and a note saying how the turn ended, in place of the answer — never
// the abandoned message followed directly by the new one. The session keeps the same, so a restart (or
// `ipuaro run --continue`) sends the same history.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ErrorChoice, ErrorSituation, UiPort } from "../../../src/main/agent/ports.js";
import type { TurnEvent } from "../../../src/main/agent/orchestrator.js";
import { HeadlessUi } from "../../../src/main/agent/headless-ui.js";
import type { IpuaroError } from "../../../src/main/errors.js";
import { FakeOllama, xmlToolCall } from "../../helpers/fake-ollama.js";
import { closeIndexedProject, openIndexedAcmeShop, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { startAgent, type AgentUnderTest } from "./agent-harness.js";

const server = useRedisServer();
let project: IndexedProject;
let fake: FakeOllama;

beforeAll(async () => void (project = await openIndexedAcmeShop(server().url)));
afterAll(() => closeIndexedProject(project));
afterEach(async () => {
  await fake?.close();
});

/** A UI port that answers a failed request with `choice`, and remembers what it was told of the failure. */
function answering(choice: ErrorChoice): UiPort & { asked: ErrorSituation[] } {
  const headless = new HeadlessUi(true, () => {});
  const asked: ErrorSituation[] = [];
  return Object.assign(headless, {
    asked,
    chooseOnError: async (_error: IpuaroError, situation?: ErrorSituation) => {
      if (situation) asked.push(situation);
      return choice;
    },
  });
}

const sent = (i: number) => fake.chatRequests[i]!.messages.filter((m) => m.role !== "system").map((m) => ({ role: m.role, content: m.content }));

function expectNoTwoUserMessagesInARow(messages: Array<{ role: string }>): void {
  messages.forEach((m, i) => {
    if (i > 0 && m.role === "user") expect(messages[i - 1]!.role, `message ${i} follows another user message`).not.toBe("user");
  });
}

/** Runs a turn, stopping it (as Esc does) once `stopAfter` text events have come. */
async function interruptedTurn(agent: AgentUnderTest, text: string, stopAfter = 3): Promise<TurnEvent[]> {
  const abort = new AbortController();
  const events: TurnEvent[] = [];
  let texts = 0;
  const gen = agent.runtime.orchestrator.runTurn(text, abort.signal);
  for (;;) {
    const next = await gen.next();
    if (next.done) return events;
    events.push(next.value);
    if (next.value.type === "text" && ++texts === stopAfter) abort.abort();
  }
}

describe("a turn without an answer, in the history the model reads", () => {
  it("an answer interrupted mid-stream: the next request has what was shown and that the user interrupted it; a restart sends the same", async () => {
    fake = await new FakeOllama().start();
    const agent = await startAgent(project, fake, project.config);
    fake.reply().text("The logger module prints every line with a prefix and a timestamp, and it also ".repeat(10)).chunkDelay(20);
    const events = await interruptedTurn(agent, "Explain the logger in detail");
    const finished = events.at(-1)!;
    expect(finished).toMatchObject({ type: "finished", reason: "cancelled" });
    const shown = events.flatMap((e) => (e.type === "text" ? [e.text] : [])).join("");
    expect(shown.length).toBeGreaterThan(0);

    fake.reply().text("Sure: cents.");
    await agent.turn("Something else: how is Money stored?");
    const second = sent(1);
    expect(second.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(second[0]!.content).toBe("Explain the logger in detail");
    expect(second[1]!.content).toBe(`${shown.trim()}\n\n[The user interrupted this answer.]`);
    expect(second[2]!.content).toBe("Something else: how is Money stored?");

    // The session says the same: what the orchestrator sent is what a reopened session starts from.
    const reopened = await startAgent(project, fake, project.config, { kind: "id", id: agent.runtime.session.id });
    expect(reopened.runtime.session.llmHistory().slice(0, 3)).toEqual(second);
    // How the turn ended is still shown as before (sessions show, the chat on reopening).
    expect(reopened.runtime.session.messages()[0]!.outcome).toMatch(/\[interrupted\]$/);
    reopened.runtime.checkpoints.close();
    agent.runtime.checkpoints.close();
    fake.assertAllConsumed();
  });

  it("a request that failed and was skipped: the note says why and that the user moved on", async () => {
    fake = await new FakeOllama().start();
    const ui = answering("skip");
    const agent = await startAgent(project, fake, project.config, { kind: "new" }, { ui });
    fake.reply().httpError(500, "the runner crashed");
    const { events } = await agent.turn("Where is Money?");
    expect(ui.asked).toEqual([{ during: "request", takeBack: true }]);
    const error = events.find((e) => e.type === "error");
    expect(error).toMatchObject({ choice: "skip" });
    expect(events.at(-1)).toMatchObject({ type: "finished", reason: "error" });
    expect(events.at(-1)).not.toHaveProperty("takeBack");

    fake.reply().text("In money.ts.");
    await agent.turn("Where is it then?");
    const second = sent(1);
    expect(second.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    const message = (error as { error: IpuaroError }).error.message.replace(/\.$/, "");
    expect(second[1]!.content).toBe(`[This answer failed: ${message}; the user moved on.]`);
    expect(agent.runtime.session.llmHistory().slice(0, 3)).toEqual(second);
    agent.runtime.checkpoints.close();
    fake.assertAllConsumed();
  });

  it("abort at a failed first request takes the message back: no trace of it in the next request", async () => {
    fake = await new FakeOllama().start();
    const ui = answering("abort");
    const agent = await startAgent(project, fake, project.config, { kind: "new" }, { ui });
    fake.reply().text("Hello.");
    await agent.turn("Hi");
    fake.reply().httpError(500, "the runner crashed");
    const { events } = await agent.turn("Where is Money?");
    expect(ui.asked).toEqual([{ during: "request", takeBack: true }]);
    expect(events.at(-1)).toMatchObject({ type: "finished", reason: "aborted", takeBack: true });
    // What the TUI does then (the input gets the message back).
    expect(await agent.runtime.checkpoints.rewind.restoreCancelledTurn()).toBe("Where is Money?");

    fake.reply().text("In money.ts.");
    await agent.turn("Where is Money, please?");
    expect(sent(2).map((m) => m.content)).toEqual(["Hi", "Hello.", "Where is Money, please?"]);
    agent.runtime.checkpoints.close();
    fake.assertAllConsumed();
  });

  it("a request that failed after the turn ran tools cannot be taken back: abort stops the turn, and the note follows the tool results", async () => {
    fake = await new FakeOllama().start();
    const ui = answering("abort");
    const agent = await startAgent(project, fake, project.config, { kind: "new" }, { ui });
    fake.reply().text(xmlToolCall("get_lines", { path: "packages/core/src/money.ts", start: 1, end: 3 }));
    fake.reply().httpError(500, "the runner crashed");
    const { events } = await agent.turn("Show the top of money.ts");
    expect(ui.asked).toEqual([{ during: "request", takeBack: false }]);
    expect(events.at(-1)).toMatchObject({ type: "finished", reason: "aborted" });
    expect(events.at(-1)).not.toHaveProperty("takeBack");

    fake.reply().text("Fine.");
    await agent.turn("Never mind.");
    const third = sent(2);
    expect(third.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(third[2]!.content).toContain('<tool_result name="get_lines"');
    expect(third[3]!.content).toMatch(/^\[This answer failed: Ollama at .* the runner crashed; the turn was stopped there\.\]$/);
    expectNoTwoUserMessagesInARow(third);
    expect(agent.runtime.session.llmHistory().slice(0, 5)).toEqual(third);
    agent.runtime.checkpoints.close();
    fake.assertAllConsumed();
  });

  it("a run that died mid-turn: the reopened session tells the model the answer was cut off", async () => {
    fake = await new FakeOllama().start();
    const agent = await startAgent(project, fake, project.config);
    // The state a kill leaves before any reply: the question stored, nothing after it.
    await agent.runtime.session.appendMessage({ role: "user", content: "Explain money.ts", timestamp: Date.now() });
    agent.runtime.checkpoints.close();
    const reopened = await startAgent(project, fake, project.config, { kind: "id", id: agent.runtime.session.id });
    fake.reply().text("Cents.");
    await reopened.turn("In short?");
    expect(sent(0)).toEqual([
      { role: "user", content: "Explain money.ts" },
      { role: "assistant", content: "[This answer was cut off: ipuaro stopped before it was complete.]" },
      { role: "user", content: "In short?" },
    ]);
    reopened.runtime.checkpoints.close();
    fake.assertAllConsumed();
  });
});
