// What the checkpoint tests share: a temp IPUARO_HOME (checkpoint backups live under it) and a fake
// Ollama, both for the whole file.
import { afterAll, beforeAll } from "vitest";
import { FakeOllama, xmlToolCall } from "../../helpers/fake-ollama.js";
import type { IndexedProject } from "../../helpers/indexed-project.js";
import type { AgentUnderTest } from "../session/agent-harness.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";

/** Starts both before the file's tests and hands them over through `set`; restores IPUARO_HOME after. */
export function useHomeAndFakeModel(set: (fake: FakeOllama, home: string) => void): void {
  const savedHome = process.env.IPUARO_HOME;
  let fake: FakeOllama | null = null;
  let home = "";
  beforeAll(async () => {
    home = makeTempDir("ipuaro-home-");
    process.env.IPUARO_HOME = home;
    fake = await new FakeOllama().start();
    set(fake, home);
  });
  afterAll(async () => {
    await fake?.close();
    removeDir(home);
    if (savedHome === undefined) delete process.env.IPUARO_HOME;
    else process.env.IPUARO_HOME = savedHome;
  });
}

export const MONEY = "packages/core/src/money.ts";
export const STRINGS = "packages/core/src/utils/strings.ts";

/** The turn most rewind tests start from: the model reads money.ts and strings.ts, edits both, answers. */
export function scriptTwoEdits(fake: FakeOllama): void {
  fake.reply().text(`${xmlToolCall("get_lines", { path: MONEY, start: 1, end: 12 })}\n${xmlToolCall("get_lines", { path: STRINGS, start: 1, end: 7 })}`);
  fake.reply().text(
    `${xmlToolCall("edit_lines", { path: MONEY, start: 8, end: 8, content: "export class Money implements MoneyLike { // renamed" })}\n` +
      xmlToolCall("edit_lines", { path: STRINGS, start: 2, end: 2, content: "export function slugifyText(input: string): string {" }),
  );
  fake.reply().text("Both edited.");
}

/** One turn in which the model runs `command` with run_command, then answers. */
export async function commandTurn(fake: FakeOllama, agent: AgentUnderTest, command: string): Promise<void> {
  fake.reply().text(xmlToolCall("run_command", { command }));
  fake.reply().text("Done.");
  await agent.turn(`Run ${command}`);
}

/** After each test: detach the agent's checkpoints, check the script was used up, drop the project. */
export async function closeAgentProject(agent: AgentUnderTest, project: IndexedProject, fake: FakeOllama): Promise<void> {
  agent.runtime.checkpoints.close();
  fake.assertAllConsumed();
  fake.reset();
  await project.close();
  removeDir(project.root);
}
