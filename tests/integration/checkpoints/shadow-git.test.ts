// checkpoints.mode "shadow-git": a snapshot of the whole work tree per turn in ipuaro's own git dir,
// so a change a shell command made is restorable even when the index held no copy of the file.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CheckpointTracker } from "../../../src/main/checkpoints/checkpoint-tracker.js";
import { shadowGitDir } from "../../../src/main/checkpoints/shadow-git.js";
import { SessionStore } from "../../../src/main/session/session-store.js";
import { FakeOllama } from "../../helpers/fake-ollama.js";
import { buildAcmeShop, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { MONEY, closeAgentProject, useHomeAndFakeModel } from "./checkpoint-harness.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";
import { startAgent, type AgentUnderTest } from "../session/agent-harness.js";

const server = useRedisServer();
let fake: FakeOllama;
let project: IndexedProject;
let agent: AgentUnderTest;
let home: string;

const abs = (rel: string) => path.join(project.root, rel);
const read = (rel: string) => (fs.existsSync(abs(rel)) ? fs.readFileSync(abs(rel), "utf8") : null);

useHomeAndFakeModel((f, h) => {
  fake = f;
  home = h;
});
describe("shadow-git checkpoints", () => {
  beforeEach(async () => {
    const root = buildAcmeShop();
    writeTree(root, {
      "notes.md": "# Notes\n",
      "docs/guide.txt": "read me\n",
      "build.log": "ignored by .gitignore\n",
      "scripts/change.mjs": [
        'import fs from "node:fs";',
        'fs.appendFileSync("notes.md", "written by the script\\n");',
        'fs.rmSync("docs/guide.txt");',
        'fs.writeFileSync("docs/new.txt", "new\\n");',
        `fs.appendFileSync("${MONEY}", "// script\\n");`,
        'fs.appendFileSync("build.log", "more\\n");',
      ].join("\n"),
    });
    project = await openIndexedProject(root, server().url);
    await project.reindex();
    const config = { ...project.config, checkpoints: { ...project.config.checkpoints, mode: "shadow-git" as const } };
    agent = await startAgent(project, fake, config);
  });
  afterEach(() => closeAgentProject(agent, project, fake));

  it("restore a change made by run_command, files the index does not hold and ignored files in kept folders included", async () => {
    const money = read(MONEY);
    fake.reply().text('<tool_call name="run_command"><command>node scripts/change.mjs</command></tool_call>');
    fake.reply().text("Done.");
    await agent.turn("Run the script");
    expect(read("notes.md")).toBe("# Notes\nwritten by the script\n");
    const cp = agent.runtime.checkpoints.tracker.checkpoints()[0]!;
    expect(cp.shadowCommit).toMatch(/^[0-9a-f]{40}$/);
    expect(fs.existsSync(path.join(shadowGitDir(home, fs.realpathSync(project.root)), "HEAD"))).toBe(true);
    // The project is not a repository and does not become one.
    expect(fs.existsSync(path.join(project.root, ".git"))).toBe(false);

    const rewind = agent.runtime.checkpoints.rewind;
    const preview = await rewind.preview(1);
    // What the command deleted comes back as it is; what it wrote could be the user's work done
    // meanwhile, so it waits for overwrite (as in tools mode). build.log is gitignored, so the snapshot
    // leaves it out, but the command's walk copied it before the command ran.
    expect(preview.code!.changes.map((c) => [c.path, c.action])).toEqual([["docs/guide.txt", "create"]]);
    expect(preview.code!.conflicts.map((c) => [c.path, c.action])).toEqual([
      ["build.log", "restore"],
      ["docs/new.txt", "delete"],
      ["notes.md", "restore"],
      [MONEY, "restore"],
    ]);
    expect(preview.code!.skipped).toEqual([]);

    const result = await rewind.rewind({ point: 1, mode: "code", onConflict: "overwrite" });
    expect(result.skipped).toEqual([]);
    expect(read("notes.md")).toBe("# Notes\n");
    expect(read("docs/guide.txt")).toBe("read me\n");
    expect(read("docs/new.txt")).toBeNull();
    expect(read(MONEY)).toBe(money);
    expect(read("build.log")).toBe("ignored by .gitignore\n");
  });

  it("a file changed by hand after ipuaro's last change is a conflict, as in tools mode", async () => {
    fake.reply().text('<tool_call name="get_lines"><path>notes.md</path></tool_call>');
    fake.reply().text('<tool_call name="edit_lines"><path>notes.md</path><start>1</start><end>1</end><content># Notes, edited</content></tool_call>');
    fake.reply().text('<tool_call name="run_command"><command>node scripts/change.mjs</command></tool_call>');
    fake.reply().text("Done.");
    await agent.turn("Edit the notes and run the script");
    fs.writeFileSync(abs("notes.md"), "# Notes\nby hand\n");
    const result = await agent.runtime.checkpoints.rewind.rewind({ point: 1, mode: "code" });
    expect(result.conflicts).toEqual(["build.log", "docs/new.txt", "notes.md", MONEY]);
    expect(read("notes.md")).toBe("# Notes\nby hand\n");
    expect(result.restored).toContain("docs/guide.txt");
  });
});

describe("shadow-git guards", () => {
  let redis: Redis;
  let root: string;
  beforeAll(() => {
    redis = new Redis({ path: server().socket });
  });
  afterAll(() => redis.disconnect());
  beforeEach(() => {
    root = makeTempDir("ipuaro-guard-");
    writeTree(root, { "a.ts": "1\n", "b.ts": "2\n", "c.ts": "3\n" });
  });
  afterEach(() => removeDir(root));

  const tracker = async (limits: { maxFiles: number; maxSnapshotMs: number }, notices: string[]) => {
    const sessionId = (await new SessionStore(redis, "guards").create(root)).meta.id;
    return new CheckpointTracker({ root, sessionId, redis, settings: { mode: "shadow-git" }, ignorePatterns: [], home, onNotice: (m) => notices.push(m), shadowLimits: limits, readHead: async () => null });
  };

  it("falls back to tools mode with a notice above the file limit", async () => {
    const notices: string[] = [];
    const t = await tracker({ maxFiles: 2, maxSnapshotMs: 3000 }, notices);
    await t.beginTurn("u1");
    expect(t.activeMode).toBe("tools");
    expect(t.checkpointFor("u1")!.shadowCommit).toBeUndefined();
    expect(notices).toEqual([expect.stringContaining("shadow-git snapshots are off for this session (the project has more than 2 files)")]);
  });

  it("keeps the slow snapshot but takes no more after it", async () => {
    const notices: string[] = [];
    const t = await tracker({ maxFiles: 100, maxSnapshotMs: 0 }, notices);
    await t.beginTurn("u1");
    expect(t.checkpointFor("u1")!.shadowCommit).toMatch(/^[0-9a-f]{40}$/);
    expect(notices.join("\n")).toMatch(/a snapshot took [\d.]+ s \(limit 0 s\)/);
    await t.beginTurn("u2");
    expect(t.checkpointFor("u2")!.shadowCommit).toBeUndefined();
  });

  it("falls back when git cannot be run", async () => {
    const notices: string[] = [];
    const t = await tracker({ maxFiles: 100, maxSnapshotMs: 3000 }, notices);
    const savedPath = process.env.PATH;
    process.env.PATH = path.join(root, "no-bin-here");
    try {
      await t.beginTurn("u1");
    } finally {
      process.env.PATH = savedPath;
    }
    expect(t.activeMode).toBe("tools");
    expect(notices.join("\n")).toContain("git is not installed");
    // Nothing was written into the project by the attempt.
    expect(execFileSync("ls", ["-A", root], { encoding: "utf8" }).split("\n").filter(Boolean).sort()).toEqual(["a.ts", "b.ts", "c.ts"]);
  });
});
