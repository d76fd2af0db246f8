import { describe, expect, it } from "vitest";
import { CallFenceFilter } from "../../../src/main/agent/call-fence-filter.js";
import { parseToolCalls } from "../../../src/main/llm/tool-call-parser.js";

const known = new Set(["get_lines", "git_status"]);
const isCall = (block: string) => {
  const p = parseToolCalls(block, known);
  return p.calls.length > 0 || p.errors.length > 0;
};

/** Streams `text` in pieces of `size` characters; returns what is shown in each push and in all. */
function stream(text: string, size = 3) {
  const f = new CallFenceFilter(isCall);
  const shown: string[] = [];
  for (let i = 0; i < text.length; i += size) shown.push(f.push(text.slice(i, i + size)));
  return { shown, all: shown.join("") + f.flush() };
}

describe("fenced calls in the streamed text", () => {
  it("holds a ```json call back and drops it; the prose around it streams", () => {
    const text = 'Let me read it.\n```json\n{"name": "get_lines", "arguments": {"path": "a.ts"}}\n```\nThen I answer.';
    const { shown, all } = stream(text);
    expect(all).toBe("Let me read it.\nThen I answer.");
    // The first line was shown before the fence arrived.
    expect(shown.slice(0, 6).join("")).toBe("Let me read it.\n");
  });

  it("shows a json block that is no call, once it closes, and a ts block as it streams", () => {
    const data = 'Config:\n```json\n{"name": "@acme/core", "type": "module"}\n```\n';
    expect(stream(data).all).toBe(data);
    const code = "Code:\n```ts\nconst a = 1;\nconst b = 2;\n```\nDone.";
    const { shown, all } = stream(code, 1);
    expect(all).toBe(code);
    // Streamed line by line, not held until the fence closes.
    expect(shown.slice(0, "Code:\n```ts\nconst a = 1;\n".length).join("")).toBe("Code:\n```ts\nconst a = 1;\n");
  });

  it("streams the prose after a ts block: its closing ``` opens nothing", () => {
    const text = "Intro\n```ts\nconst a = 1;\n```\n\nAfter the block.\nMore prose.\n";
    const f = new CallFenceFilter(isCall);
    const shown = ["Intro\n", "```ts\n", "const a = 1;\n", "```\n", "\n", "After the block.\n", "More prose.\n"].map((piece) => f.push(piece));
    expect(shown).toEqual(["Intro\n", "```ts\n", "const a = 1;\n", "```\n", "\n", "After the block.\n", "More prose.\n"]);
    expect(f.flush()).toBe("");
    expect(stream(text, 1).all).toBe(text);
  });

  it("still holds a json call that follows a ts block, and a block opened with four backticks closes only on four", () => {
    const text = 'Code:\n```ts\nlet x;\n```\nNow:\n```json\n{"name": "git_status", "arguments": {}}\n```\nDone.';
    expect(stream(text, 2).all).toBe("Code:\n```ts\nlet x;\n```\nNow:\nDone.");
    const nested = "````md\n```json\n{}\n```\n````\nAfter.\n";
    const f = new CallFenceFilter(isCall);
    expect(f.push(nested)).toBe(nested);
  });

  it("decides a fence left open at the end of the reply as it stands", () => {
    expect(stream('```\n{"name": "git_status", "arguments": {}}').all).toBe("");
    expect(stream("```\nnot a call, just text").all).toBe("```\nnot a call, just text");
  });

  it("drops a ```xml fence left empty once VisibleTextFilter took the call in it out (it was an empty box)", () => {
    // What reaches this filter of 'Look.\n```xml\n<tool_call name="git_status"/>\n```\nDone.'
    expect(stream("Look.\n```xml\n\n```\nDone.").all).toBe("Look.\nDone.");
    expect(stream("Look.\n```xml\n\n```", 1).all).toBe("Look.\n");
    // An xml block with anything else in it is shown.
    const data = "Config:\n```xml\n<project><name>a</name></project>\n```\n";
    expect(stream(data).all).toBe(data);
  });

  it("keeps inline backticks and a fence that is not at a line start", () => {
    const text = "Use `git status` or ``` inline ``` here.\n";
    expect(stream(text).all).toBe(text);
  });
});
