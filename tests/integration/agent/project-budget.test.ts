// The project map's budget follows the model's window: context.projectBudgetTokens (10K) is sized for a
// 128K window; on a small one it would take the room the conversation needs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_BUDGET_WINDOW_SHARE, projectBudgetFor } from "../../../src/main/agent/agent-runtime.js";
import { buildSystemPrompt } from "../../../src/main/llm/system-prompt.js";
import { TokenEstimator } from "../../../src/main/llm/token-estimator.js";
import { ToolRegistry } from "../../../src/main/tools/registry.js";
import { FakeOllama } from "../../helpers/fake-ollama.js";
import { buildAcmeShop, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { removeDir, writeTree } from "../../helpers/temp-dir.js";
import { startAgent, withConfig } from "../session/agent-harness.js";

const server = useRedisServer();
let project: IndexedProject;
let fake: FakeOllama;

beforeAll(async () => {
  const root = buildAcmeShop();
  // Enough files and exports that the map alone outgrows a small window's share.
  const tree: Record<string, string> = {};
  for (let i = 0; i < 120; i++) tree[`packages/core/src/rules/rule-${i}.ts`] = `export function rule${i}(amount: number): number {\n  return amount * ${i};\n}\nexport const RULE_${i}_NAME = "rule ${i}";\n`;
  writeTree(root, tree);
  project = await openIndexedProject(root, server().url);
  await project.reindex();
  fake = await new FakeOllama().start();
}, 60_000);
afterAll(async () => {
  await fake?.close();
  await project?.close();
  removeDir(project.root);
});

describe("the project map's budget", () => {
  it("is the configured one on a large window and a share of a small one", () => {
    expect(projectBudgetFor(10_000, 131_072)).toBe(10_000);
    expect(projectBudgetFor(10_000, 32_768)).toBe(Math.floor(32_768 * PROJECT_BUDGET_WINDOW_SHARE));
    expect(projectBudgetFor(10_000, 1_024)).toBe(500);
  });

  it("keeps the first request's fixed part within the window's share", async () => {
    const estimator = new TokenEstimator();
    const promptTokens = async (contextWindow: number) => {
      const base = withConfig(project.config, { contextWindow });
      const config = { ...base, context: { ...base.context, projectBudgetTokens: 10_000, autoCompressAt: null } };
      const agent = await startAgent(project, fake, config);
      fake.reply().text("Ок.");
      await agent.turn("Что здесь?");
      return estimator.estimate(agent.runtime.lastSystemPrompt());
    };
    const small = await promptTokens(8_192);
    const large = await promptTokens(32_768);
    expect(large).toBeGreaterThan(small + 1_000);
    // The tools and rules part is the same in both; the map is what shrank to the small window's share.
    const toolsAndRules = estimator.estimate(buildSystemPrompt({ tools: new ToolRegistry().descriptors(), projectName: project.store.projectName, toolFormat: project.config.llm.toolFormat }));
    expect(small - toolsAndRules).toBeLessThanOrEqual(Math.floor(8_192 * PROJECT_BUDGET_WINDOW_SHARE) + 100);
  });
});
