import { describe, expect, it } from "vitest";
import { parseToolCalls, type ToolCallFormat } from "../../../src/main/llm/tool-call-parser.js";

const KNOWN = new Set(["get_lines", "get_structure", "get_function", "edit_lines", "create_file", "git_status"]);

interface Case {
  name: string;
  reply: string;
  calls?: Array<[string, Record<string, unknown>, ToolCallFormat?]>;
  errors?: Array<[kind: string, toolName?: string]>;
  text?: string;
}

const cases: Case[] = [
  // --- the taught XML form ---
  {
    name: "xml: the design's form, values kept as raw strings",
    reply: '<tool_call name="get_lines"><path>src/a.ts</path><start>1</start></tool_call>',
    calls: [["get_lines", { path: "src/a.ts", start: "1" }, "xml"]],
    text: "",
  },
  {
    name: "xml: one call per line, with stray text before and after",
    reply: 'Let me look at the file.\n<tool_call name="get_lines">\n<path>src/a.ts</path>\n<end>40</end>\n</tool_call>\nI will explain after.',
    calls: [["get_lines", { path: "src/a.ts", end: "40" }]],
    text: "Let me look at the file.\n\nI will explain after.",
  },
  {
    name: "xml: single-quoted name attribute and a self-closing call without parameters",
    reply: "<tool_call name='get_structure'></tool_call> and <tool_call name=\"git_status\"/>",
    calls: [["get_structure", {}], ["git_status", {}]],
    text: "and",
  },
  {
    name: "xml: nested < and > and markup inside a value",
    reply: '<tool_call name="create_file"><path>a.tsx</path><content>\nif (a < b && c > d) return <div className="x">{a}</div>;\n</content></tool_call>',
    calls: [["create_file", { path: "a.tsx", content: 'if (a < b && c > d) return <div className="x">{a}</div>;' }]],
  },
  {
    name: "xml: code containing </tool_call> and its own closing tag text stays in the value",
    reply: '<tool_call name="edit_lines"><path>p.ts</path><content>const end = "</tool_call>";\nconst c = "</content>";</content></tool_call>',
    calls: [["edit_lines", { path: "p.ts", content: 'const end = "</tool_call>";\nconst c = "</content>";' }]],
  },
  {
    name: "xml: CDATA wrapper is removed, indentation kept",
    reply: '<tool_call name="create_file"><path>x.ts</path><content><![CDATA[  a </content> b]]></content></tool_call>',
    calls: [["create_file", { path: "x.ts", content: "  a </content> b" }]],
  },
  {
    name: "xml: name as a child element instead of an attribute",
    reply: "<tool_call><name>get_lines</name><path>a.ts</path></tool_call>",
    calls: [["get_lines", { path: "a.ts" }]],
  },
  {
    name: "xml: <parameter name=…> and Qwen3-coder's <function=…><parameter=…>",
    reply:
      '<tool_call name="get_function"><parameter name="path">a.ts</parameter><parameter name="name">main</parameter></tool_call>' +
      "<tool_call>\n<function=get_lines>\n<parameter=path>\nb.ts\n</parameter>\n</function>\n</tool_call>",
    calls: [["get_function", { path: "a.ts", name: "main" }], ["get_lines", { path: "b.ts" }]],
  },
  {
    name: "xml: a repeated parameter becomes an array",
    reply: '<tool_call name="git_status"><files>a.ts</files><files>b.ts</files></tool_call>',
    calls: [["git_status", { files: ["a.ts", "b.ts"] }]],
  },
  // --- Qwen's native JSON in the tag ---
  {
    name: "json-tag: Qwen native with arguments, typed values kept",
    reply: '<tool_call>\n{"name": "get_lines", "arguments": {"path": "src/a.ts", "start": 1, "end": 9}}\n</tool_call>',
    calls: [["get_lines", { path: "src/a.ts", start: 1, end: 9 }, "json-tag"]],
    text: "",
  },
  {
    name: "json-tag: parameters instead of arguments",
    reply: '<tool_call>{"name": "get_structure", "parameters": {"path": "src"}}</tool_call>',
    calls: [["get_structure", { path: "src" }]],
  },
  {
    name: "json-tag: arguments given as a JSON string (OpenAI style)",
    reply: '<tool_call>{"name": "get_lines", "arguments": "{\\"path\\": \\"a.ts\\"}"}</tool_call>',
    calls: [["get_lines", { path: "a.ts" }]],
  },
  {
    name: "json-tag: code with </tool_call> and braces inside a JSON string",
    reply: '<tool_call>{"name":"edit_lines","arguments":{"path":"p.ts","content":"s = \\"</tool_call>\\"; if (x) { y(); }"}}</tool_call> Done.',
    calls: [["edit_lines", { path: "p.ts", content: 's = "</tool_call>"; if (x) { y(); }' }]],
    text: "Done.",
  },
  {
    name: "json-tag: a missing closing tag is tolerated when the JSON is complete",
    reply: '<tool_call>{"name": "get_structure", "arguments": {}}',
    calls: [["get_structure", {}]],
  },
  {
    name: "json-tag: an array of calls in one tag",
    reply: '<tool_call>[{"name": "get_lines", "arguments": {"path": "a"}}, {"name": "get_lines", "arguments": {"path": "b"}}]</tool_call>',
    calls: [["get_lines", { path: "a" }], ["get_lines", { path: "b" }]],
  },
  {
    name: "json-tag: name attribute with a JSON arguments body",
    reply: '<tool_call name="get_lines">{"path": "a.ts", "start": 2}</tool_call>',
    calls: [["get_lines", { path: "a.ts", start: 2 }]],
  },
  // --- JSON repair ---
  {
    name: "repair: trailing commas and single quotes",
    reply: "<tool_call>{'name': 'get_lines', 'arguments': {'path': \"it's.ts\", 'start': 3,},}</tool_call>",
    calls: [["get_lines", { path: "it's.ts", start: 3 }]],
  },
  {
    name: "repair: bare keys, Python literals, comments and a raw newline in a string",
    reply: '<tool_call>{name: "create_file", arguments: {path: "a.ts", content: "line1\nline2", force: True} // the file\n}</tool_call>',
    calls: [["create_file", { path: "a.ts", content: "line1\nline2", force: true }]],
  },
  // --- fences and bare JSON ---
  {
    name: "fence: a ```json block naming a known tool",
    reply: 'I need the structure.\n```json\n{"name": "get_structure", "arguments": {"path": "src"}}\n```',
    calls: [["get_structure", { path: "src" }, "json-fence"]],
    text: "I need the structure.",
  },
  {
    name: "fence: a json block that is ordinary data stays text",
    reply: 'Your package.json should have:\n```json\n{"name": "my-app", "version": "1.0.0"}\n```',
    calls: [],
    errors: [],
    text: 'Your package.json should have:\n```json\n{"name": "my-app", "version": "1.0.0"}\n```',
  },
  {
    name: "fence: an XML call inside a ```xml fence leaves no empty fence behind",
    reply: 'Checking.\n```xml\n<tool_call name="git_status"></tool_call>\n```',
    calls: [["git_status", {}, "xml"]],
    text: "Checking.",
  },
  {
    name: "bare: the whole reply is the call object",
    reply: '  {"name": "get_lines", "arguments": {"path": "a.ts"}}  ',
    calls: [["get_lines", { path: "a.ts" }, "bare-json"]],
    text: "",
  },
  {
    name: "bare: flat arguments without an arguments key",
    reply: '{"name": "get_lines", "path": "a.ts", "start": 5}',
    calls: [["get_lines", { path: "a.ts", start: 5 }]],
  },
  {
    name: "bare: OpenAI-style function wrapper",
    reply: '{"type": "function", "function": {"name": "get_structure", "arguments": {}}}',
    calls: [["get_structure", {}]],
  },
  {
    name: "bare: a call object inside prose",
    reply: 'Calling now: {"name": "get_lines", "arguments": {"path": "x.ts"}} and then I will answer.',
    calls: [["get_lines", { path: "x.ts" }, "bare-json"]],
    text: "Calling now:  and then I will answer.",
  },
  {
    name: "bare: an object in prose naming an unknown tool stays text",
    reply: 'A record looks like {"name": "alice", "arguments": {}} in this API.',
    calls: [],
    errors: [],
  },
  {
    name: "fence: a package.json shown in a json block (name and type, an unknown name, no arguments) stays text",
    reply: 'Add this to package.json:\n```json\n{"name": "@acme/core", "type": "module"}\n```\nThen rebuild.',
    calls: [],
    errors: [],
  },
  // --- several forms mixed ---
  {
    name: "mixed: XML, Qwen JSON and a fence in one reply, in order",
    reply:
      'First <tool_call name="get_structure"></tool_call>\nthen <tool_call>{"name":"get_lines","arguments":{"path":"a"}}</tool_call>\n' +
      '```json\n{"name": "git_status", "arguments": {}}\n```\nbye',
    calls: [["get_structure", {}, "xml"], ["get_lines", { path: "a" }, "json-tag"], ["git_status", {}, "json-fence"]],
    text: "First\nthen\n\nbye",
  },
  // --- errors ---
  {
    name: "error: unknown tool in the XML form",
    reply: '<tool_call name="read_file"><path>a</path></tool_call>',
    calls: [],
    errors: [["unknown-tool", "read_file"]],
    text: "",
  },
  {
    name: "error: unknown tool in Qwen JSON, next to a good call",
    reply: '<tool_call>{"name":"run_everything","arguments":{}}</tool_call><tool_call name="git_status"/>',
    calls: [["git_status", {}]],
    errors: [["unknown-tool", "run_everything"]],
  },
  {
    name: "error: a whole-reply call object naming an unknown tool",
    reply: '{"name": "search_web", "arguments": {"q": "x"}}',
    errors: [["unknown-tool", "search_web"]],
  },
  {
    name: "error: truncated XML (reply ended before </tool_call>)",
    reply: 'Reading <tool_call name="get_lines"><path>src/a.ts</path><start>1',
    calls: [],
    errors: [["truncated", "get_lines"]],
    text: "Reading",
  },
  {
    name: "error: truncated opening tag",
    reply: 'Reading <tool_call name="get_li',
    errors: [["truncated"]],
  },
  {
    name: "error: truncated JSON inside the tag",
    reply: '<tool_call>{"name": "get_lines", "arguments": {"path": "a.ts"',
    errors: [["truncated", "get_lines"]],
  },
  {
    name: "error: unrepairable JSON (the tool it names is still known, for the error's example)",
    reply: '<tool_call>{"name": "get_lines", "arguments": {"path": a.ts/b}}</tool_call>',
    errors: [["malformed", "get_lines"]],
  },
  {
    name: "error: a value that is not an element",
    reply: '<tool_call name="get_lines">src/a.ts</tool_call> ok',
    errors: [["malformed", "get_lines"]],
    text: "ok",
  },
  {
    name: "error: a call without a name",
    reply: "<tool_call><path>a.ts</path></tool_call>",
    errors: [["malformed"]],
  },
  {
    name: "error: arguments that are not an object",
    reply: '<tool_call>{"name": "get_lines", "arguments": ["a.ts"]}</tool_call>',
    errors: [["malformed", "get_lines"]],
  },
  {
    name: "error: truncated call in a json fence (the tool it names is known)",
    reply: '```json\n{"name": "get_lines", "arguments": {"path": "a',
    errors: [["truncated", "get_lines"]],
  },
  {
    name: "a tag quoted in inline code is prose about calls, not a call",
    reply: "Models must wrap calls in `<tool_call>` tags; the parser handles `<tool_call name=\"x\">` too.",
    text: "Models must wrap calls in `<tool_call>` tags; the parser handles `<tool_call name=\"x\">` too.",
  },
  {
    name: "a tag inside a ```ts block is code, while a real call after it still counts",
    reply: '```ts\nconst open = "<tool_call";\nconst re = /<tool_call name="(\\w+)">/;\n```\n<tool_call name="git_status"/>',
    calls: [["git_status", {}]],
    text: '```ts\nconst open = "<tool_call";\nconst re = /<tool_call name="(\\w+)">/;\n```',
  },
  {
    name: "a call-shaped object inside a ```ts block is code",
    reply: 'Example:\n```ts\nconst call = {"name": "get_lines", "arguments": {"path": "a.ts"}};\n```',
    text: 'Example:\n```ts\nconst call = {"name": "get_lines", "arguments": {"path": "a.ts"}};\n```',
  },
  {
    name: "plain prose with no call at all",
    reply: "The function `parse` splits the input on commas; a <b> tag is not a call.",
    calls: [],
    errors: [],
    text: "The function `parse` splits the input on commas; a <b> tag is not a call.",
  },
];

describe("parseToolCalls", () => {
  it.each(cases)("$name", ({ reply, calls = [], errors = [], text }) => {
    const result = parseToolCalls(reply, KNOWN);
    expect(result.calls.map((c) => [c.name, c.arguments])).toEqual(calls.map(([n, a]) => [n, a]));
    calls.forEach(([, , format], i) => format && expect(result.calls[i]!.format).toBe(format));
    expect(result.errors.map((e) => (e.name === undefined ? [e.kind] : [e.kind, e.name]))).toEqual(errors);
    for (const e of result.errors) expect(e.message).toContain("<tool_call");
    if (text !== undefined) expect(result.text).toBe(text);
  });

  it("has at least 25 table cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(25);
  });

  it("error messages show the expected form and list the known tools", () => {
    const example = '<tool_call name="get_lines"><path>src/server.ts</path></tool_call>';
    const { errors } = parseToolCalls('<tool_call name="read_file"><path>a</path></tool_call>', KNOWN, { example });
    expect(errors[0]!.message).toContain('There is no tool named "read_file"');
    expect(errors[0]!.message).toContain("get_lines, get_structure");
    expect(errors[0]!.message).toContain(example);
  });

  it.each([
    ['Reading <tool_call name="get_lines"><path>a.ts</path><start>1</start>', "incomplete call: the reply ended before </tool_call>"],
    ['Reading <tool_call name="get_lines"><path>a.ts</path><start>1', "incomplete call: the reply ended before a parameter was closed"],
    ['<tool_call>{"name": "get_lines", "arguments": {"path": a.ts/b}}</tool_call>', "unreadable call: its JSON could not be read"],
    ['<tool_call>{"name": "get_lines", "arguments": "{path"}</tool_call>', 'unreadable call: its "arguments" string is not JSON'],
    ["<tool_call><path>a.ts</path></tool_call>", "unreadable call: the tool call has no name"],
    ['<tool_call name="read_file"><path>a</path></tool_call>', "unknown tool"],
  ])("sums a failed call up for the user in a few words, without what only the model needs: %s", (reply, summary) => {
    const { errors } = parseToolCalls(reply, KNOWN);
    expect(errors.map((e) => e.summary)).toEqual([summary]);
  });

  it("accepts a predicate for the known tools", () => {
    const result = parseToolCalls('{"name": "x_tool", "arguments": {}}', (n) => n.startsWith("x_"));
    expect(result.calls.map((c) => c.name)).toEqual(["x_tool"]);
  });

  it("keeps two identical native calls: each is a call the model made and gets a result", () => {
    const same = { name: "git_status", arguments: {} };
    const result = parseToolCalls("", KNOWN, { nativeCalls: [same, same, { name: "get_lines", arguments: { path: "a.ts" } }] });
    expect(result.calls.map((c) => c.name)).toEqual(["git_status", "git_status", "get_lines"]);
  });

  it("merges native calls after text calls and drops duplicates of the same call", () => {
    const reply = '<tool_call name="get_lines"><path>a.ts</path><start>3</start></tool_call>';
    const result = parseToolCalls(reply, KNOWN, {
      nativeCalls: [
        { name: "get_lines", arguments: { path: "a.ts", start: 3 } }, // the same call, typed
        { name: "git_status", arguments: {} },
      ],
    });
    expect(result.calls.map((c) => [c.name, c.format])).toEqual([["get_lines", "xml"], ["git_status", "native"]]);
  });

  it("turns a native call to a tool that does not exist into an error for the model, not a call", () => {
    const result = parseToolCalls("", KNOWN, { nativeCalls: [{ name: "read_file", arguments: { path: "a.ts" } }, { name: "git_status", arguments: {} }] });
    expect(result.calls.map((c) => c.name)).toEqual(["git_status"]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ kind: "unknown-tool", name: "read_file" });
    expect(result.errors[0]!.message).toContain('There is no tool named "read_file"');
    expect(result.errors[0]!.raw).toContain('"path":"a.ts"');
  });

  it("keeps raw text of each call for logs", () => {
    const reply = 'a <tool_call name="git_status"/> b';
    expect(parseToolCalls(reply, KNOWN).calls[0]!.raw).toBe('<tool_call name="git_status"/>');
  });
});
