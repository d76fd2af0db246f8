// The deep pass reads nodes through tree-sitter's native binding when a self-check passes, else through
// the public SyntaxNode API. Both must give identical results.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  PublicDeepNodes,
  RawDeepNodes,
  sameNodes,
  setDeepNodeSource,
  usesNativeBinding,
} from "../../../src/workers/extract/deep-nodes.js";
import { nativeBinding } from "../../../src/workers/extract/native-binding.js";
import { parseSource } from "../../../src/workers/extract/parsers.js";
import { SourceText } from "../../../src/workers/extract/source-text.js";
import { extractFile, languageForPath } from "../../../src/workers/extract/index.js";
import type { SourceLanguage } from "../../../src/workers/protocol.js";

const FIXTURES = fileURLToPath(new URL("../../fixtures/languages/", import.meta.url));

const samples: [string, string, SourceLanguage][] = readdirSync(FIXTURES, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => {
    const path = `${entry.parentPath}/${entry.name}`;
    return [entry.name, readFileSync(path, "utf8"), languageForPath(path)!] as [string, string, SourceLanguage];
  })
  .filter(([, , language]) => language !== "json" && language !== "yaml");

samples.push([
  "chains and non-ASCII",
  [
    "// ünïcödé 😀",
    "const x = ({ a: 1 }).toString();",
    "const y = { a: 1 }.valueOf();",
    "z.object({ a: z.string() }).extend({ b: z.number().optional() }).parse(input);",
    "function f() { switch (k) { case 1: { g?.('é'); } } }",
    "items[0]()(1);",
  ].join("\n"),
  "typescript",
]);

afterEach(() => setDeepNodeSource("auto"));

describe("deep node sources", () => {
  it("uses the native binding with the pinned tree-sitter", () => {
    expect(usesNativeBinding()).toBe(true);
  });

  it("reads fresh and already-materialised nodes alike through the binding", () => {
    const source = samples.at(-1)![1];
    const tree = parseSource(source, "typescript");
    const types = ["call_expression", "comment", "statement_block", "switch_body"];
    const fresh = new RawDeepNodes(nativeBinding()!, tree, types);
    const viaPublicApi = new PublicDeepNodes(tree.rootNode, new SourceText(source), types);
    const cached = new RawDeepNodes(nativeBinding()!, tree, types);
    expect(viaPublicApi.count).toBeGreaterThan(10);
    expect(sameNodes(viaPublicApi, fresh)).toBe(true);
    expect(sameNodes(viaPublicApi, cached)).toBe(true);
    expect(sameNodes(viaPublicApi, new PublicDeepNodes(parseSource(source + "\nf();", "typescript").rootNode, new SourceText(source), types))).toBe(false);
  });

  it.each(samples)("gives the same result both ways: %s", (_name, source, language) => {
    setDeepNodeSource("auto");
    const native = extractFile(source, language);
    setDeepNodeSource("public");
    const viaPublicApi = extractFile(source, language);
    expect(native).toEqual(viaPublicApi);
    expect(native.facts.calls.length + native.ast.imports.length).toBeGreaterThan(0);
  });
});
