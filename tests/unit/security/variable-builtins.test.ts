// Builtins and loops that assign the variable they name set HOME or PATH as surely as `HOME=x` does, so
// the rule on dangerous variables denies them the same way; harmless names stay as they were.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Verdict } from "../../../src/main/security/index.js";
import { makePolicyFixture, type PolicyFixture } from "./policy-fixture.js";

let fixture: PolicyFixture;
beforeAll(() => {
  fixture = makePolicyFixture();
});
afterAll(() => fixture.cleanup());

type Row = [command: string, verdict: Verdict, reasonIncludes?: string];

const ASSIGNS_DANGEROUS: Row[] = [
  ["printf -v HOME %s fakehome; git status", "deny", "`printf -v HOME %s fakehome` sets `HOME`"],
  ["printf -vHOME %s fakehome; git status", "deny", "sets `HOME`"],
  ["printf -v PATH %s /tmp/evil; git status", "deny", "sets `PATH`"],
  ["builtin printf -v GIT_DIR %s x; git status", "deny", "sets `GIT_DIR`"],
  ["for HOME in fakehome; do git status; done", "deny", "`for HOME` sets `HOME`"],
  ["for PATH in /tmp/evil; do git status; done", "deny", "sets `PATH`"],
  ["select HOME in a; do git status; done", "deny", "sets `HOME`"],
  ["read HOME < input.txt; git status", "deny", "sets `HOME`"],
  ["read -r -a PATH <<< x", "deny", "sets `PATH`"],
  ["read -ra PATH <<< x", "deny", "sets `PATH`"],
  ["read -p prompt -t 5 first HOME", "deny", "sets `HOME`"],
  ["mapfile -t HOME < input.txt", "deny", "sets `HOME`"],
  ["readarray PATH < input.txt", "deny", "sets `PATH`"],
  ["getopts ab HOME", "deny", "sets `HOME`"],
  ["let HOME=1", "deny", "sets `HOME`"],
  ["let 'x = 1, PATH += 2'", "deny", "sets `PATH`"],
  ["wait -p NODE_OPTIONS", "deny", "sets `NODE_OPTIONS`"],
  // Declarations were already read as assignments.
  ["declare HOME=x; git status", "deny", "sets `HOME`"],
  ["typeset HOME=x", "deny", "sets `HOME`"],
  ["local PATH=x", "deny", "sets `PATH`"],
  ["readonly PATH=x", "deny", "sets `PATH`"],
];

const HARMLESS: Row[] = [
  ["printf -v line %s x; git status", "allow"],
  ["for f in a b; do npm test; done", "allow"],
  ["printf '%s\\n' -v HOME", "allow"],
  ["printf -- -v HOME", "allow"],
  ["read line < input.txt", "ask", "`read` is not on the whitelist"],
];

describe("builtins that assign a named variable", () => {
  it.each([...ASSIGNS_DANGEROUS, ...HARMLESS])("%j → %s", (command, verdict, reasonIncludes) => {
    const result = fixture.judge(command);
    expect(result.verdict, result.reason).toBe(verdict);
    if (reasonIncludes) expect(result.reason).toContain(reasonIncludes);
  });
});
