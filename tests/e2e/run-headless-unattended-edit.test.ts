// `ipuaro run` without --auto-apply: an edit nobody can confirm is not applied, and the message says why
// (the run is non-interactive) and how to allow it, not that a user rejected it.
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runIpuaro } from "../helpers/cli.js";
import { FakeOllama } from "../helpers/fake-ollama.js";
import { buildAcmeShop } from "../helpers/indexed-project.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { removeDir } from "../helpers/temp-dir.js";

const server = useRedisServer();
const STRINGS = "packages/core/src/utils/strings.ts";
let root: string;
let fake: FakeOllama | undefined;

beforeAll(() => void (root = buildAcmeShop()));
afterAll(() => removeDir(root));
afterEach(async () => {
  await fake?.close();
});

describe("ipuaro run without --auto-apply", () => {
  it("does not apply an edit, and tells the model and the user it was the non-interactive run, with the flag that allows it", async () => {
    fake = await new FakeOllama().start();
    const before = fs.readFileSync(path.join(root, STRINGS), "utf8");
    fake.reply().text(`<tool_call name="get_lines"><path>${STRINGS}</path><start>1</start><end>3</end></tool_call>`);
    fake.reply().text(`<tool_call name="edit_lines"><path>${STRINGS}</path><start>2</start><end>2</end><content>export function slugify(text: string): string {</content></tool_call>`);
    fake.reply().text("I would rename the parameter of slugify to text.");
    const env = { IPUARO_REDIS_URL: server().url, OLLAMA_HOST: fake.url, XDG_CONFIG_HOME: path.join(root, ".xdg"), IPUARO_HOME: path.join(root, ".home") };
    const r = await runIpuaro(["run", "-p", "rename slugify's parameter to text", root], { env });
    expect(fs.readFileSync(path.join(root, STRINGS), "utf8")).toBe(before);
    const result = fake.chatRequests[2]!.messages.at(-1)!.content;
    expect(result).toContain(`Your change to ${STRINGS} was not applied: this run is non-interactive, so nobody could confirm it`);
    expect(result).toContain("--auto-apply");
    expect(result).not.toMatch(/user rejected/i);
    expect(r.stderr).toContain("this run is non-interactive");
    expect(r.stderr).not.toMatch(/user rejected/i);
    expect(r.stdout).toContain("I would rename the parameter of slugify to text.");
    expect(fake.violations).toEqual([]);
  });
});
