// Frames of tool calls the model wrote but that could not be run as written, from the real orchestrator
// against the fake Ollama: each is a failed call line with its reason, counted in the stats line, and the
// next reply starts on its own row (it ran on into the text before: "Let me check Next"). The same lines
// come back when the session is shown again. A call in a ```xml fence runs, and leaves no empty box.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Orchestrator } from "../../src/main/agent/orchestrator.js";
import { OllamaClient } from "../../src/main/llm/ollama-client.js";
import { defineTool } from "../../src/main/tools/define-tool.js";
import { TOOLS, ToolRegistry } from "../../src/main/tools/registry.js";
import type { ToolContext } from "../../src/main/tools/tool-types.js";
import { DEFAULT_FAKE_MODEL, FakeOllama } from "../helpers/fake-ollama.js";
import { KEYS } from "../helpers/headless-terminal.js";
import { ScriptedBackend } from "./scripted-backend.js";
import { startUi, type UiHarness } from "./ui-harness.js";

let h: UiHarness | null = null;
let fake: FakeOllama | null = null;
afterEach(async () => {
  h?.close();
  h = null;
  await fake?.close();
  fake = null;
});

/** A tool that needs nothing of the project, for a call that does run. */
const probe = defineTool({
  name: "probe",
  category: "read",
  description: "test tool: answers at once",
  parameters: z.object({}).strict(),
  requiresConfirmation: false,
  title: () => "probe",
  async execute() {
    return { ok: true, llm: "probed", display: { summary: "probed" } };
  },
});

/** The TUI with each turn played by a real Orchestrator (no session) talking to the fake Ollama. */
async function startWithOrchestrator(): Promise<UiHarness> {
  fake = await new FakeOllama().start();
  const ui = await startUi({ cols: 100, rows: 30 });
  const orchestrator = new Orchestrator({
    llm: new OllamaClient({ host: fake.url, model: DEFAULT_FAKE_MODEL, contextWindow: 32768, temperature: 0 }),
    registry: new ToolRegistry([...TOOLS, probe]),
    ui: ui.app.uiPort,
    // Only `probe` runs in these turns, and it reads nothing of the context.
    tools: {} as Omit<ToolContext, "ports" | "signal">,
    systemPrompt: async () => "You are a test.",
    maxToolRounds: 5,
    autoApply: () => false,
  });
  const turn = (text: string) =>
    ui.backend.turns.push(async function* ({ signal }) {
      yield* orchestrator.runTurn(text, signal);
    });
  turn("first");
  turn("second");
  return ui;
}

describe("a tool call that could not be run as written", () => {
  it("shows a failed call line with the reason, counts it, and starts the next reply on its own row", async () => {
    h = await startWithOrchestrator();
    fake!.reply().text('Let me check <tool_call name="get_lines"><path>packages/core/src/money.ts</path><start>abc</start>');
    fake!.reply().text("Next");
    h.t.type("first", KEYS.enter);
    await h.t.waitForText("[get_lines] ✗ incomplete call: the reply ended before </tool_call>");
    await h.t.waitForText("⏱");
    const rows = h.t.lines().map((l) => l.trimEnd());
    const check = rows.findIndex((l) => l.endsWith("Agent: Let me check"));
    expect(check).toBeGreaterThan(-1);
    expect(rows[check + 1]).toBe("        [get_lines] ✗ incomplete call: the reply ended before </tool_call>");
    expect(rows[check + 2]).toBe("        Next");
    expect(rows[check + 3]).toMatch(/│ 1 tool call$/);
    expect(h.t.text()).not.toContain("Let me check Next");
  });

  it("shows a call to a tool that does not exist and one with broken JSON, each with its reason", async () => {
    h = await startWithOrchestrator();
    fake!.reply().text(
      'Trying.\n<tool_call name="frobnicate"><target>all</target></tool_call>\n<tool_call>{"name": "get_lines", "arguments": {"path": a.ts}}</tool_call>',
    );
    fake!.reply().text("Neither worked.");
    h.t.type("first", KEYS.enter);
    await h.t.waitForText("Neither worked.");
    await h.t.waitForText("│ 2 tool calls");
    expect(h.t.find("[frobnicate] ✗ unknown tool")).not.toBeNull();
    expect(h.t.find("[get_lines] ✗ unreadable call: its JSON could not be read")).not.toBeNull();
    expect(h.t.find("[frobnicate] ✗ unknown tool")!.y).toBeLessThan(h.t.find("[get_lines] ✗ unreadable call")!.y);
  });
});

describe("a call in a ```xml fence", () => {
  it("runs, and the fence emptied of it is not drawn as an empty box", async () => {
    h = await startWithOrchestrator();
    fake!.reply().text('Let me look.\n```xml\n<tool_call name="probe"></tool_call>\n```\n');
    fake!.reply().text("Looked.");
    h.t.type("first", KEYS.enter);
    await h.t.waitForText("Looked.");
    await h.t.waitForText("[probe] probed");
    expect(h.t.text()).not.toContain("xml");
    expect(h.t.text()).not.toMatch(/[╭╰]/);
    expect(h.t.find("[probe] probed")!.y).toBe(h.t.find("Agent: Let me look.")!.y + 1);
  });
});

describe("a continued session", () => {
  it("shows a call that could not be read as the turn did: its name and the reason, not the model's instructions", async () => {
    const now = Date.now();
    const backend = new ScriptedBackend({
      messages: [
        { role: "user", content: "what does Money start with?", timestamp: now },
        {
          role: "assistant",
          content: 'Let me check <tool_call name="get_lines"><path>money.ts</path><start>abc</start>',
          timestamp: now,
          toolCalls: [{ id: "call_1", name: "get_lines", parameters: {}, malformed: true, reason: "incomplete call: the reply ended before </tool_call>" }],
        },
        {
          role: "tool",
          content: "<tool_result/>",
          timestamp: now,
          toolResults: [
            {
              callId: "call_1",
              name: "get_lines",
              success: false,
              error: "The tool call is incomplete: the reply ended before </tool_call>. Send the whole call again in this form: …",
              code: "INVALID_ARGS",
            },
          ],
        },
        { role: "assistant", content: "Next", timestamp: now },
      ],
    });
    h = await startUi({ backend, cols: 100 });
    await h.t.waitForText("[get_lines] ✗ incomplete call: the reply ended before </tool_call>");
    const call = h.t.find("[get_lines] ✗")!.y;
    expect(h.t.find("Agent: Let me check")!.y).toBe(call - 1);
    expect(h.t.find("Next")!.y).toBe(call + 1);
    expect(h.t.text()).not.toContain("Send the whole call");
    expect(h.t.text()).not.toContain("(malformed)");
  });
});
