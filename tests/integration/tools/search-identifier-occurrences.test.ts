// The pure parts behind the search tools: identifier occurrences judged by their syntax node, comment
// markers, symbol-name parsing, suggestions and scan budgets. No Redis needed.
import { describe, expect, it } from "vitest";
import { globLiteral } from "../../../src/main/store/index-queries.js";
import { enclosingDeclaration } from "../../../src/main/tools/find-references.js";
import { findCommentMarkers } from "../../../src/main/tools/get-todos.js";
import { findIdentifierOccurrences, identifierPattern } from "../../../src/main/tools/identifier-occurrences.js";
import { pastBudget } from "../../../src/main/tools/search-output.js";
import { parseSymbolName } from "../../../src/main/tools/symbol-name.js";
import { editDistance, suggestionRank } from "../../../src/main/tools/symbol-suggestions.js";
import type { FileAST } from "../../../src/workers/ast-types.js";

const lines = (...l: string[]) => l.join("\n");

describe("findIdentifierOccurrences", () => {
  it("keeps code and drops comments, strings, template text and JSX text", () => {
    const src = lines(
      "// Money here is a comment",
      'const s = "Money";',
      "const t = `Money ${Money.of(1)}`;",
      "/* Money */ let a: Money = new Money();",
      "const el = <Money title={Money}>Money</Money>;",
    );
    const found = findIdentifierOccurrences(src, "tsx", "Money");
    expect(found).toEqual([
      { line: 3, role: "ref" },
      { line: 4, role: "type" },
      { line: 4, role: "new" },
      { line: 5, role: "jsx" },
      { line: 5, role: "ref" },
      { line: 5, role: "jsx" },
    ]);
  });

  it("tells declarations, imports, exports, calls and members apart", () => {
    const src = lines(
      'import { sum as total, sum } from "./m";',
      "export { sum };",
      "function sum(a: number) { return a; }",
      "sum(1); obj.sum(2); obj.sum; const o = { sum: 1, sum2: 2 };",
      "const { sum: renamed } = o; const { sum } = o;",
      "class K { sum() {} static sum = 1; }",
    );
    expect(findIdentifierOccurrences(src, "typescript", "sum").map((o) => `${o.line}:${o.role}`)).toEqual([
      "1:import",
      "1:import",
      "2:export",
      "3:definition",
      "4:call",
      "4:call",
      "4:member",
      "4:member",
      "5:member",
      "5:definition",
      "6:definition",
      "6:definition",
    ]);
  });

  it("matches whole identifiers only, with $ and _ as identifier characters", () => {
    const src = "const $sum = 1, sum_ = 2, sums = 3, sum = 4; sum$;";
    expect(findIdentifierOccurrences(src, "javascript", "sum")).toEqual([{ line: 1, role: "definition" }]);
    expect(identifierPattern("$x").test("a.$x")).toBe(true);
  });

  it("finds #private names only when asked for them, and members only in member mode", () => {
    const src = lines("class A {", "  #n = 1;", "  n = 2;", "  get() { return this.#n + this.n + n; }", "}");
    expect(findIdentifierOccurrences(src, "typescript", "#n").map((o) => o.line)).toEqual([2, 4]);
    expect(findIdentifierOccurrences(src, "typescript", "n").map((o) => `${o.line}:${o.role}`)).toEqual(["3:definition", "4:member", "4:ref"]);
    expect(findIdentifierOccurrences(src, "typescript", "n", { membersOnly: true }).map((o) => `${o.line}:${o.role}`)).toEqual(["3:definition", "4:member"]);
  });

  it("keeps line numbers right after non-ASCII text and astral characters", () => {
    const src = lines("// привет 😀 мир", 'const s = "😀😀"; x();', "x();");
    expect(findIdentifierOccurrences(src, "typescript", "x")).toEqual([
      { line: 2, role: "call" },
      { line: 3, role: "call" },
    ]);
  });

  it("reads CommonJS require bindings", () => {
    const src = lines('const { execSync } = require("child_process");', "execSync(`git tag`);");
    expect(findIdentifierOccurrences(src, "javascript", "execSync").map((o) => o.role)).toEqual(["definition", "call"]);
  });
});

describe("findCommentMarkers", () => {
  it("reports comment markers once per line with the first marker's kind", () => {
    const src = lines("// TODO one FIXME two", 'const s = "TODO";', "/**", " * XXX: doc", " */", "let TODO_LIST = 1; // HACK");
    expect(findCommentMarkers(src, "typescript")).toEqual([
      { line: 1, marker: "TODO" },
      { line: 4, marker: "XXX" },
      { line: 6, marker: "HACK" },
    ]);
  });

  it("reads comments in JSON (tsconfig style) and YAML, never their values", () => {
    expect(findCommentMarkers('{\n  // TODO: strict\n  "a": "TODO"\n}', "json")).toEqual([{ line: 2, marker: "TODO" }]);
    expect(findCommentMarkers("a: FIXME\n# FIXME: real\n", "yaml")).toEqual([{ line: 2, marker: "FIXME" }]);
  });

  it("ignores lowercase words and markers inside longer words", () => {
    expect(findCommentMarkers("// todo later, TODOS, XXXL, HACKER", "typescript")).toEqual([]);
  });
});

describe("parseSymbolName", () => {
  it.each([
    ["sum", "sum"],
    ["  Money.add  ", "Money.add"],
    ["formatMoney()", "formatMoney"],
    ["$store", "$store"],
    ["_private", "_private"],
    ["#secret", "#secret"],
    ["Money.#cents", "Money.#cents"],
    ["Привет", "Привет"],
  ])("accepts %j as %j", (raw, name) => {
    expect(parseSymbolName(raw)).toEqual({ ok: true, name });
  });

  it.each(["", "  ", "a b", "a.b.c", "1x", "a-b", "a*", "sym:x", "a\nb", "x(1)", ".a", "a."])("rejects %j", (raw) => {
    const r = parseSymbolName(raw, "symbol");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/^"symbol" must be one identifier/);
  });
});

describe("suggestions and small helpers", () => {
  it("computes bounded edit distances", () => {
    expect(editDistance("money", "mony", 2)).toBe(1);
    expect(editDistance("kitten", "sitting", 3)).toBe(3);
    expect(editDistance("abc", "abcdefgh", 2)).toBe(3);
  });

  it("ranks exact-case, method-name, near and containing matches", () => {
    expect(suggestionRank("money", "Money")).toBe(0);
    expect(suggestionRank("add", "Money.add")).toBe(0);
    expect(suggestionRank("Mony", "Money")).toBe(1);
    expect(suggestionRank("Order", "OrderService")).toBe(2);
    expect(suggestionRank("zzz", "Money")).toBeNull();
  });

  it("finds the innermost function or method around a line", () => {
    const ast = {
      functions: [{ name: "outer", lineStart: 1, lineEnd: 20 }],
      classes: [{ name: "C", lineStart: 30, lineEnd: 40, methods: [{ name: "m", lineStart: 32, lineEnd: 35 }] }],
    } as unknown as FileAST;
    expect(enclosingDeclaration(ast, 5)).toBe("outer");
    expect(enclosingDeclaration(ast, 33)).toBe("C.m");
    expect(enclosingDeclaration(ast, 38)).toBe("C");
    expect(enclosingDeclaration(ast, 25)).toBeNull();
  });

  it("stops parsing past the budget once enough is shown, or past twice the budget", () => {
    expect(pastBudget(100, true, 1000)).toBe(false);
    expect(pastBudget(1500, false, 1000)).toBe(false);
    expect(pastBudget(1500, true, 1000)).toBe(true);
    expect(pastBudget(2500, false, 1000)).toBe(true);
  });

  it("escapes Redis glob characters", () => {
    expect(globLiteral("a*b?c[d]e\\f")).toBe("a\\*b\\?c\\[d\\]e\\\\f");
  });
});
