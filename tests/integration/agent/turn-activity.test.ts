// What a turn reports of the model's work beside its text, for a UI's "thinking… / writing… / no output
// for N s" line: each request going out, and chunks that show nothing (a tool call being written).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FakeOllama, xmlToolCall } from "../../helpers/fake-ollama.js";
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

describe("a turn's activity events", () => {
  it("a request event before each request; writing events (at most one a second) while a tool call streams unseen", async () => {
    fake = await new FakeOllama().start();
    const agent = await startAgent(project, fake, project.config);
    fake.reply().text(xmlToolCall("get_lines", { path: "packages/core/src/money.ts", start: 1, end: 2 })).chunkDelay(90);
    fake.reply().text("It starts with the imports.");
    const { events } = await agent.turn("What is at the top of money.ts?");
    const kinds = events.map((e) => e.type).filter((t) => ["request", "writing", "text", "tool-call", "response"].includes(t));
    // First request: nothing shown while the call streams (≈ 1.5 s), but the model is seen at work.
    const firstResponse = kinds.indexOf("response");
    const first = kinds.slice(0, firstResponse);
    expect(first[0]).toBe("request");
    expect(first).not.toContain("text");
    const writing = first.filter((k) => k === "writing").length;
    expect(writing).toBeGreaterThanOrEqual(2);
    expect(writing).toBeLessThanOrEqual(3);
    // Second request: announced again, then its text.
    const second = kinds.slice(kinds.indexOf("tool-call") + 1);
    expect(second[0]).toBe("request");
    expect(second).toContain("text");
    agent.runtime.checkpoints.close();
    fake.assertAllConsumed();
  });
});
