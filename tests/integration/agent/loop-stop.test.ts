// The agent loop against a fake Ollama: loop guards that count failed calls too and end the turn with an
// answer asked for without tools, calls read from Qwen3's bare <function=…>, and results in call order.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../src/main/agent/events.js";
import type { TurnEvent } from "../../../src/main/agent/orchestrator.js";
import { FakeOllama } from "../../helpers/fake-ollama.js";
import { closeIndexedProject, openIndexedAcmeShop, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { startAgent } from "../session/agent-harness.js";

const server = useRedisServer();
let project: IndexedProject;
let fake: FakeOllama;

beforeAll(async () => void (project = await openIndexedAcmeShop(server().url)));
afterAll(() => closeIndexedProject(project));
afterEach(async () => {
  await fake?.close();
});

const MONEY = "packages/core/src/money.ts";
const CLOSING = "Tools are no longer available for this question";
const getLines = (start: number) => `<tool_call name="get_lines"><path>${MONEY}</path><start>${start}</start><end>${start}</end></tool_call>`;

async function agent(maxToolRounds = project.config.agent.maxToolRounds) {
  fake = await new FakeOllama().start();
  return startAgent(project, fake, { ...project.config, agent: { maxToolRounds } });
}

const finished = (events: TurnEvent[]) => events.find((e): e is Extract<AgentEvent, { type: "finished" }> => e.type === "finished")!;
const streamed = (events: TurnEvent[]) => events.flatMap((e) => (e.type === "text" ? [e.text] : [])).join("");
const lastMessage = (request: number) => fake.chatRequests[request]!.messages.at(-1)!;
/** The tool names of the results in a request's last message, in order, with their call ids. */
const resultsIn = (request: number) => [...lastMessage(request).content.matchAll(/<tool_result name="([^"]+)" call_id="([^"]+)" ok="(true|false)"/g)].map((m) => `${m[1]} ${m[3]}`);

describe("a turn stopped by agent.maxToolRounds", () => {
  it("asks the model once more, without tools, and ends with that answer, still saying why it stopped", async () => {
    const a = await agent(2);
    fake.reply().text(getLines(1));
    fake.reply().text(getLines(2));
    // The closing reply tries another call anyway: it is not run, the prose is the answer.
    fake.reply().text(`Money is a class in ${MONEY}; I did not get to its methods.\n${getLines(3)}`);
    const { events, stats } = await a.turn("Explain Money");
    expect(fake.chatRequests).toHaveLength(3);
    const closing = lastMessage(2);
    expect(closing.role).toBe("user");
    expect(closing.content).toContain(CLOSING);
    expect(closing.content).toContain("the limit of 2 rounds of tool calls");
    expect(stats.toolCalls).toBe(2);
    const end = finished(events);
    expect(end.reason).toBe("max-rounds");
    expect(end.text).toContain("Stopped after 2 consecutive tool rounds");
    expect(end.answer).toBe(`Money is a class in ${MONEY}; I did not get to its methods.`);
    expect(streamed(events)).toContain("I did not get to its methods.");
    expect(streamed(events)).not.toContain("<tool_call");
    // The instruction was for that request only; the answer is in the conversation, without the unrun call.
    fake.reply().text("Yes.");
    await a.turn("Is that all?");
    const next = fake.chatRequests[3]!.messages;
    expect(next.some((m) => m.content.includes(CLOSING))).toBe(false);
    expect(next.at(-2)).toMatchObject({ role: "assistant", content: `Money is a class in ${MONEY}; I did not get to its methods.` });
    expect(fake.violations).toEqual([]);
  });

  it("when the closing request fails, the turn still ends for the guard's reason", async () => {
    const a = await agent(1);
    fake.reply().text(getLines(1));
    fake.reply().httpError(400, "invalid options");
    const { events } = await a.turn("Explain Money");
    const end = finished(events);
    expect(end.reason).toBe("max-rounds");
    expect(end.text).toContain("Stopped after 1 consecutive tool rounds");
    expect(end.text).toContain("invalid options");
    expect(end.answer).toBeUndefined();
  });
});

describe("the doom-loop guard", () => {
  it.each([
    ["a call to a tool that does not exist", '<tool_call name="read_file"><path>a.ts</path></tool_call>', "the model called read_file, a tool that does not exist, 3 times in a row"],
    ["a call that cannot be read", '<tool_call>{"name": "get_lines", "arguments": {"path": a.ts}}</tool_call>', "the model sent the same unreadable tool call to get_lines 3 times in a row"],
  ])("stops %s repeated three times, then asks for an answer", async (_, call, reason) => {
    const a = await agent();
    for (let i = 0; i < 3; i++) fake.reply().text(call);
    fake.reply().text("I could not read the file with the tools I have.");
    const { events } = await a.turn("What is in a.ts?");
    expect(fake.chatRequests).toHaveLength(4);
    expect(events.filter((e) => e.type === "loop-detected")).toEqual([{ type: "loop-detected", reason }]);
    expect(lastMessage(3).content).toContain(CLOSING);
    expect(lastMessage(3).content).toContain("repeating the same tool calls");
    const end = finished(events);
    expect(end).toMatchObject({ reason: "doom-loop", answer: "I could not read the file with the tools I have." });
    expect(end.text).toContain(`Stopped: ${reason}`);
    expect(fake.violations).toEqual([]);
  });

  it("stops two calls taking turns (A B A B): the fourth is not run", async () => {
    const a = await agent();
    const structure = '<tool_call name="get_structure"><path>packages/core</path></tool_call>';
    for (const call of [getLines(1), structure, getLines(1), structure]) fake.reply().text(call);
    fake.reply().text("Money is in packages/core.");
    const { events, stats } = await a.turn("Where is Money?");
    expect(fake.chatRequests).toHaveLength(5);
    expect(stats.toolCalls).toBe(3);
    expect(events.find((e) => e.type === "loop-detected")).toMatchObject({ reason: expect.stringContaining("alternating between the same two calls (get_lines, get_structure, get_lines, get_structure)") });
    expect(lastMessage(4).content).toContain(CLOSING);
    // The stopped call still has its result, right before the closing instruction (one user message).
    const last = fake.chatRequests[4]!.messages.at(-1)!.content;
    expect(last.indexOf("Stopped: this call repeats earlier ones")).toBeGreaterThanOrEqual(0);
    expect(last.indexOf("Stopped: this call repeats earlier ones")).toBeLessThan(last.indexOf(CLOSING));
    expect(finished(events)).toMatchObject({ reason: "doom-loop", answer: "Money is in packages/core." });
  });
});

describe("calls in one reply", () => {
  it("get their results in the order they were made, the ones that failed to parse or validate in their place", async () => {
    const a = await agent();
    fake.reply().text(
      getLines(1) +
        '\n<tool_call name="read_file"><path>a.ts</path></tool_call>' +
        '\n<tool_call name="get_lines"></tool_call>' +
        '\n<tool_call>{"name": "get_lines", "arguments": "not json"}</tool_call>' +
        '\n<tool_call name="get_structure"><path>packages/core</path></tool_call>',
    );
    fake.reply().text("Done.");
    await a.turn("Look around");
    expect(resultsIn(1)).toEqual(["get_lines true", "read_file false", "get_lines false", "get_lines false", "get_structure true"]);
    const ids = [...lastMessage(1).content.matchAll(/call_id="([^"]+)"/g)].map((m) => m[1]!);
    expect(new Set(ids).size).toBe(5);
    const content = lastMessage(1).content;
    expect(content.indexOf('There is no tool named "read_file"')).toBeLessThan(content.indexOf("Invalid arguments for get_lines"));
    expect(content.indexOf("Invalid arguments for get_lines")).toBeLessThan(content.indexOf('its "arguments" string is not JSON'));
  });

  it("reads Qwen3's <function=…> without <tool_call> around it as a call, not as the answer", async () => {
    const a = await agent();
    fake.reply().text(`Let me read it.\n<function=get_lines>\n<parameter=path>\n${MONEY}\n</parameter>\n<parameter=start>\n8\n</parameter>\n<parameter=end>\n8\n</parameter>\n</function>\n</tool_call>`);
    fake.reply().text("Money starts on line 8.");
    const { events } = await a.turn("Where does Money start?");
    expect(events.find((e) => e.type === "tool-call")).toMatchObject({ name: "get_lines", args: { path: MONEY, start: "8", end: "8" } });
    expect(streamed(events)).not.toContain("function=");
    expect(streamed(events)).not.toContain("tool_call");
    expect(lastMessage(1).content).toContain("8│ export class Money implements MoneyLike {");
    expect(finished(events)).toMatchObject({ reason: "answer", text: "Money starts on line 8." });
  });
});
