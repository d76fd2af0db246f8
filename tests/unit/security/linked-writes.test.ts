// `eslint --fix` writes the fixes into what a symlink points at (checked with eslint 9): it asks when
// what it would lint holds a link out of the project, and runs as before when nothing does.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Verdict } from "../../../src/main/security/index.js";
import { makePolicyFixture, type PolicyFixture } from "./policy-fixture.js";

let fixture: PolicyFixture;
beforeAll(() => {
  fixture = makePolicyFixture();
  const at = (rel: string) => path.join(fixture.root, rel);
  // The fixture's own `link-out` at the root leads out: these tests lint below it.
  fs.mkdirSync(at("packages/web/src/util"), { recursive: true });
  fs.writeFileSync(at("packages/web/src/main.js"), "let a = 1;\n");
  fs.writeFileSync(path.join(fixture.outside, "profile.js"), "let b = 2;\n");
  // Links that stay inside, one that leads nowhere, and node_modules' links (pnpm's store is elsewhere).
  fs.symlinkSync("../main.js", at("packages/web/src/util/alias.js"));
  fs.symlinkSync("missing.js", at("packages/web/src/util/dangling.js"));
  fs.mkdirSync(at("packages/web/node_modules"));
  fs.symlinkSync(fixture.outside, at("packages/web/node_modules/dep"));
  // A package with a file that links out, and one whose folder link does.
  fs.mkdirSync(at("packages/api/src/deep"), { recursive: true });
  fs.symlinkSync(path.join(fixture.outside, "profile.js"), at("packages/api/src/deep/profile.js"));
  fs.mkdirSync(at("packages/docs"));
  fs.symlinkSync(fixture.outside, at("packages/docs/shared"));
});
afterAll(() => fixture.cleanup());

type Row = [command: string, verdict: Verdict, reasonIncludes?: string];

const ROWS: Row[] = [
  ["eslint --fix packages/web", "allow"],
  ["eslint --fix packages/web/src/main.js packages/web/src/util", "allow"],
  ["eslint packages/api", "allow"],
  ["eslint --fix-dry-run packages/api", "allow"],
  ["eslint --fix packages/api", "ask", "`packages/api/src/deep/profile.js` leads outside the project"],
  ["eslint --fix 'packages/api/**/*.js'", "ask", "`packages/api/src/deep/profile.js` leads outside"],
  ["eslint --fix packages/docs", "ask", "`packages/docs/shared` leads outside"],
  ["eslint -f json --fix -- packages/web packages/api", "ask", "leads outside"],
  // A glob's fixed part is what is walked: the link is not under packages/web.
  ["eslint --fix 'packages/web/**/*.{js,ts}'", "allow"],
  // An option's value is no path to lint (`-c packages/api`… is a config file; here a folder, not walked).
  ["eslint --fix -c packages/api packages/web", "allow"],
  // node_modules is never linted, unless --no-ignore.
  ["eslint --fix --no-ignore packages/web", "ask", "`packages/web/node_modules/dep` leads outside"],
  // No operand (eslint 9 lints the folder it runs in), or one only known at run time: the whole project.
  ["eslint --fix", "ask", "`link-out` leads outside"],
  ["eslint --fix $DIR", "ask", "leads outside"],
  ["cd packages/web && eslint --fix", "allow"],
  ["cd packages/api && npx eslint --fix .", "ask", "`src/deep/profile.js` leads outside"],
];

describe("eslint --fix and symlinks out of the project", () => {
  it.each(ROWS)("%j → %s", (command, verdict, reason) => {
    const result = fixture.judge(command);
    expect(result.verdict, result.reason).toBe(verdict);
    if (reason) expect(result.reason).toContain(reason);
  });
});
