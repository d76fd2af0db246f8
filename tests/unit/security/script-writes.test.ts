// A package script that runs `eslint --fix` or an emitting `tsc` writes through symlinks as a typed one
// does: `npm run lint -- --fix` asks when a link out of the project lies where the script's eslint
// would fix, in the folder of the script's package, with the arguments the line passes on.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Verdict } from "../../../src/main/security/index.js";
import { writeTree } from "../../helpers/temp-dir.js";
import { makePolicyFixture, type PolicyFixture } from "./policy-fixture.js";

let fixture: PolicyFixture;
beforeAll(() => {
  fixture = makePolicyFixture();
  const manifest = (value: unknown): string => `${JSON.stringify(value)}\n`;
  // The fixture's root holds `link-out`, a folder link out of the project: the root's eslint/tsc reach it.
  writeTree(fixture.root, {
    "package.json": manifest({
      workspaces: ["packages/*"],
      scripts: {
        lint: "eslint .",
        fix: "npm run lint -- --fix",
        check: "tsc --noEmit",
        loop: "npm run loop",
        prefmt: "eslint --fix .",
        fmt: "prettier --write src",
        test: "vitest run && npx eslint --fix .",
        "lint:web": "cd packages/web && eslint --fix src",
        "lint:core": "cd packages/core && eslint --fix .",
        preversion: "eslint --fix .",
      },
    }),
    "packages/web/package.json": manifest({ name: "web", scripts: { lint: "eslint src", build: "tsc", prepare: "tsc" } }),
    "packages/web/src/main.ts": "export const main = 1;\n",
    "packages/core/package.json": manifest({ name: "core", scripts: { tidy: "eslint src", compile: "tsc -p tsconfig.build.json" } }),
    "packages/core/src/money.ts": "export class Money {}\n",
    "packages/core/tsconfig.build.json": manifest({ compilerOptions: { outDir: "dist" } }),
  });
  // web's sources hold a link out; core's only a link to its sibling, which stays inside the project.
  fs.symlinkSync(fixture.outside, path.join(fixture.root, "packages/web/src/vendor"));
  fs.symlinkSync("../../web/src", path.join(fixture.root, "packages/core/src/web"));
});
afterAll(() => fixture.cleanup());

type Row = [command: string, verdict: Verdict, reasonIncludes?: string];

const ROWS: Row[] = [
  ["npm run lint -- --fix", "ask", "script `lint` of `package.json` runs `eslint . --fix`: `eslint --fix` writes through symlinks, and `link-out` leads outside"],
  ["pnpm lint --fix", "ask", "`link-out` leads outside the project"],
  ["yarn run lint --fix", "ask", "`link-out` leads outside the project"],
  // Each package's script of the name is read in its own folder: web's lints src, where `vendor` leads out.
  ["npm run -w packages/web lint -- --fix", "ask", "script `lint` of `packages/web/package.json` runs `eslint src --fix`: `eslint --fix` writes through symlinks, and `packages/web/src/vendor` leads outside"],
  ["pnpm --filter web lint --fix", "ask", "`packages/web/src/vendor` leads outside the project"],
  ["yarn workspace web lint --fix", "ask", "`packages/web/src/vendor` leads outside the project"],
  ["cd packages/web && npm run build", "ask", "script `build` of `package.json` runs `tsc`: `tsc` writes through symlinks, and `src/vendor` leads outside"],
  // A script running a script, a pre- script, and npm's own lifecycle command.
  ["npm run fix", "ask", "script `fix` of `package.json` runs `npm run lint -- --fix`: script `lint` of `package.json` runs `eslint . --fix`"],
  ["npm run fmt", "ask", "script `prefmt` of `package.json` runs `eslint --fix .`"],
  ["npm test", "ask", "script `test` of `package.json` runs `vitest run && npx eslint --fix .`"],
  // A script that starts with a cd is read where it goes: at the root, `.` would hold link-out.
  ["npm run lint:web", "ask", "`packages/web/src/vendor` leads outside the project"],
  ["npm run lint:core", "allow"],
  // Lifecycle scripts that installing, packing or versioning runs without naming them.
  ["npm ci", "ask", "script `prepare` of `packages/web/package.json` runs `tsc`: `tsc` writes through symlinks"],
  ["pnpm install --frozen-lockfile", "ask", "script `prepare` of `packages/web/package.json`"],
  ["yarn", "ask", "script `prepare` of `packages/web/package.json`"],
  ["npm pack", "ask", "script `prepare` of `packages/web/package.json`"],
  ["npm version minor", "ask", "script `preversion` of `package.json` runs `eslint --fix .`"],
  ["npm ci --ignore-scripts", "allow"],
  ["npm ls", "allow"],
  // Nothing written through a link out: no --fix (npm keeps `--fix` before `--` as its own config),
  // a link that stays inside, no emit, output under an outDir with no link.
  ["npm run lint", "allow"],
  ["npm run lint --fix", "allow"],
  ["npm run tidy -- --fix", "allow"],
  ["pnpm tidy --fix", "allow"],
  ["npm run check", "allow"],
  ["npm run compile", "allow"],
  // A script that runs itself is followed a few levels, then left as it is.
  ["npm run loop", "allow"],
];

describe("package scripts that write through symlinks", () => {
  it.each(ROWS)("%j → %s", (command, verdict, reason) => {
    const result = fixture.judge(command);
    expect(result.verdict, result.reason).toBe(verdict);
    if (reason) expect(result.reason).toContain(reason);
  });

  it("shows a script's line as one escaped line, cut when long", () => {
    writeTree(fixture.root, { "packages/web/package.json": `${JSON.stringify({ name: "web", scripts: { fix: `echo ${"x".repeat(120)}\neslint --fix src` } })}\n` });
    const result = fixture.judge("npm run -w packages/web fix");
    expect(result.verdict).toBe("ask");
    expect(result.reason).toMatch(/runs `echo x+…`: `eslint --fix` writes through symlinks/);
  });
});
