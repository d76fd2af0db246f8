// `eslint --fix` writes the fixes into what a symlink points at (checked with eslint 9), tsc its
// output (typescript 5.9), vitest and jest their snapshots (vitest 4): each asks when a link out of the
// project lies where it would write, and runs as before when none does.
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
  // A package whose only link out is a file no tool writes: tsc's output never has that name.
  fs.mkdirSync(at("packages/app"));
  fs.writeFileSync(path.join(fixture.outside, ".env"), "TOKEN=1\n");
  fs.symlinkSync(path.join(fixture.outside, ".env"), at("packages/app/.env"));
  fs.mkdirSync(at("packages/lib/dist"), { recursive: true });
  fs.symlinkSync(path.join(fixture.outside, "profile.js"), at("packages/lib/dist/index.d.ts"));
  // A package with a link out among its sources, and tsconfigs that say where output goes (or that none does).
  fs.mkdirSync(at("packages/typed/src"), { recursive: true });
  fs.symlinkSync(path.join(fixture.outside, "profile.js"), at("packages/typed/src/vendor.js"));
  const config = (rel: string, value: unknown) => fs.writeFileSync(at(rel), `// tsconfig\n${JSON.stringify(value)}\n`);
  config("packages/typed/tsconfig.base.json", { compilerOptions: { noEmit: true, strict: true } });
  config("packages/typed/tsconfig.json", { extends: "./tsconfig.base.json" });
  config("packages/typed/tsconfig.build.json", { extends: "./tsconfig.base", compilerOptions: { noEmit: false, outDir: "dist" } });
  config("packages/typed/tsconfig.out.json", { extends: ["./tsconfig.build.json"], compilerOptions: { outDir: "../../link-out/typed" } });
  config("packages/typed/tsconfig.pkg.json", { extends: "@tsconfig/node20/tsconfig.json" });
  // Tests kept outside the project and linked in; a package whose snapshots folder is a link out.
  const specs = path.join(fixture.outside, "..", "specs");
  fs.mkdirSync(path.join(specs, "money"), { recursive: true });
  fs.writeFileSync(path.join(specs, "money/round.test.ts"), "test('rounds', () => expect(1).toMatchSnapshot());\n");
  fs.mkdirSync(at("packages/tested/src"), { recursive: true });
  fs.symlinkSync(specs, at("packages/tested/shared"));
  fs.writeFileSync(at("packages/tested/package.json"), JSON.stringify({ name: "tested", scripts: { test: "vitest run" } }));
  fs.mkdirSync(at("packages/snap/src"), { recursive: true });
  fs.writeFileSync(at("packages/snap/src/view.test.ts"), "test('view', () => expect('x').toMatchSnapshot());\n");
  fs.symlinkSync(fixture.outside, at("packages/snap/src/__snapshots__"));
  fs.mkdirSync(at("packages/cov"));
  fs.symlinkSync(fixture.outside, at("packages/cov/coverage"));
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

const TSC: Row[] = [
  ["cd packages/web && tsc", "allow"],
  ["cd packages/app && tsc -p .", "allow"],
  ["cd packages/api && tsc", "ask", "`tsc` writes through symlinks, and `src/deep/profile.js` leads outside"],
  ["cd packages/lib && tsc --build", "ask", "`dist/index.d.ts` leads outside"],
  ["cd packages/docs && npx tsc", "ask", "`shared` leads outside"],
  // The whole project is looked at, whatever -p names: an outDir may be any folder.
  ["tsc -p packages/web", "ask", "`link-out` leads outside"],
  ["tsc --noEmit", "allow"],
  ["tsc -p packages/api --noEmit", "allow"],
  ["cd packages/api && tsc --version", "allow"],
  // noEmit from the tsconfig (through `extends`), and outDir: only the folder output goes to is looked at.
  ["cd packages/typed && tsc", "allow"],
  ["tsc -p packages/typed", "allow"],
  ["tsc -p packages/typed/tsconfig.build.json", "allow"],
  // On the command line outDir is relative to where tsc runs, in a tsconfig to the config's folder.
  ["tsc -p packages/typed/tsconfig.build.json --outDir src", "allow"],
  ["tsc -p packages/typed/tsconfig.build.json --outDir packages/typed/src", "ask", "`packages/typed/src/vendor.js` leads outside"],
  ["tsc -p packages/typed/tsconfig.out.json", "ask", "writes its output under `link-out/typed`, which leads outside"],
  ["cd packages/typed && tsc --outDir ../../link-out/x", "ask", "climbs out of the project root"],
  ["tsc -p packages/typed/tsconfig.build.json --outDir=link-out/typed", "ask", "writes its output under `link-out/typed`"],
  // A package's config is not read: taken to emit next to the sources.
  ["tsc -p packages/typed/tsconfig.pkg.json", "ask", "`link-out` leads outside"],
  ["cd packages/typed && tsc -p tsconfig.pkg.json", "ask", "`src/vendor.js` leads outside"],
];

const SNAPSHOTS: Row[] = [
  // Links out that lead to no tests (docs/shared, the root's link-out) or lie in node_modules: nothing to ask.
  ["cd packages/web && vitest run", "allow"],
  ["cd packages/docs && vitest run", "allow"],
  ["vitest run --dir packages/web", "allow"],
  // vitest follows a folder link to tests and writes their new snapshots beside them, out there.
  ["cd packages/tested && vitest run", "ask", "`vitest` writes snapshots through symlinks, and `shared` leads outside the project"],
  ["npx vitest run", "ask", "`packages/tested/shared` leads outside"],
  ["cd packages/tested && npm test", "ask", "`vitest` writes snapshots through symlinks"],
  ["cd packages/tested && vitest --version", "allow"],
  ["cd packages/tested && vitest list", "allow"],
  ["cd packages/snap && jest list", "ask", "`src/__snapshots__` leads outside"],
  // jest does not collect linked tests, but writes through a linked __snapshots__ folder, as vitest does.
  ["cd packages/tested && jest", "allow"],
  ["cd packages/snap && jest --ci", "ask", "`jest` writes snapshots through symlinks, and `src/__snapshots__` leads outside"],
  ["cd packages/snap && vitest -u", "ask", "`src/__snapshots__` leads outside"],
  ["cd packages/cov && vitest run --coverage", "ask", "`coverage` leads outside"],
  ["cd packages/cov && jest", "ask", "`coverage` leads outside"],
];

describe("test runners' snapshots and symlinks out of the project", () => {
  it.each(SNAPSHOTS)("%j → %s", (command, verdict, reason) => {
    const result = fixture.judge(command);
    expect(result.verdict, result.reason).toBe(verdict);
    if (reason) expect(result.reason).toContain(reason);
  });
});

describe("a folder linked in from outside, too big to look through", () => {
  it("is taken to hold tests: vitest asks", () => {
    const big = path.join(fixture.outside, "..", "big");
    fs.mkdirSync(big);
    for (let i = 0; i <= 20_000; i++) fs.writeFileSync(path.join(big, `f${i}.txt`), "");
    fs.mkdirSync(path.join(fixture.root, "packages/huge"));
    fs.symlinkSync(big, path.join(fixture.root, "packages/huge/data"));
    const result = fixture.judge("cd packages/huge && vitest run");
    expect(result.verdict, result.reason).toBe("ask");
    expect(result.reason).toContain("`data` leads outside");
  });
});

describe("eslint --fix and symlinks out of the project", () => {
  it.each(ROWS)("%j → %s", (command, verdict, reason) => {
    const result = fixture.judge(command);
    expect(result.verdict, result.reason).toBe(verdict);
    if (reason) expect(result.reason).toContain(reason);
  });
});

describe("an emitting tsc and symlinks out of the project", () => {
  it.each(TSC)("%j → %s", (command, verdict, reason) => {
    const result = fixture.judge(command);
    expect(result.verdict, result.reason).toBe(verdict);
    if (reason) expect(result.reason).toContain(reason);
  });
});
