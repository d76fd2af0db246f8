// Ignored files a command changes or deletes (`.env`, `*.log` next to the code): the index holds no
// copy of them, so command tracking copies the small ones before each command and a code rewind brings
// them back; one over the copy's limits is named as not restored, never passed over in silence. Ignored
// folders (node_modules) are still not walked. Real Redis, real files, a fake Ollama driving the agent.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { copyIgnoredFiles } from "../../../src/main/checkpoints/ignored-copies.js";
import { walkProject } from "../../../src/main/checkpoints/project-walk.js";
import { rewindResultText } from "../../../src/main/cli/commands/rewind-command.js";
import type { FakeOllama } from "../../helpers/fake-ollama.js";
import { buildAcmeShop, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";
import { startAgent, type AgentUnderTest } from "../session/agent-harness.js";
import { closeAgentProject, commandTurn, useHomeAndFakeModel } from "./checkpoint-harness.js";

const server = useRedisServer();
const LOGGER = "packages/core/src/logger.ts";
let fake: FakeOllama;
let project: IndexedProject | null = null;
let agent: AgentUnderTest | null = null;

const abs = (rel: string) => path.join(project!.root, rel);
const read = (rel: string) => (fs.existsSync(abs(rel)) ? fs.readFileSync(abs(rel), "utf8") : null);

useHomeAndFakeModel((f) => {
  fake = f;
});
afterEach(async () => {
  if (agent && project) await closeAgentProject(agent, project, fake);
  agent = null;
  project = null;
});

/** acme-shop (its .gitignore has `*.log`) plus `files`, indexed, with an agent in checkpoints mode `mode`. */
async function start(files: Record<string, string | Buffer>, mode: "tools" | "shadow-git" = "tools"): Promise<AgentUnderTest> {
  const root = buildAcmeShop();
  writeTree(root, files);
  project = await openIndexedProject(root, server().url);
  await project.reindex();
  agent = await startAgent(project, fake, { ...project.config, checkpoints: { ...project.config.checkpoints, mode } });
  return agent;
}

const runCommand = (a: AgentUnderTest, command: string) => commandTurn(fake, a, command);

describe("ignored files a command changes", () => {
  it("rm of a gitignored log and a source file: a code rewind brings back both", async () => {
    const a = await start({ "notes.log": "what happened\n" });
    const logger = read(LOGGER);
    await runCommand(a, `rm notes.log ${LOGGER}`);
    expect(read("notes.log")).toBeNull();
    expect(read(LOGGER)).toBeNull();

    const rewind = a.runtime.checkpoints.rewind;
    expect((await rewind.preview(1)).code).toMatchObject({
      changes: [expect.objectContaining({ path: "notes.log", action: "create" }), expect.objectContaining({ path: LOGGER, action: "create" })],
      conflicts: [],
      skipped: [],
    });
    const result = await rewind.rewind({ point: 1, mode: "code" });
    expect(result).toMatchObject({ restored: ["notes.log", LOGGER], conflicts: [], skipped: [] });
    expect(read("notes.log")).toBe("what happened\n");
    expect(read(LOGGER)).toBe(logger);
  });

  it("shadow-git: a gitignored .env a command deleted comes back, with its mode; one it rewrote is a conflict until overwrite", async () => {
    const a = await start({ ".gitignore": "dist/\n*.log\ncoverage/\n.env\n", ".env": "TOKEN=one\n", "apps/.env": "PORT=1\n" }, "shadow-git");
    fs.chmodSync(abs(".env"), 0o600);
    fs.writeFileSync(abs("scripts/env.mjs"), 'import fs from "node:fs";\nfs.rmSync(".env");\nfs.writeFileSync("apps/.env", "PORT=2\\n");\n');
    await runCommand(a, "node scripts/env.mjs");
    expect(read(".env")).toBeNull();

    const rewind = a.runtime.checkpoints.rewind;
    const careful = await rewind.rewind({ point: 1, mode: "code" });
    expect(careful).toMatchObject({ restored: [".env"], conflicts: ["apps/.env"], skipped: [] });
    expect(read(".env")).toBe("TOKEN=one\n");
    expect(fs.statSync(abs(".env")).mode & 0o777).toBe(0o600);
    expect(read("apps/.env")).toBe("PORT=2\n");
    const forced = await rewind.rewind({ point: 1, mode: "code", onConflict: "overwrite" });
    expect(forced.restored).toEqual(["apps/.env"]);
    expect(read("apps/.env")).toBe("PORT=1\n");
  });

  it("an ignored file over the copy's size limit is named as not restored, with no copy from before", async () => {
    const big = "x".repeat(1536 * 1024); // 1.5 MiB: under checkpoints.maxFileBytes, over the 1 MiB copy limit
    const a = await start({ "big.log": big });
    await runCommand(a, "rm big.log");
    const result = await a.runtime.checkpoints.rewind.rewind({ point: 1, mode: "code", dryRun: true });
    expect(result.skipped).toEqual([{ path: "big.log", reason: "not_copied" }]);
    expect(rewindResultText(result)).toMatch(/^not restored: big\.log: changed by a command; it is ignored, .*: no copy from before$/m);
  });

  it("files in ignored folders are not walked (node_modules, dist): a rewind does not know what a command did there", async () => {
    const a = await start({});
    await runCommand(a, "rm node_modules/react/index.js dist/index.js");
    const preview = await a.runtime.checkpoints.rewind.preview(1);
    expect(preview.code).toMatchObject({ changes: [], conflicts: [], skipped: [] });
  });
});

describe("the copy of ignored files before a command", () => {
  it("walks ignored files of kept folders only when asked, marked ignored; ignored folders stay out", async () => {
    const root = makeTempDir("ipuaro-walk-ignored-");
    try {
      writeTree(root, { ".gitignore": "*.log\nout/\n", "a.ts": "a", "x.log": "log", "src/y.log": "log", "out/z.ts": "z", "src/b.ts": "b" });
      const plain = (await walkProject(root, { ignorePatterns: [], limit: 100 }))!;
      expect([...plain.files.keys()].sort()).toEqual([".gitignore", "a.ts", "src/b.ts"]);
      const walked = (await walkProject(root, { ignorePatterns: [], limit: 100, ignoredFiles: true }))!;
      expect([...walked.files].filter(([, e]) => e.ignored).map(([rel]) => rel).sort()).toEqual(["src/y.log", "x.log"]);
      expect(walked.files.has("out/z.ts")).toBe(false);
      expect([...walked.dirs]).toEqual(["src"]);
    } finally {
      removeDir(root);
    }
  });

  it("copies the smallest ignored files first within the per-file and total limits, and reuses a copy while the file is untouched", async () => {
    const root = makeTempDir("ipuaro-copies-");
    try {
      writeTree(root, { ".gitignore": "*.log\n.env\n", ".env": "A=1\n", "b.log": "b".repeat(10), "c.log": "c".repeat(30), "d.log": "d".repeat(15), "e.ts": "not ignored" });
      // Old enough for a copy to be trusted on the next command (see MTIME_SLACK_MS).
      const past = new Date(Date.now() - 60_000);
      for (const f of [".env", "b.log", "c.log", "d.log"]) fs.utimesSync(path.join(root, f), past, past);
      const walk = async () => (await walkProject(root, { ignorePatterns: [], limit: 100, ignoredFiles: true }))!.files;
      const limits = { fileBytes: 20, totalBytes: 20 };
      const first = await copyIgnoredFiles(root, await walk(), new Map(), limits);
      // c.log is over the per-file limit; d.log would take the total past 20 bytes.
      expect([...first.keys()].sort()).toEqual([".env", "b.log"]);
      expect(first.get(".env")!.bytes.toString()).toBe("A=1\n");
      const second = await copyIgnoredFiles(root, await walk(), first, limits);
      expect(second.get(".env")).toBe(first.get(".env"));
      fs.writeFileSync(path.join(root, ".env"), "A=2\n");
      const third = await copyIgnoredFiles(root, await walk(), second, limits);
      expect(third.get(".env")!.bytes.toString()).toBe("A=2\n");
    } finally {
      removeDir(root);
    }
  });
});
