// `ipuaro undo` and `ipuaro tool` write files outside a turn: what they write is ipuaro's own content,
// so a later rewind must not call it a change made by hand (a conflict it then leaves alone).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runIpuaro } from "../helpers/cli.js";
import { FakeOllama, xmlToolCall as call } from "../helpers/fake-ollama.js";
import { buildAcmeShop } from "../helpers/indexed-project.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { removeDir } from "../helpers/temp-dir.js";

const server = useRedisServer();
const MONEY = "packages/core/src/money.ts";
const STRINGS = "packages/core/src/utils/strings.ts";
let root = "";
let fake: FakeOllama;
const env = () => ({ IPUARO_REDIS_URL: server().url, OLLAMA_HOST: fake.url, IPUARO_HOME: path.join(root, ".home"), XDG_CONFIG_HOME: path.join(root, ".xdg") });

beforeAll(async () => {
  root = buildAcmeShop();
  // A BOM and CRLF lines: undo writes the file's exact bytes back, and what ipuaro records of that write
  // must be those bytes, or the rewind below would take the file for one changed by hand.
  const strings = path.join(root, STRINGS);
  fs.writeFileSync(strings, `\uFEFF${fs.readFileSync(strings, "utf8").replace(/\n/g, "\r\n")}`);
  fake = await new FakeOllama().start();
});
afterAll(async () => {
  await fake.close();
  removeDir(root);
});

it("a rewind after `ipuaro undo` and an `ipuaro tool` edit restores the files, with no conflict", async () => {
  const money = fs.readFileSync(path.join(root, MONEY), "utf8");
  const strings = fs.readFileSync(path.join(root, STRINGS), "utf8");
  fake.reply().text(`${call("get_lines", { path: MONEY, start: 1, end: 12 })}\n${call("get_lines", { path: STRINGS, start: 1, end: 7 })}`);
  fake.reply().text(
    `${call("edit_lines", { path: MONEY, start: 8, end: 8, content: "export class Money implements MoneyLike { // renamed" })}\n` +
      call("edit_lines", { path: STRINGS, start: 2, end: 2, content: "export function slugifyText(input: string): string {" }),
  );
  fake.reply().text("Both edited.");
  const run = await runIpuaro(["run", "--auto-apply", "-p", "Rename both things", root], { env: env(), timeoutMs: 120_000 });
  expect(run.code, run.stderr).toBe(0);

  const undone = await runIpuaro(["undo", root], { env: env(), timeoutMs: 120_000 });
  expect(undone.code, undone.stderr).toBe(0);
  expect(fs.readFileSync(path.join(root, STRINGS), "utf8")).toBe(strings);
  const edit = JSON.stringify({ path: STRINGS, start: 2, end: 2, content: "export function slugify(input: string): string { // by the tool" });
  const tool = await runIpuaro(["tool", "edit_lines", edit, root, "--yes"], { env: env(), timeoutMs: 120_000 });
  expect(tool.code, tool.stderr).toBe(0);

  const dry = await runIpuaro(["rewind", "1", root, "--dry-run", "--json"], { env: env(), timeoutMs: 120_000 });
  expect(dry.code, dry.stderr).toBe(0);
  expect(JSON.parse(dry.stdout)).toEqual({ restored: [MONEY, STRINGS], deleted: [], conflicts: [], skipped: [], warnings: [] });
  const done = await runIpuaro(["rewind", "1", root, "--mode", "code", "--json"], { env: env(), timeoutMs: 120_000 });
  expect(done.code, done.stderr).toBe(0);
  expect(fs.readFileSync(path.join(root, MONEY), "utf8")).toBe(money);
  expect(fs.readFileSync(path.join(root, STRINGS), "utf8")).toBe(strings);
}, 300_000);
