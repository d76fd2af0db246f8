// Tool calls the model wrote but ipuaro could not run as written (cut off, unreadable JSON, a tool that does
// not exist), against a fake Ollama: the model is told what went wrong, and the user sees each one as a
// failed call with the reason in a few words, counted in the turn's stats — live, and replayed from the
// session alike. Also a call in a ```xml fence: run (qwen2.5-coder wraps real calls so), its fence not shown.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../src/main/agent/events.js";
import type { TurnEvent } from "../../../src/main/agent/orchestrator.js";
import { playTurn } from "../../../src/ui/app/turn-runner.js";
import { replaySession } from "../../../src/ui/chat/session-replay.js";
import { Transcript, type AgentEntry } from "../../../src/ui/chat/transcript.js";
import { FakeOllama } from "../../helpers/fake-ollama.js";
import { closeIndexedProject, openIndexedAcmeShop, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { startAgent, type AgentUnderTest } from "../session/agent-harness.js";

const server = useRedisServer();
let project: IndexedProject;
let fake: FakeOllama;

beforeAll(async () => void (project = await openIndexedAcmeShop(server().url)));
afterAll(() => closeIndexedProject(project));
afterEach(async () => {
  await fake?.close();
});

const MONEY = "packages/core/src/money.ts";

async function agent(): Promise<AgentUnderTest> {
  fake = await new FakeOllama().start();
  return startAgent(project, fake, project.config);
}

/** What the user is shown, in order: text (streamed pieces joined), calls and their results. */
function shown(events: TurnEvent[]): string[] {
  const out: string[] = [];
  for (const e of events) {
    if (e.type === "text") {
      if (out.at(-1)?.startsWith("text: ")) out[out.length - 1] += e.text;
      else out.push(`text: ${e.text}`);
    } else if (e.type === "tool-call") out.push(`call: [${e.title}]`);
    else if (e.type === "tool-result") out.push(`result: ${e.result.success ? "ok" : `✗ ${e.result.error}`}`);
  }
  return out;
}

const finished = (events: TurnEvent[]) => events.find((e): e is Extract<AgentEvent, { type: "finished" }> => e.type === "finished")!;
const lastMessage = (request: number) => fake.chatRequests[request]!.messages.at(-1)!;

/** The chat's blocks for the turn: as played live (turn-runner) and as replayed from the stored session. */
async function liveAndReplayed(a: AgentUnderTest, events: TurnEvent[]) {
  const live = new Transcript();
  await playTurn(
    (async function* () {
      yield* events;
    })(),
    { transcript: live, setActivity: () => {}, setContextPercent: () => {}, changed: () => {} },
  );
  const replayed = new Transcript();
  replaySession(replayed, a.runtime.session.messages(), (name, args) => a.runtime.registry.get(name)?.titleFor(args) ?? name);
  const blocks = (t: Transcript) =>
    (t.entries.find((e) => e.kind === "agent") as AgentEntry).blocks.map((b) =>
      b.kind === "text" ? `text: ${b.text.trim()}` : b.kind === "tool" ? `[${b.title}] ${b.status} ${b.summary ?? ""}`.trim() : `notice: ${b.text}`,
    );
  return { live: blocks(live), replayed: blocks(replayed) };
}

describe("a call the reply cut off", () => {
  it("is shown as a failed call and counted; the model is told, and its next reply starts apart from the last", async () => {
    const a = await agent();
    fake.reply().text(`Let me check <tool_call name="get_lines"><path>${MONEY}</path><start>abc</start>`);
    fake.reply().text("Next");
    const { events, stats } = await a.turn("What does Money start with?");
    expect(shown(events)).toEqual([
      "text: Let me check ",
      "call: [get_lines]",
      "result: ✗ incomplete call: the reply ended before </tool_call>",
      "text: Next",
    ]);
    expect(stats.toolCalls).toBe(1);
    expect(finished(events)).toMatchObject({ reason: "answer", text: "Next" });
    expect(lastMessage(1).content).toContain("The tool call is incomplete: the reply ended before </tool_call>.");
    // The stored call keeps the reason, so a replay of the session shows it as the turn did.
    const reply = a.runtime.session.messages().find((m) => m.role === "assistant")!;
    expect(reply.toolCalls).toEqual([expect.objectContaining({ name: "get_lines", malformed: true, reason: "incomplete call: the reply ended before </tool_call>" })]);
    const { live, replayed } = await liveAndReplayed(a, events);
    expect(live).toEqual(["text: Let me check", "[get_lines] error incomplete call: the reply ended before </tool_call>", "text: Next"]);
    expect(replayed).toEqual(live);
    expect(fake.violations).toEqual([]);
  });
});

describe("calls that cannot be run as written", () => {
  it("a tool that does not exist and broken JSON: each a failed call with its reason, in the order made", async () => {
    const a = await agent();
    fake.reply().text(
      "Trying two things.\n" +
        '<tool_call name="frobnicate"><target>all</target></tool_call>\n' +
        '<tool_call>{"name": "get_lines", "arguments": {"path": packages/core/src/money.ts}}</tool_call>',
    );
    fake.reply().text("Neither worked.");
    const { events, stats } = await a.turn("Frobnicate everything");
    expect(shown(events)).toEqual([
      // The line between the two calls streams too.
      "text: Trying two things.\n\n",
      "call: [frobnicate]",
      "result: ✗ unknown tool",
      "call: [get_lines]",
      "result: ✗ unreadable call: its JSON could not be read",
      "text: Neither worked.",
    ]);
    expect(stats.toolCalls).toBe(2);
    const results = lastMessage(1).content;
    expect(results).toContain('There is no tool named "frobnicate"');
    expect(results).toContain("The tool call could not be read: its JSON could not be read (");
    const { live, replayed } = await liveAndReplayed(a, events);
    expect(live).toEqual([
      "text: Trying two things.",
      "[frobnicate] error unknown tool",
      "[get_lines] error unreadable call: its JSON could not be read",
      "text: Neither worked.",
    ]);
    expect(replayed).toEqual(live);
  });

  it("a broken call in a ```json fence: the fence is not shown, the failed call is", async () => {
    const a = await agent();
    fake.reply().text('Reading it.\n```json\n{"name": "get_lines", "arguments": {"path": packages/core/src/money.ts}}\n```\n');
    fake.reply().text("Could not read it.");
    const { events } = await a.turn("Read money.ts");
    expect(shown(events)).toEqual(["text: Reading it.\n", "call: [get_lines]", "result: ✗ unreadable call: its JSON could not be read", "text: Could not read it."]);
    const { live, replayed } = await liveAndReplayed(a, events);
    expect(replayed).toEqual(live);
  });

  it("the same unreadable call three times: each shown, the third as stopped by the loop guard", async () => {
    const a = await agent();
    for (let i = 0; i < 3; i++) fake.reply().text('<tool_call name="read_file"><path>a.ts</path></tool_call>');
    fake.reply().text("I could not read it.");
    const { events, stats } = await a.turn("What is in a.ts?");
    expect(shown(events).filter((s) => s.startsWith("result: "))).toEqual([
      "result: ✗ unknown tool",
      "result: ✗ unknown tool",
      "result: ✗ Stopped: this call repeats earlier ones without progress. Answer with what you have.",
    ]);
    // The stopped one is not counted, as a valid call the guard stopped is not.
    expect(stats.toolCalls).toBe(2);
    const { live, replayed } = await liveAndReplayed(a, events);
    const calls = (blocks: string[]) => blocks.filter((b) => b.startsWith("["));
    expect(calls(live)).toEqual([
      "[read_file] error unknown tool",
      "[read_file] error unknown tool",
      "[read_file] error Stopped: this call repeats earlier ones without progress.",
    ]);
    expect(calls(replayed)).toEqual(calls(live));
  });
});

describe("a call in a ```xml fence", () => {
  it("is run (qwen2.5-coder wraps its real calls so), and its emptied fence is not streamed", async () => {
    const a = await agent();
    fake.reply().text('Let me look.\n```xml\n<tool_call name="get_structure"><path>packages/core</path></tool_call>\n```\n');
    fake.reply().text("Money is in packages/core.");
    const { events } = await a.turn("Where is Money?");
    expect(shown(events)).toEqual(["text: Let me look.\n", "call: [get_structure packages/core]", "result: ok", "text: Money is in packages/core."]);
    const { live, replayed } = await liveAndReplayed(a, events);
    // The summary shown beside a call that worked is stored with its result, so a replay shows it too.
    expect(live[1]).toMatch(/^\[get_structure packages\/core\] ok \d+ files$/);
    expect(replayed).toEqual(live);
    expect(replayed[0]).toBe("text: Let me look.");
  });
});
