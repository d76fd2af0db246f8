// `ipuaro rewind`, `ipuaro doctor` and `ipuaro sessions prune` as separate processes: a session made by
// `ipuaro run` against a fake Ollama and a real Redis is listed, previewed and rewound headless.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runIpuaro, type CliResult } from "../helpers/cli.js";
import { FakeOllama, xmlToolCall as call } from "../helpers/fake-ollama.js";
import { buildAcmeShop } from "../helpers/indexed-project.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { makeTempDir, removeDir } from "../helpers/temp-dir.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "..", "..");
const ENTRY = path.join(REPO, "src", "main", "cli", "entry.ts");

const server = useRedisServer();
let root: string;
let home: string;
let fake: FakeOllama;

const MONEY = "packages/core/src/money.ts";
const STRINGS = "packages/core/src/utils/strings.ts";
const read = (rel: string) => fs.readFileSync(path.join(root, rel), "utf8");

function cli(...args: string[]): Promise<CliResult> {
  const env = { ...process.env, NO_COLOR: "1", IPUARO_REDIS_URL: server().url, OLLAMA_HOST: fake.url, XDG_CONFIG_HOME: path.join(home, "xdg"), IPUARO_HOME: home };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", ENTRY, ...args], { cwd: REPO, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end("");
  });
}

async function json(...args: string[]) {
  const r = await cli(...args, "--json");
  if (r.code !== 0) throw new Error(`ipuaro ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}

beforeAll(async () => {
  root = buildAcmeShop();
  home = makeTempDir("ipuaro-home-");
  fake = await new FakeOllama().start();
});
afterAll(async () => {
  await fake.close();
  removeDir(root);
  removeDir(home);
});
afterEach(() => {
  fake.assertAllConsumed();
  fake.reset();
});

describe("ipuaro rewind", () => {
  let money = "";
  let strings = "";
  let session = "";

  it("lists the points of the last session as JSON, oldest first, with what a code rewind would change", async () => {
    money = read(MONEY);
    strings = read(STRINGS);
    fake.reply().text("Money is in packages/core/src/money.ts.");
    session = (await json("run", "-p", "Where is Money?", root)).session;
    fake.reply().text(`${call("get_lines", { path: MONEY, start: 1, end: 12 })}\n${call("get_lines", { path: STRINGS, start: 1, end: 7 })}`);
    fake.reply().text(
      `${call("edit_lines", { path: MONEY, start: 8, end: 8, content: "export class Money implements MoneyLike { // renamed" })}\n` +
        call("edit_lines", { path: STRINGS, start: 2, end: 2, content: "export function slugifyText(input: string): string {" }),
    );
    fake.reply().text("Both edited.");
    const run = await json("run", "--continue", "--auto-apply", "-p", "Rename both things", root);
    expect(run.session).toBe(session);
    expect(read(MONEY)).not.toBe(money);

    const list = await json("rewind", "--list", root);
    expect(Object.keys(list)).toEqual(["points"]);
    expect(list.points.map((p: Record<string, unknown>) => Object.keys(p))).toEqual([
      ["n", "entryId", "message", "at", "files", "unrestorable", "insertions", "deletions"],
      ["n", "entryId", "message", "at", "files", "unrestorable", "insertions", "deletions"],
    ]);
    expect(list.points.map((p: { n: number; message: string; files: number; insertions: number; deletions: number }) => [p.n, p.message, p.files, p.insertions, p.deletions])).toEqual([
      [1, "Where is Money?", 2, 2, 2],
      [2, "Rename both things", 2, 2, 2],
    ]);
    expect(typeof list.points[0].at).toBe("number");

    const text = await cli("rewind", "--list", root, "--session", session);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`session ${session}`);
    expect(text.stdout).toMatch(/ {2}2 {2}.*Rename both things.*2 files \+2 −2/);
  });

  it("previews with --dry-run, then rewinds: a file changed by hand is a conflict, left alone", async () => {
    const dry = await json("rewind", "2", root, "--dry-run");
    expect(dry).toEqual({ restored: [MONEY, STRINGS], deleted: [], conflicts: [], skipped: [], warnings: [] });
    const said = await cli("rewind", "2", root, "--dry-run");
    expect(said.stdout).toContain(`would restore ${MONEY}`);
    expect(said.stdout).toContain("Would rewind the conversation to before message 2.");
    const conversationOnly = await cli("rewind", "2", root, "--dry-run", "--mode", "conversation");
    expect(conversationOnly.stdout.trim()).toBe("Would rewind the conversation to before message 2.");
    expect(read(MONEY)).not.toBe(money);

    const byHand = `${read(STRINGS)}// by hand\n`;
    fs.writeFileSync(path.join(root, STRINGS), byHand);
    // A preview changes nothing: 0, even when it lists a conflict.
    const preview = await cli("rewind", "2", root, "--dry-run");
    expect(preview.code).toBe(0);
    expect(preview.stdout).toContain(`conflict: ${STRINGS}`);
    // Done, but a file was left as a conflict: an exit code of its own, neither 0 nor an error's 1.
    const left = await cli("rewind", "2", root, "--json");
    expect(left.code).toBe(3);
    expect(JSON.parse(left.stdout)).toEqual({ restored: [MONEY], deleted: [], conflicts: [STRINGS], skipped: [], warnings: [] });
    expect(read(MONEY)).toBe(money);
    expect(read(STRINGS)).toBe(byHand);

    // The conversation went back to before message 2 (the old branch is kept in the session).
    const shown = await json("sessions", "show", session, root);
    const contents = shown.history.map((m: { content: string }) => m.content);
    expect(contents.slice(0, 2)).toEqual(["Where is Money?", "Money is in packages/core/src/money.ts."]);
    // The file left as the user changed it is named to the model, so it reads it again.
    expect(contents).toHaveLength(3);
    expect(contents[2]).toMatch(/^\[ipuaro note\] The conversation and the files were rewound to before message 2 .*, except packages\/core\/src\/utils\/strings\.ts: /);
    const list = await json("rewind", "--list", root);
    expect(list.points.map((p: { n: number; files: number }) => [p.n, p.files])).toEqual([[1, 1]]);
  });

  it("--mode code --on-conflict overwrite restores the conflicting file and keeps the conversation", async () => {
    const r = await cli("rewind", "1", root, "--mode", "code", "--on-conflict", "overwrite");
    expect(r.code).toBe(0);
    // From the hand-edited file back to the original: slugify comes back, slugifyText and the hand line go.
    expect(r.stdout).toContain(`restored ${STRINGS} (+1 −2)`);
    expect(read(STRINGS)).toBe(strings);
    const shown = await json("sessions", "show", session, root);
    expect(shown.history.map((m: { content: string }) => m.content).slice(0, 2)).toEqual(["Where is Money?", "Money is in packages/core/src/money.ts."]);
    expect(shown.history.at(-1)).toMatchObject({ role: "user", note: "rewind" });
  });

  it("says what is wrong with bad arguments", async () => {
    const noN = await cli("rewind", root);
    expect(noN.code).toBe(2);
    expect(noN.stderr).toContain("give the message number N to rewind to");
    const badMode = await cli("rewind", "1", root, "--mode", "sideways");
    expect(badMode.code).toBe(2);
    expect(badMode.stderr).toContain("--mode must be one of both, conversation, code");
    const badConflict = await cli("rewind", "1", root, "--on-conflict", "maybe");
    expect(badConflict.code).toBe(2);
    const missing = await cli("rewind", "9", root);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`no rewind point 9 in session ${session}`);
    const unknown = await cli("rewind", "1", root, "--session", "20990101-000000-beef");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no session 20990101-000000-beef");
  });
});

describe("ipuaro doctor and sessions prune", () => {
  it("doctor checks Redis, Ollama, the model and the index and shows the file history's size", async () => {
    const out = await json("doctor", root);
    expect(out.checks.map((c: { name: string; status: string }) => [c.name, c.status])).toEqual([
      ["config", "ok"],
      ["redis", "ok"],
      ["ollama", "ok"],
      ["model", "ok"],
      ["index", "ok"],
      ["file-history", "ok"],
    ]);
    expect(out.fileHistory.blobs).toBeGreaterThan(0);
    expect(out.fileHistory.dir).toBe(path.join(home, "file-history"));
    const text = await cli("doctor", root);
    expect(text.stdout).toMatch(/✓ file-history +[\d.]+ (B|KiB) in \d+ backups/);
  });

  it("doctor fails when Ollama is unreachable", async () => {
    const r = await new Promise<CliResult>((resolve) => {
      const env = { ...process.env, NO_COLOR: "1", IPUARO_REDIS_URL: server().url, OLLAMA_HOST: "http://127.0.0.1:9", XDG_CONFIG_HOME: path.join(home, "xdg"), IPUARO_HOME: home };
      const child = spawn(process.execPath, ["--import", "tsx", ENTRY, "doctor", root, "--json"], { cwd: REPO, env });
      let stdout = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.on("close", (code) => resolve({ code, stdout, stderr: "" }));
    });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.checks.find((c: { name: string }) => c.name === "ollama").status).toBe("fail");
    expect(out.checks.find((c: { name: string }) => c.name === "ollama").detail).toContain("OLLAMA_HOST");
  });

  it("doctor calls the config broken when the user's command whitelist does not parse", async () => {
    const xdg = path.join(home, "xdg-broken");
    fs.mkdirSync(path.join(xdg, "ipuaro"), { recursive: true });
    fs.writeFileSync(path.join(xdg, "ipuaro", "whitelist.json"), '{"user": ["ls",]}');
    const r = await runIpuaro(["doctor", root, "--json"], { env: { IPUARO_REDIS_URL: server().url, OLLAMA_HOST: fake.url, XDG_CONFIG_HOME: xdg, IPUARO_HOME: home } });
    expect(r.code).toBe(1);
    const config = JSON.parse(r.stdout).checks.find((c: { name: string }) => c.name === "config");
    expect(config.status).toBe("fail");
    expect(config.detail).toContain("whitelist.json");
  });

  it("doctor says how to fix an unreachable Redis", async () => {
    const dead = path.join(home, "nobody.sock");
    const r = await runIpuaro(["doctor", root, "--json"], { env: { IPUARO_REDIS_URL: `unix://${dead}`, OLLAMA_HOST: "http://127.0.0.1:9", XDG_CONFIG_HOME: path.join(home, "xdg"), IPUARO_HOME: home } });
    expect(r.code).toBe(1);
    const redis = JSON.parse(r.stdout).checks.find((c: { name: string }) => c.name === "redis");
    expect(redis.status).toBe("fail");
    expect(redis.detail).toContain(dead);
    expect(redis.detail).toContain("unset IPUARO_REDIS_URL");
  });

  it("sessions prune reports what it freed and keeps what sessions need", async () => {
    const out = await json("sessions", "prune", root);
    expect(Object.keys(out).sort()).toEqual(["freedBytes", "keptBlobs", "keptBytes", "removedBlobs"]);
    expect(out.removedBlobs).toBe(0); // everything is younger than a day
    expect(out.keptBlobs).toBeGreaterThan(0);
  });

  it("deleting a session drops its shadow-git snapshots' ref; prune reports the sessions whose snapshots it keeps", async () => {
    const shadowRoot = buildAcmeShop();
    try {
      fs.writeFileSync(path.join(shadowRoot, ".ipuaro.json"), JSON.stringify({ checkpoints: { mode: "shadow-git" } }));
      const refs = () => {
        const dir = path.join(home, "file-history", "shadow");
        const [only] = fs.readdirSync(dir);
        return execFileSync("git", [`--git-dir=${path.join(dir, only!)}`, "for-each-ref", "--format=%(refname)"], { encoding: "utf8" }).trim().split("\n").filter(Boolean);
      };
      fake.reply().text("First.");
      const first = (await json("run", "-p", "Hello", shadowRoot)).session;
      fake.reply().text("Second.");
      const second = (await json("run", "-p", "Hello again", shadowRoot)).session;
      expect(refs().sort()).toEqual([`refs/ipuaro/sessions/${first}`, `refs/ipuaro/sessions/${second}`].sort());

      expect((await cli("sessions", "delete", first, shadowRoot)).code).toBe(0);
      expect(refs()).toEqual([`refs/ipuaro/sessions/${second}`]);
      const pruned = await json("sessions", "prune", shadowRoot);
      expect(pruned.shadow).toEqual({ removedSessions: 0, keptSessions: 1, freedBytes: 0 });
      const text = await cli("sessions", "prune", shadowRoot);
      expect(text.stdout).toContain("shadow-git: snapshots of 1 session kept");
    } finally {
      removeDir(shadowRoot);
    }
  });

  it("sessions prune removes nothing, and says why, while another Redis's checkpoints share the file history", async () => {
    const marker = path.join(home, "file-history", "stores", "0b7e4c1e-5d7a-4f7e-9c1a-2f3b4c5d6e7f");
    fs.mkdirSync(path.dirname(marker), { recursive: true });
    fs.writeFileSync(marker, '{"id":"0b7e4c1e-5d7a-4f7e-9c1a-2f3b4c5d6e7f"}\n');
    try {
      const r = await cli("sessions", "prune", root);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^removed nothing: this file history is shared with 1 other Redis database, whose checkpoints may still need its \d+ backups? \(/);
      expect(r.stdout).toContain(`  ${marker}`);
    } finally {
      fs.rmSync(marker);
    }
  });
});
