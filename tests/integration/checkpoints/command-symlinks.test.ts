// Symlinks a command deletes or re-points (`rm link`, `ln -sfn`): a code rewind makes the link again
// with its old target, never writing through it; a link a command created is deleted only when the user
// says overwrite, and what it points to is left alone. Tools mode from the walks around the command,
// shadow-git mode from git's own record of the link. Real Redis, real files, a fake Ollama.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FakeOllama } from "../../helpers/fake-ollama.js";
import { buildAcmeShop, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";
import { startAgent, type AgentUnderTest } from "../session/agent-harness.js";
import { closeAgentProject, commandTurn, useHomeAndFakeModel } from "./checkpoint-harness.js";

const server = useRedisServer();
let fake: FakeOllama;
let project: IndexedProject | null = null;
let agent: AgentUnderTest | null = null;
let outside: string | null = null;

const abs = (rel: string) => path.join(project!.root, rel);
const link = (rel: string) => {
  try {
    return fs.readlinkSync(abs(rel));
  } catch {
    return null;
  }
};

useHomeAndFakeModel((f) => {
  fake = f;
});
afterEach(async () => {
  if (agent && project) await closeAgentProject(agent, project, fake);
  agent = null;
  project = null;
  if (outside) removeDir(outside);
  outside = null;
});

/** acme-shop with `links` (path → target) made, indexed, with an agent in checkpoints mode `mode`. */
async function start(links: Record<string, string>, mode: "tools" | "shadow-git" = "tools"): Promise<AgentUnderTest> {
  const root = buildAcmeShop();
  for (const [rel, target] of Object.entries(links)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.symlinkSync(target, path.join(root, rel));
  }
  project = await openIndexedProject(root, server().url);
  await project.reindex();
  agent = await startAgent(project, fake, { ...project.config, checkpoints: { ...project.config.checkpoints, mode } });
  return agent;
}

const runCommand = (a: AgentUnderTest, command: string) => commandTurn(fake, a, command);

describe.each(["tools", "shadow-git"] as const)("symlinks a command changes (%s mode)", (mode) => {
  it("a deleted link comes back with its old target; a re-pointed one is the command's change, a conflict until overwrite", async () => {
    const a = await start({ "packages/core/src/current.ts": "money.ts", "docs/latest": "../README.md" }, mode);
    await runCommand(a, "rm packages/core/src/current.ts && ln -sfn ../package.json docs/latest");
    expect(link("packages/core/src/current.ts")).toBeNull();
    expect(link("docs/latest")).toBe("../package.json");

    const rewind = a.runtime.checkpoints.rewind;
    expect((await rewind.preview(1)).code).toMatchObject({
      changes: [expect.objectContaining({ path: "packages/core/src/current.ts", action: "create" })],
      conflicts: [expect.objectContaining({ path: "docs/latest", action: "restore" })],
      skipped: [],
    });
    const careful = await rewind.rewind({ point: 1, mode: "code" });
    expect(careful).toMatchObject({ restored: ["packages/core/src/current.ts"], conflicts: ["docs/latest"], skipped: [] });
    expect(link("packages/core/src/current.ts")).toBe("money.ts");
    expect(link("docs/latest")).toBe("../package.json");
    const forced = await rewind.rewind({ point: 1, mode: "code", onConflict: "overwrite" });
    expect(forced).toMatchObject({ restored: ["docs/latest"], skipped: [] });
    expect(link("docs/latest")).toBe("../README.md");
    // Nothing was written through the links.
    expect(fs.readFileSync(abs("package.json"), "utf8")).toContain('"name"');
    // Rewinding again finds nothing to do: the links are what the checkpoint recorded.
    expect((await rewind.preview(1)).code).toMatchObject({ changes: [], conflicts: [], skipped: [] });
  });

  it("a link a command created is a conflict; overwrite deletes the link and leaves its target", async () => {
    outside = makeTempDir("ipuaro-link-target-");
    writeTree(outside, { "secret.txt": "not yours\n" });
    const a = await start({}, mode);
    await runCommand(a, `ln -s ${path.join(outside, "secret.txt")} notes.txt`);
    const rewind = a.runtime.checkpoints.rewind;
    const careful = await rewind.rewind({ point: 1, mode: "code" });
    expect(careful).toMatchObject({ restored: [], deleted: [], conflicts: ["notes.txt"] });
    expect(link("notes.txt")).toBe(path.join(outside, "secret.txt"));
    const forced = await rewind.rewind({ point: 1, mode: "code", onConflict: "overwrite" });
    expect(forced).toMatchObject({ deleted: ["notes.txt"], skipped: [] });
    expect(link("notes.txt")).toBeNull();
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("not yours\n");
  });
});

describe("a link re-pointed by hand after the command", () => {
  it("is a conflict: the rewind does not take the user's change back unless told to", async () => {
    const a = await start({ "docs/latest": "../README.md" });
    await runCommand(a, "rm docs/latest");
    fs.symlinkSync("../CHANGELOG.md", abs("docs/latest"));
    const rewind = a.runtime.checkpoints.rewind;
    const careful = await rewind.rewind({ point: 1, mode: "code" });
    expect(careful).toMatchObject({ restored: [], conflicts: ["docs/latest"] });
    expect(link("docs/latest")).toBe("../CHANGELOG.md");
    const forced = await rewind.rewind({ point: 1, mode: "code", onConflict: "overwrite" });
    expect(forced.restored).toEqual(["docs/latest"]);
    expect(link("docs/latest")).toBe("../README.md");
  });
});
