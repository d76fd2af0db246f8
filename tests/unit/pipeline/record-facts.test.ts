// Stored graph facts come back through parseGraphInput; a damaged record must be refused (its callers
// then leave the file out of the graph) rather than reach the meta text, which is built from it.
import { describe, expect, it } from "vitest";
import { parseGraphInput } from "../../../src/pipeline/record-facts.js";

const complexity = { loc: 3, nesting: 0, imports: 1, score: 4 };

describe("parseGraphInput", () => {
  it("gives every import all its flags, and every level one shape", () => {
    const json = JSON.stringify({
      facts: {
        imports: [{ from: "./a", name: "a" }, { from: "./b", name: "*", isReExport: true }, { from: "./c", name: "default", isReExport: true, as: "C" }, { from: "./d", name: "b", imported: "a" }],
        exports: [],
        symbols: [{ name: "f", kind: "function", line: 1 }],
        calls: [],
        defaultName: "f",
      },
      complexity,
    });
    const input = parseGraphInput(json);
    expect(input.facts.defaultName).toBe("f");
    expect(input.facts.imports).toEqual([
      { from: "./a", name: "a", isTypeOnly: false, isReExport: false, isDynamic: false, as: "", imported: "" },
      { from: "./b", name: "*", isTypeOnly: false, isReExport: true, isDynamic: false, as: "", imported: "" },
      { from: "./c", name: "default", isTypeOnly: false, isReExport: true, isDynamic: false, as: "C", imported: "" },
      { from: "./d", name: "b", isTypeOnly: false, isReExport: false, isDynamic: false, as: "", imported: "a" },
    ]);
    expect(Object.keys(input)).toEqual(["facts", "complexity"]);
    expect(Object.keys(input.facts)).toEqual(["imports", "exports", "symbols", "calls", "defaultName", "moduleName"]);
    expect(input.complexity).toEqual(complexity);
  });

  it("fills lists a record left out, and refuses one without facts or complexity", () => {
    expect(parseGraphInput(JSON.stringify({ facts: { symbols: [{ name: "f", kind: "function", line: 1 }] }, complexity })).facts).toEqual({
      imports: [],
      exports: [],
      symbols: [{ name: "f", kind: "function", line: 1 }],
      calls: [],
      defaultName: "",
      moduleName: "",
    });
    expect(() => parseGraphInput("{not json")).toThrow();
    expect(() => parseGraphInput(JSON.stringify({ complexity }))).toThrow(/damaged/);
    expect(() => parseGraphInput(JSON.stringify({ facts: { imports: [] } }))).toThrow(/damaged/);
    expect(() => parseGraphInput("null")).toThrow();
  });
});
