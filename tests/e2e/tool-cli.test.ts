// `ipuaro tool NAME '<json>'`: a person running an edit tool directly has the file in front of them, so
// the model's read-first rule does not apply; confirmation does (--yes, or a terminal to ask on).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runIpuaro } from "../helpers/cli.js";
import { buildAcmeShop } from "../helpers/indexed-project.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { removeDir } from "../helpers/temp-dir.js";

const server = useRedisServer();
const STRINGS = "packages/core/src/utils/strings.ts";
let root = "";
const env = () => ({ IPUARO_REDIS_URL: server().url, IPUARO_HOME: path.join(root, ".home"), XDG_CONFIG_HOME: path.join(root, ".xdg") });

beforeAll(() => {
  root = buildAcmeShop();
});
afterAll(() => removeDir(root));

it("edit_lines --yes applies without a get_lines first, and without --yes off a terminal it asks for --yes", async () => {
  const file = path.join(root, STRINGS);
  const before = fs.readFileSync(file, "utf8");
  const edit = JSON.stringify({ path: STRINGS, start: 2, end: 2, content: "export function slugify(input: string): string { // edited" });

  const refused = await runIpuaro(["tool", "edit_lines", edit, root], { env: env(), timeoutMs: 120_000 });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("non-interactive, so nobody could confirm it (to apply it without a terminal to confirm on, pass --yes)");
  expect(refused.stderr).not.toMatch(/user rejected/i);
  expect(refused.stderr).not.toContain("have not read");
  expect(fs.readFileSync(file, "utf8")).toBe(before);

  const applied = await runIpuaro(["tool", "edit_lines", edit, root, "--yes"], { env: env(), timeoutMs: 120_000 });
  expect(applied.code, applied.stderr).toBe(0);
  const after = fs.readFileSync(file, "utf8").split("\n");
  expect(after[1]).toBe("export function slugify(input: string): string { // edited");
  expect(after.length).toBe(before.split("\n").length);

  // The session the edit joined (for undo) says what it is rather than showing a blank first message.
  const listed = await runIpuaro(["sessions", "list", root], { env: env(), timeoutMs: 120_000 });
  expect(listed.stdout).toContain("(no messages: opened, or edits by ipuaro tool)");
  const [only] = JSON.parse((await runIpuaro(["sessions", "list", root, "--json"], { env: env(), timeoutMs: 120_000 })).stdout).sessions as Array<{ id: string }>;
  const shown = await runIpuaro(["sessions", "show", only!.id, root], { env: env(), timeoutMs: 120_000 });
  expect(shown.stdout).toContain("0 messages");
  expect(shown.stdout).toContain("context not measured yet (no model request) · undo stack 1");

  const undone = await runIpuaro(["undo", root], { env: env(), timeoutMs: 120_000 });
  expect(undone.code, undone.stderr).toBe(0);
  expect(fs.readFileSync(file, "utf8")).toBe(before);
}, 300_000);

it("shows a memory tool's error as its message and code, not the JSON the model gets", async () => {
  const r = await runIpuaro(["tool", "memory_write", JSON.stringify({ category: "NAMING", content: "x" }), root], { env: env(), timeoutMs: 120_000 });
  expect(r.code).toBe(1);
  // A loaded machine may take over 1.5 s to bring the index up to date, and says so first (first-index-note.ts).
  const lines = r.stderr.trim().split("\n").filter((line) => !line.startsWith("ipuaro: updating the index before the tool runs"));
  expect(lines).toEqual(["INVALID_ARGS: content must be at least 10 characters; got 1. (SHADOW_ERR_CONTENT_TOO_SHORT)"]);
}, 120_000);

it("a tool that only reads leaves no session behind (an empty one passed for the project's last session)", async () => {
  const fresh = buildAcmeShop();
  const freshEnv = { IPUARO_REDIS_URL: server().url, IPUARO_HOME: path.join(fresh, ".home"), XDG_CONFIG_HOME: path.join(fresh, ".xdg") };
  try {
    for (const [name, args] of [["get_lines", { path: STRINGS }], ["find_definition", { symbol: "slugify" }], ["get_structure", {}]] as const) {
      const r = await runIpuaro(["tool", name, JSON.stringify(args), fresh], { env: freshEnv, timeoutMs: 120_000 });
      expect([name, r.code], r.stderr).toEqual([name, 0]);
    }
    const listed = JSON.parse((await runIpuaro(["sessions", "list", fresh, "--json"], { env: freshEnv, timeoutMs: 120_000 })).stdout) as { sessions: unknown[] };
    expect(listed.sessions).toEqual([]);
  } finally {
    removeDir(fresh);
  }
}, 300_000);

it("an edit or command that did nothing (unconfirmed, denied, a wrong range) leaves no session behind either", async () => {
  const fresh = buildAcmeShop();
  const freshEnv = { IPUARO_REDIS_URL: server().url, IPUARO_HOME: path.join(fresh, ".home"), XDG_CONFIG_HOME: path.join(fresh, ".xdg") };
  const sessions = async () => (JSON.parse((await runIpuaro(["sessions", "list", fresh, "--json"], { env: freshEnv, timeoutMs: 120_000 })).stdout) as { sessions: unknown[] }).sessions;
  try {
    const unconfirmed = JSON.stringify({ path: STRINGS, start: 2, end: 2, content: "// changed" });
    const wrongRange = JSON.stringify({ path: STRINGS, start: 900, end: 901, content: "// changed" });
    for (const [name, args, extra] of [["edit_lines", unconfirmed, []], ["edit_lines", wrongRange, ["--yes"]], ["run_command", JSON.stringify({ command: "sudo ls" }), ["--yes"]]] as const) {
      const r = await runIpuaro(["tool", name, args, fresh, ...extra], { env: freshEnv, timeoutMs: 120_000 });
      expect([name, r.code], r.stderr).toEqual([name, 1]);
    }
    expect(await sessions()).toEqual([]);
    // One that ran keeps its session, for undo.
    const ran = await runIpuaro(["tool", "run_command", JSON.stringify({ command: "node -e \"process.exit(3)\"" }), fresh, "--yes"], { env: freshEnv, timeoutMs: 120_000 });
    expect(ran.stderr + ran.stdout).toMatch(/3/);
    expect(await sessions()).toHaveLength(1);
  } finally {
    removeDir(fresh);
  }
}, 300_000);
