// Compression seen from the command line: a project with a small window (.ipuaro.json), two runs in
// one session; the second crosses 80%, is compressed, says so on stderr and records it in the session.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeOllama } from "../helpers/fake-ollama.js";
import { buildAcmeShop } from "../helpers/indexed-project.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { removeDir, writeTree } from "../helpers/temp-dir.js";
import { bigSource, scriptConversation } from "../integration/session/agent-harness.js";
import { runCli } from "../integration/session/session-cli.js";

const server = useRedisServer();
let root: string;
let fake: FakeOllama;
const WINDOW = 12288;
const BIG = (n: number) => `packages/core/src/big-${n}.ts`;
const call = (file: string) => `<tool_call name="get_lines"><path>${file}</path></tool_call>`;

beforeAll(async () => {
  root = buildAcmeShop();
  writeTree(root, { [BIG(1)]: bigSource("big1", 125), [BIG(2)]: bigSource("big2", 125), [BIG(3)]: bigSource("big3", 125) });
  fs.writeFileSync(path.join(root, ".ipuaro.json"), JSON.stringify({ llm: { contextWindow: WINDOW }, context: { projectBudgetTokens: 500 } }));
  fake = await new FakeOllama().start();
});
afterAll(async () => {
  await fake.close();
  removeDir(root);
});

const env = () => ({ IPUARO_REDIS_URL: server().url, OLLAMA_HOST: fake.url, XDG_CONFIG_HOME: path.join(root, ".xdg"), IPUARO_HOME: path.join(root, ".home") });

describe("ipuaro run with a small context window", () => {
  it("compresses past 80% in a continued session and reports the new percentage", async () => {
    scriptConversation(
      fake,
      [call(BIG(1)), "big-1.ts defines constants.", call(BIG(2)), call(BIG(3)), "They differ only in names."],
      { summaries: 1, summary: "## Goal\nCompare the big files.\n## Files touched\n- big-1.ts\n## Decisions\n- constants only\n## Open tasks\n- compare big-2 and big-3" },
    );
    const first = await runCli(["run", "-p", "What does big-1.ts do?", root], env());
    expect(first.code, first.stderr).toBe(0);
    const second = await runCli(["run", "--continue", "-p", "Compare big-2.ts and big-3.ts.", root, "--json"], env());
    expect(second.code, second.stderr).toBe(0);
    fake.assertAllConsumed();
    const out = JSON.parse(second.stdout);
    expect(out.compactions).toHaveLength(1);
    expect(out.compactions[0].percentBefore).toBeGreaterThanOrEqual(80);
    expect(out.compactions[0].percentAfter).toBeLessThanOrEqual(50);
    expect(out.context.tokensLimit).toBe(WINDOW);
    expect(out.context.tokensUsed).toBeLessThan(0.8 * WINDOW);
    const last = fake.chatRequests.at(-1)!;
    expect(last.promptTokens).toBeLessThan(0.6 * WINDOW);
    expect(last.messages.map((m) => m.content).join("\n")).toContain("<conversation_summary>\n## Goal\nCompare the big files.");

    const shown = await runCli(["sessions", "show", out.session, root], env());
    expect(shown.stdout).toMatch(/── context compressed \(auto, llm-summary\): \d+% → \d+%/);
    const json = JSON.parse((await runCli(["sessions", "show", out.session, root, "--json"], env())).stdout);
    expect(json.stats.compactions).toBe(1);
    // The tree keeps every message; only what the model sees was compressed.
    expect(json.history.map((m: { content: string }) => m.content)).toContain("What does big-1.ts do?");
  });
});
