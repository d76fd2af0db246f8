// Reads that reach files the command line does not name: options that follow symlinks met while
// walking folders (a symlink planted in the project can lead outside), file lists read from a file,
// jq filters that print the environment, and jest's inline JSON config.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Verdict } from "../../../src/main/security/index.js";
import { makePolicyFixture, type PolicyFixture } from "./policy-fixture.js";

let fixture: PolicyFixture;
beforeAll(() => {
  fixture = makePolicyFixture();
});
afterAll(() => fixture.cleanup());

type Row = [command: string, verdict: Verdict, reasonIncludes?: string];

const FOLLOWS_SYMLINKS: Row[] = [
  ["grep -R SECRET .", "ask", "`grep -R` follows the symlinks"],
  ["grep -nR SECRET .", "ask", "`grep -R` follows the symlinks"],
  ["grep --dereference-recursive SECRET .", "ask", "follows the symlinks"],
  ["egrep -Ri secret src", "ask", "`egrep -R` follows the symlinks"],
  ["find -L . -name '*.key'", "ask", "`find -L` follows the symlinks"],
  ["find . -follow -name '*.key'", "ask", "`find -follow` follows the symlinks"],
  ["rg --follow SECRET", "ask", "`rg --follow` follows the symlinks"],
  ["rg -L SECRET", "ask", "`rg --follow` follows the symlinks"],
  ["rg -iL SECRET", "ask", "`rg --follow` follows the symlinks"],
  ["ls -LR", "ask", "`ls -LR` follows the symlinks"],
  ["ls --dereference --recursive src", "ask", "`ls -LR` follows the symlinks"],
  ["du -L .", "ask", "`du -L` follows the symlinks"],
  ["diff -r src scripts", "ask", "`diff -r` follows the symlinks"],
  ["sort --files0-from=list.txt", "ask", "reads the names of the files to open from a file"],
  ["jq -n env", "ask", "prints the environment"],
  ["jq -n '$ENV'", "ask", "prints the environment"],
  ["jq -n '$ENV.PATH'", "ask", "prints the environment"],
  ["jq -f filter.jq package.json", "ask", "reads its filter from a file"],
  ["jest --config='{\"globalSetup\":\"/tmp/x.js\"}'", "ask", "`jest --config` takes inline JSON"],
  ["jest -c '{\"globalSetup\":\"/tmp/x.js\"}'", "ask", "`jest -c` takes inline JSON"],
  ["jest --projects '[\"/tmp/x\"]'", "ask", "inline JSON"],
];

const NEIGHBOURS: Row[] = [
  ["grep -r SECRET .", "allow"],
  ["grep -rn foo src", "allow"],
  ["grep -eR src/a.ts", "allow"],
  ["find src -name '*.ts'", "allow"],
  ["find -H . -name x", "allow"],
  ["find -L -P . -name x", "allow"],
  ["rg -e L src", "allow"],
  ["rg SECRET src", "allow"],
  ["ls -lR src", "allow"],
  ["ls -L src", "allow"],
  ["du -sh .", "allow"],
  ["diff src/a.ts scripts/build.js", "allow"],
  ["diff -r --no-dereference src scripts", "allow"],
  ["jq .env package.json", "allow"],
  ["jq -r '.scripts' package.json", "allow"],
  ["jq --arg env x '.name' package.json", "allow"],
  ["jest --config jest.config.js", "allow"],
  // A symlink named on the command line was already judged by where it leads.
  ["grep -r SECRET link-out", "ask", "goes through a symlink that leads outside"],
];

describe("reads through symlinks and other unnamed files", () => {
  it.each([...FOLLOWS_SYMLINKS, ...NEIGHBOURS])("%j → %s", (command, verdict, reasonIncludes) => {
    const result = fixture.judge(command);
    expect(result.verdict, result.reason).toBe(verdict);
    if (reasonIncludes) expect(result.reason).toContain(reasonIncludes);
  });
});
