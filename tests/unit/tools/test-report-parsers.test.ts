// The report parsers, runner detection and command building of run_tests, on recorded runner output
// (vitest 4.1 JSON, node 20 TAP) and on the documented jest/mocha JSON shapes.
import { execFileSync, spawn } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanTerminalOutput, headAndTail } from "../../../src/main/exec/output-text.js";
import { shellQuote } from "../../../src/main/exec/shell-quote.js";
import { buildTestCommand, detectTestRunner, escapeRegExp, parseNodeTestScript } from "../../../src/main/tools/test-runners/detect-runner.js";
import { firstLines, lineFromStack, parseJestLikeReport, parseMochaReport, parseTextSummary } from "../../../src/main/tools/test-runners/report-parsers.js";
import { parseTapReport } from "../../../src/main/tools/test-runners/tap-report.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";

const ROOT = "/work/proj";

const VITEST_REPORT = JSON.stringify({
  numPassedTests: 1,
  numFailedTests: 1,
  numPendingTests: 1,
  numTodoTests: 0,
  success: false,
  testResults: [
    {
      assertionResults: [],
      status: "failed",
      message: "Failed to parse source for import analysis because the content contains invalid JS syntax.",
      name: "/work/proj/src/broken.test.js",
    },
    {
      assertionResults: [
        { ancestorTitles: ["math"], fullName: "math adds", status: "passed", title: "adds", failureMessages: [], location: { line: 3, column: 3 } },
        {
          ancestorTitles: ["math"],
          fullName: "math subtracts wrongly",
          status: "failed",
          title: "subtracts wrongly",
          failureMessages: [
            "AssertionError: expected 2 to be 3 // Object.is equality\n    at /work/proj/src/math.test.js:5:19\n    at file:///work/proj/node_modules/@vitest/runner/dist/chunk-artifact.js:302:11",
          ],
          location: { line: 4, column: 3 },
        },
        { ancestorTitles: ["math"], fullName: "math skipped one", status: "skipped", title: "skipped one", failureMessages: [] },
      ],
      status: "failed",
      message: "",
      name: "/work/proj/src/math.test.js",
    },
  ],
});

const JEST_REPORT = JSON.stringify({
  numFailedTests: 2,
  numPassedTests: 5,
  numPendingTests: 1,
  numTodoTests: 1,
  testResults: [
    {
      name: "/work/proj/src/cart.test.ts",
      status: "failed",
      message: "",
      assertionResults: [
        {
          ancestorTitles: ["cart", "totals"],
          title: "sums prices",
          status: "failed",
          location: { line: 12, column: 5 },
          failureMessages: [
            "Error: \u001b[2mexpect(\u001b[22m\u001b[31mreceived\u001b[39m\u001b[2m).\u001b[22mtoBe\u001b[2m(\u001b[22m\u001b[32mexpected\u001b[39m\u001b[2m)\u001b[22m\n\nExpected: \u001b[32m10\u001b[39m\nReceived: \u001b[31m9\u001b[39m\n    at Object.<anonymous> (/work/proj/src/cart.test.ts:14:22)\n    at Promise.then.completed (/work/proj/node_modules/jest-circus/build/utils.js:298:28)",
          ],
        },
        { ancestorTitles: [], title: "no stack", status: "failed", location: { line: 30, column: 1 }, failureMessages: ["thrown: \"plain\""] },
        { ancestorTitles: [], title: "ok", status: "passed", failureMessages: [] },
      ],
    },
  ],
});

const MOCHA_STDOUT = `console noise from a test
{
  "stats": {
    "suites": 1,
    "tests": 3,
    "passes": 1,
    "pending": 1,
    "failures": 1
  },
  "tests": [],
  "pending": [],
  "failures": [
    {
      "title": "parses dates",
      "fullTitle": "dates parses dates",
      "file": "/work/proj/test/dates.spec.js",
      "duration": 2,
      "err": {
        "message": "expected '2020' to equal '2021'",
        "stack": "AssertionError: expected '2020' to equal '2021'\\n    at Context.<anonymous> (test/dates.spec.js:9:25)\\n    at Context.<anonymous> (/work/proj/test/dates.spec.js:9:25)"
      }
    }
  ],
  "passes": []
}
`;

// node 20.20 `--test-reporter=tap`, trimmed.
const NODE_TAP = `TAP version 13
# Subtest: math
    # Subtest: adds
    ok 1 - adds
      ---
      duration_ms: 0.480568
      ...
    # Subtest: subtracts wrongly
    not ok 2 - subtracts wrongly
      ---
      duration_ms: 0.845011
      location: '/work/proj/test/math.test.js:5:3'
      failureType: 'testCodeFailure'
      error: |-
        Expected values to be strictly equal:
        
        2 !== 3
        
      code: 'ERR_ASSERTION'
      stack: |-
        TestContext.<anonymous> (file:///work/proj/test/math.test.js:6:12)
        Test.runInAsyncScope (node:async_hooks:206:9)
      ...
    # Subtest: skipped
    ok 3 - skipped # SKIP
      ---
      duration_ms: 0.084115
      ...
    # Subtest: todo one
    not ok 4 - todo one # TODO
      ---
      duration_ms: 0.064667
      ...
    1..4
not ok 1 - math
  ---
  duration_ms: 2.337971
  type: 'suite'
  location: '/work/proj/test/math.test.js:3:1'
  failureType: 'subtestsFailed'
  error: '1 subtest failed'
  code: 'ERR_TEST_FAILURE'
  ...
# file:///work/proj/test/bad.test.js:3
# SyntaxError: Unexpected end of input
#     at compileSourceTextModule (node:internal/modules/esm/utils:346:16)
# Node.js v20.20.2
# Subtest: /work/proj/test/bad.test.js
not ok 2 - /work/proj/test/bad.test.js
  ---
  duration_ms: 191.334498
  location: '/work/proj/test/bad.test.js:1:1'
  failureType: 'testCodeFailure'
  exitCode: 1
  error: 'test failed'
  code: 'ERR_TEST_FAILURE'
  ...
# Subtest: it\\#1 isn't quoted
not ok 3 - it\\#1 isn't quoted
  ---
  duration_ms: 0.1
  location: '/work/proj/test/q.test.js:2:1'
  failureType: 'testCodeFailure'
  error: 'it''s wrong'
  ...
1..3
# tests 6
# suites 1
# pass 1
# fail 3
# cancelled 0
# skipped 1
# todo 1
# duration_ms 87.039393
`;

describe("parseJestLikeReport", () => {
  it("reads vitest's JSON: counts, the assertion's line from the stack, file-level failures", () => {
    const s = parseJestLikeReport(VITEST_REPORT, ROOT)!;
    expect({ passed: s.passed, failed: s.failed, skipped: s.skipped, todo: s.todo, failedFiles: s.failedFiles }).toEqual({ passed: 1, failed: 1, skipped: 1, todo: 0, failedFiles: 1 });
    expect(s.failures).toEqual([
      { name: "(the test file failed to run)", file: "src/broken.test.js", line: null, message: "Failed to parse source for import analysis because the content contains invalid JS syntax." },
      { name: "math > subtracts wrongly", file: "src/math.test.js", line: 5, message: "AssertionError: expected 2 to be 3 // Object.is equality" },
    ]);
  });

  it("reads jest's JSON, stripping colour codes; without a stack frame it uses the test's location", () => {
    const s = parseJestLikeReport(JEST_REPORT, ROOT)!;
    expect([s.passed, s.failed, s.skipped, s.todo]).toEqual([5, 2, 1, 1]);
    expect(s.failures[0]).toEqual({ name: "cart > totals > sums prices", file: "src/cart.test.ts", line: 14, message: "Error: expect(received).toBe(expected)\nExpected: 10\nReceived: 9" });
    expect(s.failures[1]).toMatchObject({ name: "no stack", line: 30, message: 'thrown: "plain"' });
  });

  it("returns null for anything that is not such a report", () => {
    expect(parseJestLikeReport("", ROOT)).toBeNull();
    expect(parseJestLikeReport("{not json", ROOT)).toBeNull();
    expect(parseJestLikeReport('{"stats": {}}', ROOT)).toBeNull();
  });
});

describe("parseMochaReport", () => {
  it("finds the JSON after test output and reads failures with file:line", () => {
    const s = parseMochaReport(MOCHA_STDOUT, ROOT)!;
    expect([s.passed, s.failed, s.skipped]).toEqual([1, 1, 1]);
    expect(s.failures).toEqual([{ name: "dates > parses dates", file: "test/dates.spec.js", line: 9, message: "expected '2020' to equal '2021'" }]);
  });

  it("reads the line from mocha 11's frames, which name the file relative to the working folder", () => {
    const failure = {
      title: "subtracts wrongly",
      fullTitle: "math ops subtracts wrongly",
      file: `${ROOT}/test/math.test.js`,
      err: {
        stack: "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n2 !== 3\n\n    at Context.<anonymous> (test/math.test.js:5:12)\n    at process.processImmediate (node:internal/timers:483:21)",
        message: "Expected values to be strictly equal:\n\n2 !== 3\n",
      },
    };
    const stdout = `${JSON.stringify({ stats: { suites: 1, tests: 2, passes: 1, pending: 0, failures: 1 }, tests: [], pending: [], failures: [failure], passes: [] }, null, 2)}\n`;
    const s = parseMochaReport(stdout, ROOT)!;
    expect(s.failures).toEqual([{ name: "math ops > subtracts wrongly", file: "test/math.test.js", line: 5, message: "Expected values to be strictly equal:\n2 !== 3" }]);
    // Only a frame that starts with the relative path counts: another folder's test/math.test.js is not it.
    const elsewhere = stdout.replace("(test/math.test.js:5:12)", "(vendor/test/math.test.js:5:12)");
    expect(parseMochaReport(elsewhere, ROOT)!.failures[0]!.line).toBeNull();
  });

  it("returns null without a report", () => {
    expect(parseMochaReport("Error: cannot find module 'mocha'\n", ROOT)).toBeNull();
    expect(parseMochaReport('{\n  "stats": {\n broken', ROOT)).toBeNull();
  });
});

describe("parseTapReport", () => {
  const s = parseTapReport(NODE_TAP, ROOT)!;

  it("takes the counts from the trailer (cancelled count as failed)", () => {
    expect([s.passed, s.failed, s.skipped, s.todo, s.failedFiles]).toEqual([1, 3, 1, 1, 1]);
  });

  it("lists real failures only: not the suite of a failing child, not TODO", () => {
    expect(s.failures.map((f) => f.name)).toEqual(["math > subtracts wrongly", "(the test file failed to run)", "it#1 isn't quoted"]);
  });

  it("points at the failing assertion, a crashed file's syntax error, or the test's location", () => {
    expect(s.failures[0]).toEqual({ name: "math > subtracts wrongly", file: "test/math.test.js", line: 6, message: "Expected values to be strictly equal:\n2 !== 3" });
    expect(s.failures[1]).toMatchObject({ file: "test/bad.test.js", line: 3 });
    expect(s.failures[1]!.message).toContain("SyntaxError: Unexpected end of input");
    expect(s.failures[1]!.message).not.toContain("compileSourceTextModule");
    expect(s.failures[2]).toEqual({ name: "it#1 isn't quoted", file: "test/q.test.js", line: 2, message: "it's wrong" });
  });

  it("returns null for text without TAP", () => {
    expect(parseTapReport("node: bad option: --test-reporter=tap\n", ROOT)).toBeNull();
  });
});

describe("parseTextSummary", () => {
  it.each([
    ["vitest", "\u001b[2m      Tests \u001b[22m \u001b[1m\u001b[31m1 failed\u001b[39m | 2 passed | 1 skipped (4)", [2, 1, 1]],
    ["jest", "Tests:       1 failed, 1 skipped, 2 passed, 4 total", [2, 1, 1]],
    ["mocha", "  3 passing (5ms)\n  1 pending\n  2 failing\n", [3, 2, 1]],
    ["node tap", "# tests 4\n# pass 3\n# fail 1\n# cancelled 0\n# skipped 0\n", [3, 1, 0]],
    ["node spec", "ℹ tests 4\nℹ pass 2\nℹ fail 1\nℹ cancelled 1\nℹ skipped 0\n", [2, 2, 0]],
  ] as const)("reads %s's summary", (_name, text, [passed, failed, skipped]) => {
    const s = parseTextSummary(text)!;
    expect([s.passed, s.failed, s.skipped]).toEqual([passed, failed, skipped]);
  });

  it("returns null when there is no summary", () => {
    expect(parseTextSummary("Error: Cannot find module 'vitest'")).toBeNull();
  });
});

describe("message helpers", () => {
  it("firstLines drops stack frames and empty lines and caps the count", () => {
    const message = ["Error: a", "", "    at x (/a.js:1:1)", "b", "c", "d", "e", "f", "g", "h"].join("\n");
    expect(firstLines(message, 3)).toBe("Error: a\nb\nc\n… (5 more lines)");
  });

  it("lineFromStack finds plain and file:// frames of the file only", () => {
    expect(lineFromStack("at other (/x/y.js:2:2)\n at (/work/proj/a.test.ts:7:1)", "/work/proj/a.test.ts")).toBe(7);
    expect(lineFromStack("fn (file:///work/proj/a.test.ts:9:3)", "/work/proj/a.test.ts")).toBe(9);
    expect(lineFromStack("at (/work/proj/a.test.tsx:9:3)", "/work/proj/a.test.ts")).toBeNull();
  });

  it("cleanTerminalOutput removes colours, redraws and control characters", () => {
    expect(cleanTerminalOutput("\u001b[32mok\u001b[0m\r\n10%\r50%\r100%\nbell\u0007\u001b]0;title\u0007done\r")).toBe("ok\n100%\nbelldone");
  });

  it("headAndTail keeps both ends at line boundaries and says how much is left out", () => {
    const text = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join("\n");
    const capped = headAndTail(text, 600);
    expect(capped.omitted).toBeGreaterThan(0);
    expect(capped.text.startsWith("line 0\nline 1\n")).toBe(true);
    expect(capped.text.endsWith("line 998\nline 999")).toBe(true);
    expect(capped.text).toContain(`… [${capped.omitted} characters omitted; the whole output is shown in the UI] …`);
    expect(headAndTail("short", 600)).toEqual({ text: "short", omitted: 0 });
  });

  it("shellQuote makes one word of anything", () => {
    expect(shellQuote("src/a.test.ts")).toBe("src/a.test.ts");
    expect(shellQuote("it's $(rm -rf /) `x`")).toBe(`'it'\\''s $(rm -rf /) \`x\`'`);
    expect(shellQuote("")).toBe("''");
  });
});

describe("detectTestRunner", () => {
  let dir = "";
  afterEach(() => removeDir(dir));
  const detect = (pkg: unknown) => {
    dir = makeTempDir("ipuaro-detect-");
    writeTree(dir, { "package.json": typeof pkg === "string" ? pkg : JSON.stringify(pkg) });
    return detectTestRunner(dir);
  };

  it.each([
    [{ scripts: { test: "vitest run --coverage" } }, "vitest", "the test script runs vitest"],
    [{ scripts: { test: "jest --ci" }, devDependencies: { vitest: "1" } }, "jest", "the test script runs jest"],
    [{ scripts: { test: "mocha 'test/**/*.spec.js'" } }, "mocha", "the test script runs mocha"],
    [{ scripts: { test: "node --import tsx --test test/" } }, "node", "the test script runs node --test"],
    [{ scripts: { test: "turbo run test" }, devDependencies: { vitest: "1" } }, "vitest", "vitest is a dependency"],
    [{ devDependencies: { jest: "29" } }, "jest", "jest is a dependency"],
    [{ scripts: { test: "make check" } }, "npm", "the test script is run with npm test"],
  ] as const)("%j → %s", (pkg, kind, why) => {
    const r = detect(pkg);
    expect(r.ok && r.runner.kind).toBe(kind);
    expect(r.ok && r.runner.why).toBe(why);
  });

  it("explains what is missing", () => {
    const none = detect({ scripts: { test: 'echo "Error: no test specified" && exit 1' } });
    expect(!none.ok && none.message).toMatch(/no test script and no vitest, jest or mocha dependency/);
    const broken = detect("{ nope");
    expect(!broken.ok && broken.message).toMatch(/package.json is not valid JSON/);
    removeDir(dir);
    dir = makeTempDir("ipuaro-detect-");
    const missing = detectTestRunner(dir);
    expect(!missing.ok && missing.message).toMatch(/no package.json/);
  });

  it("refuses a package.json that is a FIFO without opening it (the read would wait for a writer)", () => {
    dir = makeTempDir("ipuaro-detect-");
    const fifo = path.join(dir, "package.json");
    execFileSync("mkfifo", [fifo]);
    // A writer after 2 s, so a read that did open it returns (and fails the test) instead of hanging.
    const writer = spawn("sh", ["-c", `sleep 2; printf '{}' > '${fifo}'`], { detached: true, stdio: "ignore" });
    try {
      const r = detectTestRunner(dir);
      expect(!r.ok && r.message).toBe("package.json in the project root is a FIFO (named pipe), not a regular file, so the test runner is unknown");
    } finally {
      if (writer.exitCode === null) process.kill(-writer.pid!, "SIGKILL");
    }
  });
});

describe("buildTestCommand", () => {
  const reportFile = "/tmp/ipuaro-tests-x/report.json";

  it("builds each runner's command with a machine-readable reporter, quoting path and filter", () => {
    expect(buildTestCommand({ kind: "vitest", why: "" }, { path: "src/a b.test.ts", filter: "adds (twice)", reportFile }).command).toBe(
      "npx --no -- vitest run --reporter=default --reporter=json --outputFile.json=/tmp/ipuaro-tests-x/report.json -t 'adds \\(twice\\)' 'src/a b.test.ts'",
    );
    expect(buildTestCommand({ kind: "jest", why: "" }, { filter: "x", reportFile }).command).toBe(
      "npx --no -- jest --json --outputFile=/tmp/ipuaro-tests-x/report.json --testLocationInResults -t x",
    );
    expect(buildTestCommand({ kind: "mocha", why: "" }, { path: "-odd.js", reportFile }).command).toBe("npx --no -- mocha --reporter=json ./-odd.js");
    expect(buildTestCommand({ kind: "mocha", why: "" }, { path: "test", folder: true, reportFile }).command).toBe("npx --no -- mocha --reporter=json --recursive test");
    expect(buildTestCommand({ kind: "node", why: "", nodeOptions: ["--import", "tsx"], scriptPaths: ["test/"] }, { filter: "a.b", reportFile }).command).toBe(
      "node --import tsx --test --test-reporter=tap '--test-name-pattern=a\\.b' test/",
    );
    const npm = buildTestCommand({ kind: "npm", why: "" }, { path: "a", filter: "b", reportFile });
    expect(npm).toEqual({ command: "npm test", report: "none", ignored: ["path a", "filter b"] });
  });

  it("gives jest a path as an escaped regex anchored at the project's root: jest tests it on absolute paths", () => {
    const pattern = (path: string, folder: boolean) => {
      const command = buildTestCommand({ kind: "jest", why: "" }, { path, folder, root: "/work/my app (2)/", reportFile }).command;
      const quoted = /'(\^[^']*)'$/.exec(command);
      expect(quoted, command).not.toBeNull();
      return new RegExp(quoted![1]!, "i"); // as jest builds it
    };
    const route = pattern("app/[id]/page.test.tsx", false);
    expect(route.test("/work/my app (2)/app/[id]/page.test.tsx")).toBe(true);
    expect(route.test("/work/my app (2)/app/i/page.test.tsx")).toBe(false);
    expect(route.test("/work/my app (2)/app/[id]/page.test.tsx.snap")).toBe(false);
    const folder = pattern("src/util", true);
    expect(folder.test("/work/my app (2)/src/util/a.test.ts")).toBe(true);
    expect(folder.test("/work/my app (2)/src/utils/b.test.ts")).toBe(false);
    expect(folder.test("/work/my app (2)/legacy/src/util/c.test.ts")).toBe(false);
  });

  it("parseNodeTestScript keeps node options and paths, drops reporter options, gives up on shell syntax", () => {
    expect(parseNodeTestScript("node --import tsx --test --test-reporter spec --test-concurrency=1 test/unit")).toEqual({
      nodeOptions: ["--import", "tsx", "--test-concurrency=1"],
      paths: ["test/unit"],
    });
    expect(parseNodeTestScript("node --test && eslint .")).toBeNull();
    expect(parseNodeTestScript("tsx --test")).toBeNull();
  });

  it("escapeRegExp makes a filter match literally", () => {
    expect(new RegExp(escapeRegExp("a.b (c) [d] $e^ *+?|/\\")).test("x a.b (c) [d] $e^ *+?|/\\ y")).toBe(true);
  });
});
