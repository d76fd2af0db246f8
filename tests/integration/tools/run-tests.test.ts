// run_tests on small fixture projects: vitest (this repository's own copy, linked into the fixture's
// node_modules so `npx --no -- vitest` finds it offline), node --test (always there) and plain npm test.
import { describe, expect, it } from "vitest";
import { runTests } from "../../../src/main/tools/run-tests.js";
import type { FileTree } from "../../helpers/temp-dir.js";
import { useRunTestsFixtures } from "./run-tests-fixture.js";

const fixture = useRunTestsFixtures("ipuaro-tests-fixture-");

// A project for run_tests to run: one passing, one failing and one deliberately skipped test (the
// `it.skip` below is fixture text, so the summary's skipped count has something to count).
const VITEST_PROJECT: FileTree = {
  "package.json": JSON.stringify({ name: "v", type: "module", scripts: { test: "vitest run" }, devDependencies: { vitest: "4.1.12" } }),
  "src/math.test.js": [
    'import { describe, it, expect } from "vitest";',
    'describe("math", () => {',
    '  it("adds", () => { expect(1 + 1).toBe(2); });',
    '  it("subtracts wrongly", () => {',
    "    expect(5 - 3).toBe(3);",
    "  });",
    '  it.skip("skipped one", () => {});',
    "});",
    "",
  ].join("\n"),
  "src/other.test.js": 'import { it, expect } from "vitest";\nit("passes", () => { expect(true).toBe(true); });\n',
};

const NODE_PROJECT: FileTree = {
  "package.json": JSON.stringify({ name: "n", type: "module", scripts: { test: "node --test" } }),
  "test/math.test.js": [
    'import { test, describe } from "node:test";',
    'import assert from "node:assert/strict";',
    'describe("math", () => {',
    '  test("adds", () => { assert.equal(1 + 1, 2); });',
    '  test("subtracts wrongly", () => {',
    "    assert.equal(5 - 3, 3);",
    "  });",
    '  test("skipped", { skip: true }, () => {});',
    "});",
    'test("throws", () => { throw new Error("boom\\nsecond line"); });',
    "",
  ].join("\n"),
};

describe("run_tests with vitest", () => {
  it("reports counts and each failure with file:line and its message", async () => {
    const p = await fixture(VITEST_PROJECT, {}, { vitest: true });
    const r = await runTests.run("t1", {}, p.ctx);
    expect(r.success, r.error).toBe(true);
    const lines = r.data!.split("\n");
    expect(lines[0]).toMatch(/^vitest \(the test script runs vitest\): 1 failed, 2 passed, 1 skipped · exit code 1 \(failed\) · /);
    expect(lines[1]).toMatch(/^\$ npx --no -- vitest run --reporter=default --reporter=json --outputFile\.json=\/.*\/report\.json$/);
    expect(lines[2]).toBe("FAIL src/math.test.js:5  math > subtracts wrongly");
    expect(lines[3]).toBe("  AssertionError: expected 2 to be 3 // Object.is equality");
    expect(r.data).not.toContain("at file://");
    expect(r.display.summary).toBe("FAILED: 1 failed, 2 passed, 1 skipped");
    expect(r.display.details).toContain("subtracts wrongly");
    expect(p.ctx.ports.commandProposals).toHaveLength(0);
  });

  it("says to install the dependencies when vitest is not in node_modules, instead of running npx for nothing", async () => {
    const p = await fixture(VITEST_PROJECT);
    const r = await runTests.run("ni", {}, p.ctx);
    expect(r.success).toBe(false);
    expect(r.code).toBe("NOT_FOUND");
    expect(r.error).toMatch(/^vitest is not installed: there is no node_modules\/\.bin\/vitest in the project or a folder above it\. Install the project's dependencies first/);
    expect(p.ctx.ports.commandProposals).toHaveLength(0);
  });

  it("runs the folder given, not every folder whose name starts like it", async () => {
    const passing = (name: string) => `import { it, expect } from "vitest";\nit("${name}", () => { expect(1).toBe(1); });\n`;
    const p = await fixture(
      { ...VITEST_PROJECT, "src/util/a.test.js": passing("a"), "src/utils/b.test.js": passing("b") },
      {},
      { vitest: true },
    );
    const folder = await runTests.run("f1", { path: "src/util" }, p.ctx);
    expect(folder.data!.split("\n")[0]).toMatch(/: 0 failed, 1 passed · exit code 0 · /);
    expect(folder.data!.split("\n")[1]).toMatch(/ src\/util\/$/);
  });

  it("leaves out what vitest ran beyond the path asked for: a same-named folder deeper down, a longer file name", async () => {
    const passing = (name: string) => `import { it, expect } from "vitest";\nit("${name}", () => { expect(1).toBe(1); });\n`;
    const failing = (name: string) => `import { it, expect } from "vitest";\nit("${name}", () => { expect(1).toBe(2); });\n`;
    const p = await fixture(
      { ...VITEST_PROJECT, "src/util/a.test.js": passing("a"), "legacy/src/util/c.test.js": failing("c"), "legacy/src/other.test.js": failing("o"), "src/other.test.jsx": failing("x") },
      {},
      { vitest: true },
    );
    const folder = await runTests.run("s1", { path: "src/util" }, p.ctx);
    const lines = folder.data!.split("\n");
    expect(lines[0]).toMatch(/: 0 failed, 1 passed · exit code 1 \(failed\) · /);
    expect(lines[2]).toBe("note: vitest matches paths as text, so it also ran 1 test file outside src/util (legacy/src/util/c.test.js); their results are left out, and their failures are what the exit code reports");
    expect(folder.data).not.toContain("FAIL legacy");
    expect(folder.display.summary).toBe("passed: 0 failed, 1 passed");
    expect((folder as unknown as { success: boolean; data: string }).success).toBe(true);

    const file = await runTests.run("s2", { path: "src/other.test.js" }, p.ctx);
    expect(file.data!.split("\n")[0]).toMatch(/: 0 failed, 1 passed · exit code 1 \(failed\) · /);
    expect(file.data).toContain("also ran 2 test files outside src/other.test.js (");
    expect(file.display.summary).toBe("passed: 0 failed, 1 passed");

    // A failure inside the path still fails the run.
    const all = await runTests.run("s3", { path: "src" }, p.ctx);
    expect(all.data!.split("\n")[0]).toMatch(/: 2 failed, 3 passed, 1 skipped · exit code 1/);
    expect(all.data).toContain("also ran 2 test files outside src (legacy/src/");
    expect(all.display.summary).toBe("FAILED: 2 failed, 3 passed, 1 skipped");
  });

  it("runs one file, and only the tests whose name matches the filter", async () => {
    const p = await fixture(VITEST_PROJECT, {}, { vitest: true });
    const one = await runTests.run("t2", { path: "src/other.test.js" }, p.ctx);
    expect(one.data!.split("\n")[0]).toMatch(/: 0 failed, 1 passed · exit code 0 · /);
    expect(one.display.summary).toBe("passed: 0 failed, 1 passed");
    const filtered = await runTests.run("t3", { filter: "adds" }, p.ctx);
    expect(filtered.data!.split("\n")[0]).toMatch(/: 0 failed, 1 passed, 3 skipped · exit code 0/);
    expect(filtered.data).toContain("-t adds");
  });

  it("reports a test file that fails to load", async () => {
    const p = await fixture({ ...VITEST_PROJECT, "src/broken.test.js": 'import { it } from "vitest";\nit("x", () => {\n' }, {}, { vitest: true });
    const r = await runTests.run("t4", { path: "src/broken.test.js" }, p.ctx);
    expect(r.data!.split("\n")[0]).toContain("0 failed, 0 passed, 1 file failed to run");
    expect(r.data).toContain("FAIL src/broken.test.js  (the test file failed to run)");
    expect(r.data).toMatch(/invalid JS syntax/);
  });

  it("falls back to the output when the runner writes no report", async () => {
    const p = await fixture({ ...VITEST_PROJECT, "vitest.config.mjs": 'throw new Error("config exploded");\n' }, {}, { vitest: true });
    const r = await runTests.run("t5", {}, p.ctx);
    expect(r.success).toBe(true);
    expect(r.data!.split("\n")[0]).toMatch(/no test counts found · exit code 1 \(failed\)/);
    expect(r.data).toContain("note: the runner wrote no machine-readable report");
    expect(r.data).toContain("config exploded");
  });

  it("asks before running tests after the session changed the runner's config", async () => {
    const p = await fixture(VITEST_PROJECT, { command: "no" }, { vitest: true });
    p.ctx.session.taintedFiles.add("vitest.config.ts");
    const r = await runTests.run("t6", {}, p.ctx);
    expect(r.code).toBe("REJECTED");
    const [proposal] = p.ctx.ports.commandProposals;
    expect(proposal!.command).toMatch(/^npx --no -- vitest run /);
    expect(proposal!.reason).toContain("this session changed `vitest.config.ts`");
  });
});

describe("run_tests in a monorepo package", () => {
  // The root only runs turbo; packages/core has its own vitest script, packages/docs no tests at all.
  const MONOREPO: FileTree = {
    "package.json": JSON.stringify({ name: "mono", private: true, workspaces: ["packages/*"], scripts: { test: "turbo run test" } }),
    "packages/core/package.json": JSON.stringify({ name: "core", type: "module", scripts: { test: "vitest run" } }),
    "packages/core/src/math.test.js": VITEST_PROJECT["src/math.test.js"]!,
    "packages/core/src/other.test.js": VITEST_PROJECT["src/other.test.js"]!,
    "packages/docs/package.json": JSON.stringify({ name: "docs" }),
    "packages/docs/guide.test.js": 'import { test } from "node:test";\ntest("x", () => {});\n',
  };

  it("runs a path inside a package with that package's runner, from its folder, without asking", async () => {
    const p = await fixture(MONOREPO, {}, { vitest: true });
    const file = await runTests.run("m1", { path: "packages/core/src/math.test.js" }, p.ctx);
    expect(file.success, file.error).toBe(true);
    const lines = file.data!.split("\n");
    expect(lines[0]).toMatch(/^vitest in packages\/core \(the test script runs vitest\): 1 failed, 1 passed, 1 skipped · exit code 1 \(failed\) · /);
    expect(lines[1]).toMatch(/^\$ cd packages\/core && npx --no -- vitest run .* src\/math\.test\.js$/);
    // Failures are named from the project root, as everywhere else.
    expect(lines[2]).toBe("FAIL packages/core/src/math.test.js:5  math > subtracts wrongly");
    expect(p.ctx.ports.commandProposals).toHaveLength(0);

    // The package folder itself: all of its tests.
    const all = await runTests.run("m2", { path: "packages/core" }, p.ctx);
    expect(all.data!.split("\n")[0]).toMatch(/^vitest in packages\/core .*: 1 failed, 2 passed, 1 skipped/);
    expect(all.data!.split("\n")[1]).toMatch(/^\$ cd packages\/core && npx --no -- vitest run --reporter=default --reporter=json --outputFile\.json=\S+\/report\.json$/);
  });

  it("falls back to the root's runner where the package names none, and says how to reach a package's tests", async () => {
    const p = await fixture(MONOREPO, {}, { vitest: true });
    const docs = await runTests.run("m3", { path: "packages/docs" }, p.ctx);
    expect(docs.data!.split("\n")[0]).toMatch(/^npm \(the test script is run with npm test\)/);
    const bare = await fixture({ ...MONOREPO, "package.json": JSON.stringify({ name: "mono", private: true, workspaces: ["packages/*"] }) }, {}, { vitest: true });
    const none = await runTests.run("m4", {}, bare.ctx);
    expect(none.code).toBe("NOT_FOUND");
    expect(none.error).toContain("give a path inside a package to run that package's tests");
    const inCore = await runTests.run("m5", { path: "packages/core/src/other.test.js" }, bare.ctx);
    expect(inCore.data!.split("\n")[0]).toMatch(/^vitest in packages\/core .*: 0 failed, 1 passed · exit code 0/);
  });
});

describe("run_tests with node --test", () => {
  it("parses the TAP report: counts, nested names, the failing assertion's line", async () => {
    const p = await fixture(NODE_PROJECT);
    const r = await runTests.run("t7", {}, p.ctx);
    expect(r.success, r.error).toBe(true);
    const text = r.data!;
    expect(text.split("\n")[0]).toMatch(/^node \(the test script runs node --test\): 2 failed, 1 passed, 1 skipped · exit code 1 \(failed\) · /);
    expect(text).toContain("$ node --test --test-reporter=tap");
    expect(text).toContain("FAIL test/math.test.js:6  math > subtracts wrongly\n  Expected values to be strictly equal:\n  2 !== 3");
    expect(text).toContain("FAIL test/math.test.js:10  throws\n  boom\n  second line");
    expect(text).not.toContain("FAIL test/math.test.js:3");
  });

  it("filters by test name as plain text and reports a file that does not load", async () => {
    const p = await fixture({ ...NODE_PROJECT, "test/bad.test.js": 'import { test } from "node:test";\ntest("x", () => {\n' });
    const filtered = await runTests.run("t8", { path: "test/math.test.js", filter: "adds" }, p.ctx);
    expect(filtered.data!.split("\n")[0]).toMatch(/: 0 failed, 1 passed, 3 skipped · exit code 0/);
    const bad = await runTests.run("t9", { path: "test/bad.test.js" }, p.ctx);
    expect(bad.data).toContain("FAIL test/bad.test.js:3  (the test file failed to run)");
    expect(bad.data).toContain("SyntaxError: Unexpected end of input");
  });

  it("keeps the node options and paths of the test script", async () => {
    const p = await fixture({
      "package.json": JSON.stringify({ name: "n", type: "module", scripts: { test: "node --test --test-reporter=spec unit/" } }),
      "unit/a.test.js": 'import { test } from "node:test";\ntest("a", () => {});\n',
      "other/b.test.js": 'import { test } from "node:test";\ntest("b", () => { throw new Error("must not run"); });\n',
    });
    const r = await runTests.run("t10", {}, p.ctx);
    expect(r.data).toContain("$ node --test --test-reporter=tap unit/");
    expect(r.data!.split("\n")[0]).toMatch(/: 0 failed, 1 passed · exit code 0/);
  });

  it("stops a hanging test run at commands.timeout", async () => {
    const p = await fixture({
      "package.json": JSON.stringify({ name: "n", type: "module", scripts: { test: "node --test" } }),
      "test/hang.test.js": 'import { test } from "node:test";\ntest("hangs", () => new Promise(() => setInterval(() => {}, 1000)));\n',
    });
    p.ctx.config = { ...p.ctx.config, commands: { timeout: 1_500 } };
    const r = await runTests.run("t11", {}, p.ctx);
    expect(r.code).toBe("TIMEOUT");
  });
});

describe("run_tests detection and bad input", () => {
  it("runs npm test as it is when no runner is recognised, with counts from its text", async () => {
    const p = await fixture({
      "package.json": JSON.stringify({ name: "x", scripts: { test: "node check.cjs" } }),
      "check.cjs": 'console.log("  3 passing (4ms)\\n  1 failing");\nprocess.exit(1);\n',
    });
    const r = await runTests.run("t12", { filter: "abc" }, p.ctx);
    expect(r.success, r.error).toBe(true);
    expect(r.data!.split("\n")[0]).toMatch(/^npm \(the test script is run with npm test\): 1 failed, 3 passed · exit code 1/);
    expect(r.data).toContain("note: npm test runs the script as it is; filter abc not applied");
    expect(r.data).toContain("3 passing (4ms)");
  });

  it("explains a project without package.json or test runner", async () => {
    const none = await fixture({ "a.js": "" });
    const r = await runTests.run("t13", {}, none.ctx);
    expect(r.code).toBe("NOT_FOUND");
    expect(r.error).toContain("no package.json");
    const placeholder = await fixture({ "package.json": JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }) });
    const r2 = await runTests.run("t14", {}, placeholder.ctx);
    expect(r2.code).toBe("NOT_FOUND");
    expect(r2.error).toContain("no test script and no vitest, jest or mocha dependency");
  });

  it("checks the path before running anything", async () => {
    const p = await fixture(NODE_PROJECT);
    expect((await runTests.run("t15", { path: "test/missing.test.js" }, p.ctx)).code).toBe("PATH_NOT_FOUND");
    expect((await runTests.run("t16", { path: "../../etc" }, p.ctx)).code).toBe("PATH_OUTSIDE_ROOT");
    expect((await runTests.run("t17", { filter: 42 }, p.ctx)).code).toBe("INVALID_ARGS");
    expect((await runTests.run("t18", { path: "" }, p.ctx)).code).toBe("INVALID_ARGS");
  });
});
