// A code rewind that deletes files the model or a command created also removes the folders they were
// created in, once empty — down to, never past, the first folder that existed at the checkpoint or
// holds anything else. Real files, real Redis, a fake Ollama driving the agent.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { rewindResultText } from "../../../src/main/cli/commands/rewind-command.js";
import { FakeOllama, xmlToolCall as call } from "../../helpers/fake-ollama.js";
import { buildAcmeShop, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { startAgent, type AgentUnderTest } from "../session/agent-harness.js";
import { closeAgentProject, useHomeAndFakeModel } from "./checkpoint-harness.js";

const server = useRedisServer();
const SRC = "packages/core/src";
const NESTED = `${SRC}/features/deep/nested/flag.ts`;
let fake: FakeOllama;
let project: IndexedProject;
let agent: AgentUnderTest;

const abs = (rel: string) => path.join(project.root, rel);
const exists = (rel: string) => fs.existsSync(abs(rel));

useHomeAndFakeModel((f) => {
  fake = f;
});
beforeEach(async () => {
  project = await openIndexedProject(buildAcmeShop(), server().url);
  await project.reindex();
  agent = await startAgent(project, fake, project.config);
});
afterEach(() => closeAgentProject(agent, project, fake));

async function createFiles(...paths: string[]): Promise<void> {
  fake.reply().text(paths.map((p) => call("create_file", { path: p, content: "export const flag = true;\n" })).join("\n"));
  fake.reply().text("Created.");
  await agent.turn("Add the feature flag");
}

describe("folders a code rewind leaves empty", () => {
  it("rewinding a create_file removes the folders it made, up to the first one that existed", async () => {
    await createFiles(NESTED);
    expect(exists(NESTED)).toBe(true);
    const result = await agent.runtime.checkpoints.rewind.rewind({ point: 1, mode: "code" });
    expect(result.deleted).toEqual([NESTED]);
    expect(result.removedFolders).toEqual([`${SRC}/features`, `${SRC}/features/deep`, `${SRC}/features/deep/nested`]);
    expect(exists(`${SRC}/features`)).toBe(false);
    expect(exists(SRC)).toBe(true);
    expect(rewindResultText(result)).toContain(`removed empty folder ${SRC}/features/ and the 2 inside it (the files created there were deleted)`);
  });

  it("keeps a folder that holds anything else, and every folder above it; a dry run removes nothing", async () => {
    await createFiles(NESTED, `${SRC}/features/deep/other.ts`);
    // The user put a file of their own next to the new folders.
    fs.writeFileSync(abs(`${SRC}/features/README.md`), "mine\n");
    const rewind = agent.runtime.checkpoints.rewind;
    const dry = await rewind.rewind({ point: 1, mode: "code", dryRun: true });
    expect(dry.removedFolders).toEqual([]);
    expect(exists(`${SRC}/features/deep/nested`)).toBe(true);
    const result = await rewind.rewind({ point: 1, mode: "code" });
    expect(result.deleted).toEqual([NESTED, `${SRC}/features/deep/other.ts`]);
    // deep/ emptied only once both files were gone; features/ holds the user's file.
    expect(result.removedFolders).toEqual([`${SRC}/features/deep`, `${SRC}/features/deep/nested`]);
    expect(fs.readdirSync(abs(`${SRC}/features`))).toEqual(["README.md"]);
  });

  it("a file created in a folder that existed at the checkpoint leaves that folder alone, empty or not", async () => {
    fs.mkdirSync(abs(`${SRC}/empty-before`));
    await createFiles(`${SRC}/empty-before/flag.ts`);
    const result = await agent.runtime.checkpoints.rewind.rewind({ point: 1, mode: "code" });
    expect(result.deleted).toEqual([`${SRC}/empty-before/flag.ts`]);
    expect(result.removedFolders).toEqual([]);
    expect(fs.readdirSync(abs(`${SRC}/empty-before`))).toEqual([]);
  });

  it("folders a command created go too, once the rewind deletes its files (asked to overwrite)", async () => {
    fs.writeFileSync(abs("gen.mjs"), `import fs from "node:fs";\nfs.mkdirSync("${SRC}/gen/a/b", { recursive: true });\nfs.writeFileSync("${SRC}/gen/a/b/out.ts", "x\\n");\n`);
    fake.reply().text(call("run_command", { command: "node gen.mjs" }));
    fake.reply().text("Generated.");
    await agent.turn("Generate");
    const rewind = agent.runtime.checkpoints.rewind;
    // What a command wrote is a conflict (it may be the user's): nothing goes without overwrite.
    expect((await rewind.rewind({ point: 1, mode: "code" })).removedFolders).toEqual([]);
    const forced = await rewind.rewind({ point: 1, mode: "code", onConflict: "overwrite" });
    expect(forced.deleted).toEqual([`${SRC}/gen/a/b/out.ts`]);
    expect(forced.removedFolders).toEqual([`${SRC}/gen`, `${SRC}/gen/a`, `${SRC}/gen/a/b`]);
    expect(exists(`${SRC}/gen`)).toBe(false);
  });
});
