// What the model needs from a failing run to fix it, with real vitest and node --test runs: the
// expected/received diff (not `{ id: 1, …(4) }`), the assertion's line, a filter copied from a result
// name that selects that test, and a run that selected no test never reported as a pass.
import { describe, expect, it } from "vitest";
import { runTests } from "../../../src/main/tools/run-tests.js";
import type { FileTree } from "../../helpers/temp-dir.js";
import { useRunTestsFixtures } from "./run-tests-fixture.js";

const useFixture = useRunTestsFixtures("ipuaro-tests-details-");
const fixture = (tree: FileTree, opts: { vitest?: boolean } = {}) => useFixture(tree, {}, opts);

// Objects big enough that the runners shorten them in the one-line message.
const ACTUAL = '{ id: 1, name: "Alice", roles: ["admin", "user"], address: { city: "Paris", zip: "75001", street: "Rue de Rivoli" }, active: true, tags: ["a", "b", "c", "d"] }';
const EXPECTED = ACTUAL.replace('"75001"', '"75002"');

const VITEST_PROJECT: FileTree = {
  "package.json": JSON.stringify({ name: "v", type: "module", scripts: { test: "vitest run" }, devDependencies: { vitest: "4.1.12" } }),
  "src/user.test.js": [
    'import { describe, it, expect } from "vitest";',
    'describe("user", () => {',
    '  it("keeps the address", () => {',
    `    const actual = ${ACTUAL};`,
    `    expect(actual).toEqual(${EXPECTED});`,
    "  });",
    '  it("passes", () => { expect(1).toBe(1); });',
    "});",
    "",
  ].join("\n"),
};

const NODE_PROJECT: FileTree = {
  "package.json": JSON.stringify({ name: "n", type: "module", scripts: { test: "node --test" } }),
  "test/user.test.js": [
    'import { describe, test } from "node:test";',
    'import assert from "node:assert/strict";',
    'describe("user", () => {',
    '  test("keeps the address", () => {',
    `    const actual = ${ACTUAL};`,
    `    assert.deepEqual(actual, ${EXPECTED});`,
    "  });",
    '  test("passes", () => {});',
    "});",
    "",
  ].join("\n"),
};

describe("run_tests failure details", () => {
  it("shows vitest's expected/received diff, which its JSON report leaves out", async () => {
    const p = await fixture(VITEST_PROJECT, { vitest: true });
    const r = await runTests.run("d1", {}, p.ctx);
    expect(r.success, r.error).toBe(true);
    const text = r.data!;
    expect(text).toContain("FAIL src/user.test.js:5  user > keeps the address");
    expect(text).toContain("…(4) }");
    expect(text).toContain("  - Expected\n  + Received");
    expect(text).toContain('  -     "zip": "75002",\n  +     "zip": "75001",');
  });

  it("keeps node's diff lines after its `...` (lines skipped) marker, and the assertion's line", async () => {
    const p = await fixture(NODE_PROJECT);
    const r = await runTests.run("d2", {}, p.ctx);
    expect(r.success, r.error).toBe(true);
    const text = r.data!;
    // Line 6 is the assert.deepEqual call; line 4 only declares the test.
    expect(text).toContain("FAIL test/user.test.js:6  user > keeps the address");
    expect(text).toMatch(/\+ {5}zip: '75001'\n {2}- {5}zip: '75002'/);
  });

  it("runs the test a filter copied from a result names (suite > test)", async () => {
    const v = await fixture(VITEST_PROJECT, { vitest: true });
    const vr = await runTests.run("d3", { filter: "user > keeps the address" }, v.ctx);
    expect(vr.data!.split("\n")[0]).toMatch(/: 1 failed, 0 passed, 1 skipped · exit code 1/);
    expect(vr.data).toContain("FAIL src/user.test.js:5  user > keeps the address");
    const n = await fixture(NODE_PROJECT);
    const nr = await runTests.run("d4", { filter: "user > keeps the address" }, n.ctx);
    expect(nr.data!.split("\n")[0]).toMatch(/: 1 failed, 0 passed/);
    expect(nr.data).toContain("FAIL test/user.test.js:6  user > keeps the address");
  });

  it("does not call a run that selected no test a pass", async () => {
    const v = await fixture(VITEST_PROJECT, { vitest: true });
    const vr = await runTests.run("d5", { filter: "no such test" }, v.ctx);
    expect(vr.success, vr.error).toBe(true);
    expect(vr.data!.split("\n")[0]).toMatch(/: 0 failed, 0 passed, 2 skipped · exit code 0/);
    expect(vr.data).toContain('NO TEST RAN, so nothing was checked: no test name contains "no such test"');
    expect(vr.display.summary).toMatch(/^no test ran/);
    const n = await fixture(NODE_PROJECT);
    const nr = await runTests.run("d6", { filter: "no such test" }, n.ctx);
    expect(nr.data).toContain("NO TEST RAN");
    expect(nr.display.summary).not.toMatch(/^passed/);
  });
});
