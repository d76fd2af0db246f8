// Arguments that name paths outside the project root make the verdict `ask`, naming the argument;
// paths inside, URLs, package names, refs and commit messages do not.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { judgeCommand, type Verdict } from "../../../src/main/security/index.js";
import { makePolicyFixture, type PolicyFixture } from "./policy-fixture.js";

let fixture: PolicyFixture;
beforeAll(() => {
  fixture = makePolicyFixture();
});
afterAll(() => fixture.cleanup());

type Row = [command: string, verdict: Verdict, reasonIncludes?: string];

// cp and mv are added to the whitelist, so only the path makes them ask.
const OUTSIDE: Row[] = [
  ["prettier --write /etc/hosts", "ask", "the argument `/etc/hosts` is an absolute path outside the project root"],
  ["eslint --fix /", "ask", "the argument `/` is an absolute path outside the project root"],
  ["tsc --outDir /etc", "ask", "the argument `/etc`"],
  ["tsc --outDir=/etc", "ask", "in the argument `--outDir=/etc`, `/etc` is an absolute path"],
  ["tsc -p ../other/tsconfig.json", "ask", "`../other/tsconfig.json` climbs out of the project root"],
  ["node ../../tmp/x.js", "ask", "the argument `../../tmp/x.js` climbs out of the project root with `..`"],
  ["cp a /tmp/x", "ask", "the argument `/tmp/x`"],
  ["mv a ../x", "ask", "the argument `../x` climbs out"],
  ["eslint ..", "ask", "the argument `..`"],
  ["eslint '../*.js'", "ask", "`../*.js`"],
  ["eslint ../*.js", "ask", "`../*.js`"],
  ["prettier --write link-out/x.ts", "ask", "goes through a symlink that leads outside"],
  ["prettier --write link-out", "ask", "goes through a symlink that leads outside"],
  ["prettier --write ~/x.ts", "ask", "`~/x.ts` is only known at run time: `~` expands to the home directory"],
  ["npm i --prefix=~/tools x", "ask", "home directory"],
  ["npm run build -- --out=/tmp/dist", "ask", "`/tmp/dist`"],
  ["npm i ../sibling-package", "ask", "`../sibling-package`"],
  ["git clone https://example.com/r.git ../r", "ask", "`../r`"],
  ["npx prettier --write /etc/hosts", "ask", "`/etc/hosts`"],
  ["timeout 5 eslint --fix /", "ask", "the argument `/`"],
];

const INSIDE: Row[] = [
  ["prettier --write src/a.ts", "allow"],
  ["prettier --write ./src/../src/a.ts", "allow"],
  ["node scripts/build.js", "allow"],
  ["tsc --outDir dist", "allow"],
  ["tsc --outDir=./dist", "allow"],
  ["eslint .", "allow"],
  ["cp src/a.ts src/b.ts", "allow"],
  // Words that are not paths: a tag, a URL, a scoped name (the install itself asks for its own reason).
  ["npm view --tag latest lodash", "allow"],
  ["npm view --registry=https://registry.example.com lodash", "ask", "another registry"],
  ["npm view @scope/pkg", "allow"],
  ["git diff main..feature", "allow"],
  ["git log HEAD~3..HEAD -- src", "allow"],
  ["git diff --no-index /dev/null src/a.ts", "allow"],
  ["git commit -m '/etc/hosts is no longer read'", "allow"],
  ["git commit --message='fix ../ handling'", "allow"],
  // The URL is no path; a remote given on the command line is asked about for what it fetches.
  ["git clone https://example.com/r.git vendor/r", "ask", "reaches a remote named on the command line"],
];

describe("path arguments outside the project", () => {
  it.each([...OUTSIDE, ...INSIDE])("%j → %s", (command, verdict, reasonIncludes) => {
    const result = fixture.judge(command, ["cp", "mv"]);
    expect(result.verdict, result.reason).toBe(verdict);
    if (reasonIncludes) expect(result.reason).toContain(reasonIncludes);
  });

  it("accepts an absolute path that lies inside the root", () => {
    expect(fixture.judge(`prettier --write ${fixture.root}/src/a.ts`).verdict).toBe("allow");
    expect(fixture.judge(`prettier --write ${fixture.outside}/a.ts`).verdict).toBe("ask");
  });

  it("lets a command name a folder ipuaro made for it outside the project (run_tests' report), and only that", () => {
    const report = `--outputFile.json=${fixture.outside}/report.json`;
    const judge = (trustedPaths: string[]) => judgeCommand(`npx --no vitest run ${report}`, { ...fixture.policy, trustedPaths });
    expect(judge([]).verdict).toBe("ask");
    expect(judge([fixture.outside]).verdict).toBe("allow");
    expect(judge([`${fixture.outside}/elsewhere`]).verdict).toBe("ask");
  });

  it("never turns a deny into an ask", () => {
    expect(fixture.judge("rm -rf /").verdict).toBe("deny");
    expect(fixture.judge("npm test > /tmp/out.txt").verdict).toBe("deny");
  });
});
