// Project memory and analytics (issue 9) as the agent runtime wires them: what the model is sent at
// session start and after a turn, the events its edits, commands and undo leave, the risk gate in
// auto-apply mode, and the watcher's record of changes made outside ipuaro.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IpuaroConfig } from "../../../src/main/config/schema.js";
import { ProjectWatcher } from "../../../src/main/indexing/project-watcher.js";
import { TokenEstimator } from "../../../src/main/llm/token-estimator.js";
import type { ShadowEvent } from "../../../src/main/shadow/event-types.js";
import { readEvents } from "../../../src/main/shadow/events-store.js";
import { listNotes } from "../../../src/main/shadow/memory-store.js";
import { memoryNote } from "../../../src/main/tools/memory-note.js";
import { memoryWrite } from "../../../src/main/tools/memory-write.js";
import { runIpuaro } from "../../helpers/cli.js";
import { FakeOllama } from "../../helpers/fake-ollama.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { waitFor } from "../watch/watch-harness.js";
import { call } from "./shadow-calls.js";
import { buildShadowFixture, CART, DISCOUNT, ENGINE, FORMAT, ORDERS, type ShadowFixture } from "./shadow-fixture.js";
import { memoryBlockOf, startWiredAgent, systemOf } from "./wiring-agent.js";

const server = useRedisServer();
let fx: ShadowFixture;
let fake: FakeOllama;
let config: IpuaroConfig;
/** 10% of the project budget: what the runtime gives the memory block (its floor is 200). */
const PROJECT_BUDGET = 2000;
const MEMORY_BUDGET = 200;
const RULE = "Run the pricing tests after every change under src/pricing, before answering.";

beforeAll(async () => {
  fx = await buildShadowFixture(server().url);
  config = { ...fx.project.config, context: { ...fx.project.config.context, projectBudgetTokens: PROJECT_BUDGET } };
  fs.mkdirSync(path.join(fx.root, "scripts"));
  fs.writeFileSync(path.join(fx.root, "scripts/fail.js"), 'console.error("pricing check failed: totals drifted");\nprocess.exit(3);\n');
  fake = await new FakeOllama().start();
}, 60_000);
afterAll(async () => {
  await fake?.close();
  await fx?.close();
});

/** Requests made from now on (the fake keeps every request of the file). */
function requestsFrom(): () => ReturnType<FakeOllama["chatRequests"]["slice"]> {
  const start = fake.chatRequests.length;
  return () => fake.chatRequests.slice(start);
}

/** The text of the tool results the model was sent in a request (each `<tool_result …>` body, in order). */
function toolResults(messages: ReturnType<FakeOllama["chatRequests"]["slice"]>[number]["messages"]): string[] {
  return messages.flatMap((m) => [...m.content.matchAll(/<tool_result name="[^"]+" call_id="[^"]+" ok="true">\n([^]*?)\n<\/tool_result>/g)].map((r) => r[1]!));
}

async function eventsSince(from: number, type: ShadowEvent["type"]): Promise<ShadowEvent[]> {
  return (await readEvents(fx.scope, from)).filter((e) => e.type === type);
}

describe("project memory in the system prompt", () => {
  it("a fact written with memory_write and a due note reach the next session's first request, within the budget", async () => {
    const first = await startWiredAgent(fx.project, fake, config);
    fake.reply().toolCall("memory_write", { category: "PROJECT_RULES", content: RULE });
    fake.reply().text("Noted.");
    await first.turn("Remember: pricing tests after every pricing change.");
    fake.assertAllConsumed();

    // Written between the sessions: a note whose date has passed, and more architecture facts than fit.
    await call(memoryNote, { content: "Check whether the legacy engine can be removed now.", surface_condition: "after 2020-01-01" }, fx.ctx);
    for (let i = 0; i < 25; i++) {
      await call(memoryWrite, { category: "ARCHITECTURE", content: `Module number ${i} of the shop keeps its own price cache, refreshed by the nightly job ${i}.` }, fx.ctx);
    }

    const seen = requestsFrom();
    const second = await startWiredAgent(fx.project, fake, config);
    fake.reply().text("Hello.");
    await second.turn("hi");
    fake.assertAllConsumed();
    const block = memoryBlockOf(systemOf(seen()[0]!.messages));
    expect(block).toContain(`Rules:\n- ${RULE}`);
    expect(block).toMatch(/Reminders:\n- Check whether the legacy engine can be removed now\. \(2020-01-01 has passed; note note:/);
    // Reminders and rules come first; architecture fills what is left of the budget and no more.
    expect(block).toContain("Architecture:");
    expect((block.match(/Module number \d+/g) ?? []).length).toBeLessThan(25);
    expect(new TokenEstimator().estimate(block)).toBeLessThanOrEqual(MEMORY_BUDGET);
    const notes = await listNotes(fx.scope);
    expect(notes.find((n) => n.content.startsWith("Check whether the legacy engine"))).toMatchObject({ status: "surfaced" });
  });

  it("a note whose condition comes true during a turn is in the next turn's system prompt, once", async () => {
    await call(memoryNote, { content: "Document the coupon rules in the README once they exist.", surface_condition: "when function applyCoupon is added" }, fx.ctx);
    const agent = await startWiredAgent(fx.project, fake, config);
    const seen = requestsFrom();
    fake.reply().toolCall("create_file", { path: "src/pricing/coupon.ts", content: "export function applyCoupon(total: number, code: string): number {\n  return code === 'TEN' ? total - 10 : total;\n}\n" });
    fake.reply().text("Added applyCoupon.");
    await agent.turn("Add a coupon function.");
    fake.reply().text("Yes.");
    await agent.turn("Done?");
    fake.reply().text("Fine.");
    await agent.turn("Thanks.");
    fake.assertAllConsumed();

    const prompts = seen().map((r) => systemOf(r.messages));
    expect(prompts).toHaveLength(4);
    expect(prompts[0]).not.toContain("applyCoupon");
    expect(prompts[1]).not.toContain("Reminder from earlier notes");
    expect(prompts[2]).toMatch(/Reminder from earlier notes:\n- Document the coupon rules in the README once they exist\. \(function applyCoupon exists in src\/pricing\/coupon\.ts\)/);
    expect(prompts[3]).not.toContain("Reminder from earlier notes");
  });
});

describe("analytics events from the agent", () => {
  it("an auto-applied edit_lines records an edit, a failing run_command an error, undo a revert", async () => {
    const agent = await startWiredAgent(fx.project, fake, config);
    const session = agent.runtime.session.id;
    const from = Date.now();
    fake.reply().toolCall("get_lines", { path: CART, start: 1, end: 7 });
    fake.reply().toolCall("edit_lines", { path: CART, start: 5, end: 5, content: '    return priceOf(runEngine(1), "basic", 2);\n    // two items', description: "two items" });
    fake.reply().toolCall("run_command", { command: "node scripts/fail.js" });
    fake.reply().text("The check fails.");
    await agent.turn("Make the cart hold two items and run the check.");
    fake.assertAllConsumed();

    // The cart is low risk: auto-apply did not ask the user.
    expect(agent.ui.editProposals).toEqual([]);
    expect(fs.readFileSync(path.join(fx.root, CART), "utf8")).toContain("// two items");
    expect(await eventsSince(from, "edit")).toEqual([expect.objectContaining({ session, file: CART, tool: "edit_lines", added: 2, removed: 1 })]);
    expect(await eventsSince(from, "error")).toEqual([
      expect.objectContaining({ session, source: "run_command", kind: "command_failure", file: null, message: expect.stringContaining("node scripts/fail.js: pricing check failed") }),
    ]);
    expect(await eventsSince(from, "turn")).toEqual([expect.objectContaining({ session, tools: { get_lines: 1, edit_lines: 1, run_command: 1 } })]);

    expect(await agent.runtime.undo()).toMatchObject({ status: "undone" });
    expect(fs.readFileSync(path.join(fx.root, CART), "utf8")).not.toContain("// two items");
    expect(await eventsSince(from, "revert")).toEqual([expect.objectContaining({ session, file: CART, via: "undo" })]);
  });

  it("an edit to a critical-risk file is put to the user even in auto-apply, and the model reads the warning first", async () => {
    const agent = await startWiredAgent(fx.project, fake, config);
    const seen = requestsFrom();
    fake.reply().toolCall("get_lines", { path: ENGINE, start: 1, end: 3 });
    fake.reply().toolCall("edit_lines", { path: ENGINE, start: 2, end: 2, content: "  return input * 3;" });
    fake.reply().toolCall("get_lines", { path: FORMAT, start: 1, end: 3 });
    fake.reply().toolCall("edit_lines", { path: FORMAT, start: 1, end: 1, content: "export function formatMoney(cents: number): string { // cents in, dollars out" });
    fake.reply().text("Both changed.");
    await agent.turn("Triple the engine and comment formatMoney.");
    fake.assertAllConsumed();

    // Only the engine edit was asked about, and its proposal carried the risk.
    expect(agent.ui.editProposals.map((p) => p.path)).toEqual([ENGINE]);
    expect(agent.ui.editProposals[0]!.risk).toMatchObject({ level: "critical", requiresConfirmation: true, message: expect.stringMatching(/^Warning: src\/legacy\/engine\.ts is a critical-risk file/) });
    const requests = seen();
    const engineResult = toolResults(requests[2]!.messages).at(-1)!;
    expect(engineResult).toMatch(/^Warning: src\/legacy\/engine\.ts is a critical-risk file/);
    const formatResult = toolResults(requests[4]!.messages).at(-1)!;
    expect(formatResult).not.toMatch(/warning/i);
    expect(fs.readFileSync(path.join(fx.root, ENGINE), "utf8")).toContain("input * 3");
    expect(fs.readFileSync(path.join(fx.root, FORMAT), "utf8")).toContain("cents in, dollars out");
  });
  it("with edit.alwaysConfirm off, auto-apply takes the critical-risk edit too (the model still reads the warning)", async () => {
    const agent = await startWiredAgent(fx.project, fake, { ...config, edit: { ...config.edit, alwaysConfirm: false } });
    const seen = requestsFrom();
    fake.reply().toolCall("get_lines", { path: ENGINE, start: 1, end: 3 });
    fake.reply().toolCall("edit_lines", { path: ENGINE, start: 2, end: 2, content: "  return input * 4;" });
    fake.reply().text("Quadrupled.");
    await agent.turn("Quadruple the engine.");
    fake.assertAllConsumed();
    expect(agent.ui.editProposals).toEqual([]);
    expect(fs.readFileSync(path.join(fx.root, ENGINE), "utf8")).toContain("input * 4");
    expect(toolResults(seen()[2]!.messages).at(-1)).toMatch(/^Warning: src\/legacy\/engine\.ts is a critical-risk file/);
  });

  it("`ipuaro undo` of an agent session's edit records a revert for that session", async () => {
    const agent = await startWiredAgent(fx.project, fake, config);
    const session = agent.runtime.session.id;
    fake.reply().toolCall("get_lines", { path: DISCOUNT, start: 1, end: 3 });
    fake.reply().toolCall("edit_lines", { path: DISCOUNT, start: 2, end: 2, content: "  return total > 200 ? 20 : 0;" });
    fake.reply().text("Raised.");
    await agent.turn("Raise the discount threshold.");
    fake.assertAllConsumed();
    const from = Date.now();
    const r = await runIpuaro(["undo", fx.root, "--session", session, "--json"], { env: { IPUARO_REDIS_URL: server().url, XDG_CONFIG_HOME: path.join(fx.root, ".no-user-config") } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: "undone", session, entry: { filePath: DISCOUNT } });
    expect(await eventsSince(from, "revert")).toEqual([expect.objectContaining({ session, file: DISCOUNT, via: "undo" })]);
  }, 60_000);
});

describe("changes made outside ipuaro", () => {
  it("a watcher records external edits, and a human edit of a file the agent just edited as a human_fix", async () => {
    const agentEdit = (await eventsSince(0, "edit")).findLast((e) => e.type === "edit" && e.file === FORMAT);
    expect(agentEdit).toBeDefined();
    const watcher = new ProjectWatcher({ indexer: fx.project.indexer, redis: fx.project.redis, debounceMs: 80 });
    await watcher.start();
    try {
      const from = Date.now();
      fs.appendFileSync(path.join(fx.root, FORMAT), "// fixed by hand\n");
      fs.appendFileSync(path.join(fx.root, ORDERS), "// unrelated edit\n");
      const external = await waitFor("two external events", async () => {
        const found = await eventsSince(from, "external");
        return found.length >= 2 ? found : null;
      });
      expect(external).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ file: FORMAT, change: "updated", humanFix: true, fixedSession: agentEdit!.type === "edit" ? agentEdit!.session : "" }),
          expect.objectContaining({ file: ORDERS, change: "updated", humanFix: false }),
        ]),
      );
      expect(external).toHaveLength(2);
    } finally {
      await watcher.stop();
    }
  });
});
