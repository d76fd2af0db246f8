// A rewind of both conversation and code that could not restore every file: the conversation goes back,
// so the model must be told which files still hold later changes (it would otherwise trust them).
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FakeOllama } from "../../helpers/fake-ollama.js";
import { buildAcmeShop, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { MONEY, STRINGS, closeAgentProject, scriptTwoEdits, useHomeAndFakeModel } from "./checkpoint-harness.js";
import { startAgent, type AgentUnderTest } from "../session/agent-harness.js";

const server = useRedisServer();
let fake: FakeOllama;
let project: IndexedProject;
let agent: AgentUnderTest;

const abs = (rel: string) => path.join(project.root, rel);
const read = (rel: string) => fs.readFileSync(abs(rel), "utf8");

useHomeAndFakeModel((f) => {
  fake = f;
});
beforeEach(async () => {
  project = await openIndexedProject(buildAcmeShop(), server().url);
  await project.reindex();
  agent = await startAgent(project, fake, project.config);
});
afterEach(() => closeAgentProject(agent, project, fake));

async function twoEditsTurn(): Promise<void> {
  scriptTwoEdits(fake);
  await agent.turn("Rename both things");
}

describe("rewind of both with a file left as it is", () => {
  it("adds a note naming the conflicted file, so the model does not trust the rewound conversation about it", async () => {
    fake.reply().text("Hello.");
    await agent.turn("Hi");
    const strings = read(STRINGS);
    await twoEditsTurn();
    fs.appendFileSync(abs(MONEY), "// by hand, after the turn\n");

    const result = await agent.runtime.checkpoints.rewind.rewind({ point: 2, mode: "both" });
    expect(result).toMatchObject({ restored: [STRINGS], conflicts: [MONEY], draft: "Rename both things" });
    expect(read(STRINGS)).toBe(strings);
    expect(read(MONEY)).toContain("// by hand, after the turn");
    expect(result.notes).toHaveLength(1);
    expect(result.notes[0]).toContain(`rewound to before message 2 ("Rename both things"), except ${MONEY}`);
    const messages = agent.runtime.session.messages();
    expect(messages.map((m) => m.content)).toEqual(["Hi", "Hello.", result.notes[0]]);
    expect(messages.at(-1)).toMatchObject({ role: "user", note: "rewind" });

    // The next request carries the note and the new message as one user message: never two in a row.
    fake.reply().text("Renaming again.");
    await agent.turn("Rename them again");
    const sent = fake.requests.at(-1)!.chat!.messages;
    const roles = sent.map((m) => m.role);
    expect(roles.some((r, i) => r === "user" && roles[i + 1] === "user")).toBe(false);
    expect(sent.at(-1)).toMatchObject({ role: "user", content: `${result.notes[0]}\n\nRename them again` });
  });

  it("adds no note when every file was restored", async () => {
    await twoEditsTurn();
    const result = await agent.runtime.checkpoints.rewind.rewind({ point: 1, mode: "both" });
    expect(result).toMatchObject({ restored: [MONEY, STRINGS], conflicts: [], notes: [] });
    expect(agent.runtime.session.messages()).toEqual([]);
  });
});
