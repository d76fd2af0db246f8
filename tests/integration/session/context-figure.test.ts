// The context figure (status bar `[ctx: N%]`, /status) describes the history as it is: after a rewind it
// is the shorter history's (estimated as before a first request), a session opened again keeps that, and
// while Ollama has not answered (the window only the configured 128K) no share of that window is made up.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DeferredModelCheck } from "../../../src/main/llm/deferred-model-check.js";
import { OllamaClient } from "../../../src/main/llm/ollama-client.js";
import { SessionStore } from "../../../src/main/session/session-store.js";
import { DEFAULT_FAKE_MODEL, FakeOllama, unusedLoopbackUrl } from "../../helpers/fake-ollama.js";
import { closeIndexedProject, openIndexedAcmeShop, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";
import { startAgent } from "./agent-harness.js";

const server = useRedisServer();
let project: IndexedProject;
let fake: FakeOllama;
let home = "";
const savedHome = process.env.IPUARO_HOME;

beforeAll(async () => {
  home = makeTempDir("ipuaro-home-");
  process.env.IPUARO_HOME = home;
  project = await openIndexedAcmeShop(server().url);
});
afterAll(async () => {
  await closeIndexedProject(project);
  removeDir(home);
  if (savedHome === undefined) delete process.env.IPUARO_HOME;
  else process.env.IPUARO_HOME = savedHome;
});
afterEach(async () => {
  await fake?.close();
});

/** A client for an Ollama that is not running: its window is only the configured one. */
async function ollamaDown(): Promise<DeferredModelCheck> {
  return new DeferredModelCheck(new OllamaClient({ host: await unusedLoopbackUrl(), model: DEFAULT_FAKE_MODEL, contextWindow: 128000, temperature: 0 }), () => {});
}

const stored = async (id: string) => (await new SessionStore(project.redis, project.store.projectName).load(id))!.context;

describe("the context figure", () => {
  it("after a rewind is the shorter history's, saved; reopened (Ollama down) it stays, against the last window known", async () => {
    fake = await new FakeOllama().start();
    const agent = await startAgent(project, fake, project.config);
    fake.reply().text("Short.");
    await agent.turn("First question");
    const afterFirst = agent.runtime.session.state.context.tokensUsed;
    fake.reply().text("A long answer about money and cents. ".repeat(300));
    await agent.turn("Second question");
    const context = agent.runtime.session.state.context;
    const big = context.tokensUsed;
    expect(big).toBeGreaterThan(afterFirst + 2000);
    expect(context.tokensLimit).toBe(32768);

    await agent.runtime.checkpoints.rewind.rewind({ point: 2, mode: "conversation" });
    // The count of the history rewound away is gone: an estimate of what is left (the fixed part too).
    expect(context.measuredMessages).toBeUndefined();
    expect(context.tokensUsed).toBeLessThan(big - 2000);
    expect(Math.abs(context.tokensUsed - afterFirst)).toBeLessThan(afterFirst * 0.25);
    expect(context.tokensLimit).toBe(32768);
    const rewound = context.tokensUsed;
    await new Promise((r) => setTimeout(r, 50)); // the save after a rewind is not awaited by the rewind
    expect(await stored(agent.runtime.session.id)).toMatchObject({ tokensUsed: rewound, tokensLimit: 32768 });
    agent.runtime.checkpoints.close();

    // Opened again while Ollama is down: the figure is of this history, against the window last known.
    const down = await ollamaDown();
    const reopened = await startAgent(project, fake, project.config, { kind: "id", id: agent.runtime.session.id }, { wrapLlm: () => down });
    const again = reopened.runtime.session.state.context;
    expect(again.tokensLimit).toBe(32768);
    expect(Math.abs(again.tokensUsed - rewound)).toBeLessThan(rewound * 0.1);
    reopened.runtime.checkpoints.close();
    fake.assertAllConsumed();
  });

  it("a message sent while Ollama is down makes up no share of the configured 128K", async () => {
    fake = await new FakeOllama().start();
    const down = await ollamaDown();
    const agent = await startAgent(project, fake, project.config, { kind: "new" }, { wrapLlm: () => down });
    const { events } = await agent.turn("Hi");
    expect(events.at(-1)).toMatchObject({ type: "finished" });
    expect(events.filter((e) => e.type === "context")).toEqual([]);
    expect(agent.runtime.session.state.context.tokensLimit).toBe(0);
    agent.runtime.checkpoints.close();
  });
});
