// sed runs unasked only with known options and a script that parses into commands that print: what
// could write (`-i`, `w`, `s///w`), read unnamed files (`r`, `R`, `-f`) or run commands (`e`, `s///e`)
// asks, and so does anything the parser does not know.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPrintingSedScript } from "../../../src/main/security/sed-scripts.js";
import type { Verdict } from "../../../src/main/security/index.js";
import { makePolicyFixture, type PolicyFixture } from "./policy-fixture.js";

let fixture: PolicyFixture;
beforeAll(() => {
  fixture = makePolicyFixture();
});
afterAll(() => fixture.cleanup());

const PRINTING = [
  "10,40p", "1p", "$p", "5q", "q", "=", "/export/p", "/^import/,/^$/p", "0,/foo/p", "1~2p", "3,+4p", "/a/I,~4p",
  "s/foo/bar/", "s/foo/bar/g", "s|a/b|c/d|g", "s/\\/x/y/2", "s#a#b#gI", "y/abc/xyz/", "1,5{p;=}", "/x/!d",
  "10,20p; 30q", "p\nq", "s/a/b/;s/c/d/gp", "2,3 { s/a/b/ ; p }", "",
];
const NOT_PRINTING = [
  "w out.txt", "1,5w out.txt", "s/a/b/w out.txt", "s/a/b/gw out.txt", "s/a/b/e", "e ls", "1e id", "r /etc/passwd",
  "R secret", "W x", "s/a/b/ w x", "p;w x", "p w", "s/a/b", "s/a\\", "y/ab/c", "1,5{p", "}", "a text", "i text",
  ":a;N;ba", "l 5", "#n\np", "\\%x%p", "s\na\nb\n", "s/a/\\\nb/", "v",
];

describe("sed scripts", () => {
  it.each(PRINTING)("%j only prints", (script) => expect(isPrintingSedScript(script)).toBe(true));
  it.each(NOT_PRINTING)("%j may do more", (script) => expect(isPrintingSedScript(script)).toBe(false));
});

type Row = [command: string, verdict: Verdict, reasonIncludes?: string];
const LINES: Row[] = [
  ["sed -n '10,40p' src/a.ts", "allow"],
  ["sed -n -e '1p' -e '$p' src/a.ts", "allow"],
  ["sed -nE 's/(export) const/\\1 let/p' src/a.ts", "allow"],
  ["sed --quiet --expression='5p' src/a.ts", "allow"],
  ["cat src/a.ts | sed 's/a/b/g' | head", "allow"],
  ["sed -i 's/a/b/' src/a.ts", "ask", "`sed -i`"],
  ["sed -ni 's/a/b/p' src/a.ts", "ask", "`sed -i`"],
  ["sed --in-place 's/a/b/' src/a.ts", "ask", "`sed --in-place`"],
  ["sed -f script.sed src/a.ts", "ask", "`sed -f`"],
  ["sed 's/a/b/w /tmp/x' src/a.ts", "ask", "may write, read other files or run commands"],
  ["sed -n '1e touch pwned' src/a.ts", "ask", "may write"],
  ["sed '1r /etc/passwd' src/a.ts", "ask", "may write"],
  ["sed -n '1,5p' /etc/passwd", "ask", "outside the project root"],
  ["sed -n \"$X\" src/a.ts", "ask", "only known at run time"],
];

describe("sed on the command line", () => {
  it.each(LINES)("%s → %s", (command, verdict, reason) => {
    const result = fixture.judge(command);
    expect(result.verdict, result.reason).toBe(verdict);
    if (reason) expect(result.reason).toContain(reason);
  });
});
