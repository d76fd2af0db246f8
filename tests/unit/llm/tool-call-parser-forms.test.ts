// The call forms whose reading was ambiguous or missing: a tool argument called `name` beside the tool's
// name, Qwen3-coder's <function=…> without <tool_call> around it, the order of calls and failed calls,
// and the example a broken call's error shows.
import { describe, expect, it } from "vitest";
import { parseToolCalls } from "../../../src/main/llm/tool-call-parser.js";

const KNOWN = new Set(["get_lines", "get_function", "find_definition", "git_status"]);
const callsOf = (reply: string) => parseToolCalls(reply, KNOWN).calls.map((c) => [c.name, c.arguments]);

describe("a tool argument called `name` next to the tool's name", () => {
  it("reads {name, arguments: {name}} as the tool with its own name argument, in a tag, a fence and as the whole reply", () => {
    const json = '{"name":"find_definition","arguments":{"name":"Money"}}';
    for (const reply of [`<tool_call>${json}</tool_call>`, "```json\n" + json + "\n```", json, `Looking it up: ${json}`]) {
      expect(callsOf(reply), reply).toEqual([["find_definition", { name: "Money" }]]);
    }
  });

  it("reads the flat form with two name keys: the one naming a tool is the tool, the other its argument", () => {
    expect(callsOf('{"name": "get_function", "path": "a.ts", "name": "main"}')).toEqual([["get_function", { path: "a.ts", name: "main" }]]);
    expect(callsOf('{"name": "main", "path": "a.ts", "name": "get_function"}')).toEqual([["get_function", { path: "a.ts", name: "main" }]]);
    expect(callsOf('<tool_call>{"name": "get_function", "path": "a.ts", "name": "main"}</tool_call>')).toEqual([["get_function", { path: "a.ts", name: "main" }]]);
    expect(callsOf("<tool_call>{name: 'get_function', path: 'a.ts', name: 'main',}</tool_call>")).toEqual([["get_function", { path: "a.ts", name: "main" }]]);
  });

  it("lines up the name keys of each call in an array of flat calls", () => {
    const reply = '<tool_call>[{"name": "get_function", "path": "a.ts", "name": "main"}, {"name": "get_lines", "path": "b.ts"}]</tool_call>';
    expect(callsOf(reply)).toEqual([["get_function", { path: "a.ts", name: "main" }], ["get_lines", { path: "b.ts" }]]);
  });

  it("a name key nested in the arguments is not taken for a duplicate", () => {
    expect(callsOf('{"name": "get_function", "arguments": {"path": "a.ts", "name": "main"}}')).toEqual([["get_function", { path: "a.ts", name: "main" }]]);
  });

  it("with `function` naming the tool, `name` is an argument", () => {
    expect(callsOf('{"function": "get_function", "name": "main", "path": "a.ts"}')).toEqual([["get_function", { name: "main", path: "a.ts" }]]);
    expect(callsOf('{"type": "function", "function": "get_lines", "arguments": {"path": "a.ts"}}')).toEqual([["get_lines", { path: "a.ts" }]]);
  });

  it("with the tool named in the tag, a JSON body's name is an argument, unless it repeats the tag's", () => {
    expect(callsOf('<tool_call name="get_function">{"name": "main", "path": "a.ts"}</tool_call>')).toEqual([["get_function", { name: "main", path: "a.ts" }]]);
    expect(callsOf('<tool_call name="get_lines">{"name": "get_lines", "path": "a.ts"}</tool_call>')).toEqual([["get_lines", { path: "a.ts" }]]);
    // A tag name that is no tool, around a whole flat call: the call is read.
    expect(callsOf('<tool_call name="call">{"name": "get_lines", "path": "a.ts"}</tool_call>')).toEqual([["get_lines", { path: "a.ts" }]]);
  });

  it("in the XML form, the <name> element naming a tool is the tool whatever its place", () => {
    expect(callsOf("<tool_call><path>a.ts</path><name>main</name><name>get_function</name></tool_call>")).toEqual([["get_function", { path: "a.ts", name: "main" }]]);
    expect(callsOf('<tool_call name="get_function"><path>a.ts</path><name>main</name></tool_call>')).toEqual([["get_function", { path: "a.ts", name: "main" }]]);
  });
});

describe("Qwen3-coder's <function=…> without a <tool_call> around it", () => {
  it("is a call, not answer text", () => {
    const reply = "I will read it.\n<function=get_lines>\n<parameter=path>\nsrc/a.ts\n</parameter>\n<parameter=start>\n3\n</parameter>\n</function>";
    const parsed = parseToolCalls(reply, KNOWN);
    expect(parsed.calls.map((c) => [c.name, c.arguments, c.format])).toEqual([["get_lines", { path: "src/a.ts", start: "3" }, "function-tag"]]);
    expect(parsed.text).toBe("I will read it.");
  });

  it("takes a closing </tool_call> whose opening tag was left out with it", () => {
    const parsed = parseToolCalls("<function=get_function><parameter=path>a.ts</parameter><parameter=name>main</parameter></function>\n</tool_call> then more", KNOWN);
    expect(parsed.calls.map((c) => [c.name, c.arguments])).toEqual([["get_function", { path: "a.ts", name: "main" }]]);
    expect(parsed.text).toBe("then more");
  });

  it("two of them in one reply are two calls, in order", () => {
    expect(callsOf("<function=git_status></function><function=get_lines><parameter=path>b.ts</parameter></function>")).toEqual([
      ["git_status", {}],
      ["get_lines", { path: "b.ts" }],
    ]);
  });

  it("naming no tool: a well-formed block is a call to a tool that does not exist, a sentence about the syntax is text", () => {
    const unknown = parseToolCalls("<function=read_file><parameter=path>a.ts</parameter></function>", KNOWN);
    expect(unknown.errors.map((e) => [e.kind, e.name])).toEqual([["unknown-tool", "read_file"]]);
    const prose = "Qwen3 writes <function=NAME> followed by parameters.";
    expect(parseToolCalls(prose, KNOWN)).toMatchObject({ calls: [], errors: [], text: prose });
  });

  it("naming a tool but cut off is an incomplete call; quoted in backticks it is text", () => {
    const cut = parseToolCalls("<function=get_lines><parameter=path>src/a", KNOWN);
    expect(cut.errors.map((e) => [e.kind, e.name])).toEqual([["truncated", "get_lines"]]);
    const quoted = "Calls look like `<function=get_lines><parameter=path>a</parameter></function>` in Qwen3.";
    expect(parseToolCalls(quoted, KNOWN)).toMatchObject({ calls: [], errors: [], text: quoted });
  });
});

describe("the order of calls and failed calls", () => {
  it("items keep the order the model wrote them in, failed ones in their place, native calls last", () => {
    const reply =
      '<tool_call name="get_lines"><path>a.ts</path></tool_call>\n' +
      '<tool_call name="read_file"><path>b.ts</path></tool_call>\n' +
      '<tool_call>{"name": "get_lines", "arguments": "not json"}</tool_call>\n' +
      '<tool_call name="git_status"/>';
    const parsed = parseToolCalls(reply, KNOWN, { nativeCalls: [{ name: "find_definition", arguments: { symbol: "Money" } }] });
    expect(parsed.items.map((i) => (i.call ? `call ${i.call.name}` : `${i.error.kind} ${i.error.name}`))).toEqual([
      "call get_lines",
      "unknown-tool read_file",
      "malformed get_lines",
      "call git_status",
      "call find_definition",
    ]);
    expect(parsed.calls.map((c) => c.name)).toEqual(["get_lines", "git_status", "find_definition"]);
    expect(parsed.errors.map((e) => e.kind)).toEqual(["unknown-tool", "malformed"]);
  });
});

describe("the example a broken call's error shows", () => {
  it("is asked for the tool the call was for (none for a tool that does not exist), and an incomplete call is told to make smaller calls", () => {
    const asked: Array<string | undefined> = [];
    const example = (name: string | undefined) => {
      asked.push(name);
      return name ? `<tool_call name="${name}"><path>PATH</path></tool_call>` : "<tool_call name=\"TOOL_NAME\"></tool_call>";
    };
    const truncated = parseToolCalls('<tool_call name="get_lines"><path>src/a', KNOWN, { example });
    expect(truncated.errors[0]!.message).toContain('Send the whole call again in this form: <tool_call name="get_lines"><path>PATH</path></tool_call>');
    expect(truncated.errors[0]!.message).toContain("make smaller changes in several calls");
    const unknown = parseToolCalls('<tool_call name="read_file"><path>a</path></tool_call>', KNOWN, { example });
    expect(unknown.errors[0]!.message).toContain('Call one as: <tool_call name="TOOL_NAME"></tool_call>');
    expect(asked).toEqual(["get_lines", undefined]);
  });
});
