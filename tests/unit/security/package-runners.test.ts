// pnpm runs a name that is neither one of its commands nor a package.json script as `pnpm exec` would,
// and yarn runs a dependency's binary for `yarn <name>` / `yarn run <name>`: the program is judged, not
// the package manager. Scripts (the fixture's `build`, `lint`, and web's `dev`, `publish`) stay allowed,
// as `pnpm run <script>` is; prefixes (`yarn workspace W`, `yarn workspaces foreach`, `pnpm recursive`)
// are peeled, and options before the command count for it (`pnpm -c exec '…'`).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { judgeCommand, parseShell, type Verdict } from "../../../src/main/security/index.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";
import { makePolicyFixture, type PolicyFixture } from "./policy-fixture.js";

let fixture: PolicyFixture;
beforeAll(() => {
  fixture = makePolicyFixture();
});
afterAll(() => fixture.cleanup());

type Row = [command: string, verdict: Verdict, reasonIncludes?: string];

const PNPM_RUNS_PROGRAMS: Row[] = [
  ["pnpm bash -c 'rm -rf ~'", "deny", "blacklist entry `rm -rf`"],
  ["pnpm sh -c 'touch x'", "ask", "`sh` is not on the whitelist"],
  ["pnpm sudo id", "deny", "blacklist entry `sudo`"],
  ["pnpm chmod -R 777 .", "deny", "blacklist entry `chmod`"],
  ["pnpm shred -u package.json", "ask", "`shred` is not on the whitelist"],
  ["pnpm --filter core bash -c x", "ask", "`bash` is not on the whitelist"],
  ["pnpm --filter core bash -c 'rm -rf ~'", "deny", "blacklist entry `rm -rf`"],
  ["pnpm -r sh -c x", "ask", "`sh` is not on the whitelist"],
  ["pnpm -r sh -c 'git push -f'", "deny", "blacklist entry `git push --force`"],
  // `-w` is pnpm's --workspace-root, a flag: `bash` is the command, not its value.
  ["pnpm -w bash -c 'rm -rf ~'", "deny", "blacklist entry `rm -rf`"],
  ["pnpm recursive exec rm -rf .", "deny", "blacklist entry `rm -rf`"],
  // An option pnpm may read as taking the next word: whichever word is the command, it is judged.
  ["pnpm --workspace-concurrency vitest bash -c 'rm -rf ~'", "deny", "blacklist entry `rm -rf`"],
  ["pnpm --some-option test sh -c x", "ask", "may be its value"],
  // -c / --shell-mode: the operands are a shell line, wherever the option sits.
  ["pnpm -c exec 'rm -rf .'", "deny", "blacklist entry `rm -rf`"],
  ["pnpm --shell-mode exec 'rm -rf .'", "deny", "blacklist entry `rm -rf`"],
  ["pnpm exec -c 'rm -rf .'", "deny", "blacklist entry `rm -rf`"],
  // The same for npm's -c/--call given before `exec`.
  ["npm -c 'rm -rf .' exec", "deny", "blacklist entry `rm -rf`"],
  ["npm --call 'rm -rf .' exec", "deny", "blacklist entry `rm -rf`"],
  // npm reads any abbreviation of `exec` as `exec`.
  ["npm exe sudo id", "deny", "blacklist entry `sudo`"],
  // Not a script in the project: a program named `deploy-all` would run.
  ["pnpm deploy-all", "ask", "`deploy-all` is not on the whitelist"],
];

const YARN_RUNS_PROGRAMS: Row[] = [
  ["yarn workspace W exec rm -rf .", "deny", "blacklist entry `rm -rf`"],
  ["yarn workspaces foreach -A exec bash -c 'rm -rf ~'", "deny", "blacklist entry `rm -rf`"],
  ["yarn workspaces foreach --all --parallel exec sh -c x", "ask", "`sh` is not on the whitelist"],
  ["yarn exec rm -rf .", "deny", "blacklist entry `rm -rf`"],
  ["yarn rimraf .", "ask", "`rimraf` is not on the whitelist"],
  ["yarn run rimraf .", "ask", "`rimraf` is not on the whitelist"],
  ["yarn workspace web rimraf .", "ask", "`rimraf` is not on the whitelist"],
  ["yarn workspace web add lodash", "ask", "install scripts run"],
];

const NEIGHBOURS: Row[] = [
  // Scripts of the root and of workspace packages run as `pnpm run` / `yarn run` would.
  ["pnpm build", "allow"],
  ["pnpm lint", "allow"],
  ["pnpm -r dev", "allow"],
  ["pnpm --filter web dev", "allow"],
  ["yarn build", "allow"],
  ["yarn run build", "allow"],
  ["yarn workspace web dev", "allow"],
  ["yarn workspaces foreach -A run build", "allow"],
  // Binaries on the whitelist, run through the package manager.
  ["pnpm vitest run", "allow"],
  ["pnpm tsc --noEmit", "allow"],
  ["pnpm -r exec tsc --noEmit", "allow"],
  ["yarn vitest", "allow"],
  ["yarn run eslint .", "allow"],
  // pnpm's and yarn's own commands.
  ["pnpm install", "allow"],
  ["pnpm test", "allow"],
  ["pnpm --filter web install", "allow"],
  ["pnpm -r --parallel run dev", "allow"],
  ["yarn install", "allow"],
  ["yarn workspaces list", "allow"],
];

describe("programs run through pnpm and yarn", () => {
  it.each([...PNPM_RUNS_PROGRAMS, ...YARN_RUNS_PROGRAMS, ...NEIGHBOURS])("%j → %s", (command, verdict, reasonIncludes) => {
    const result = fixture.judge(command);
    expect(result.verdict, result.reason).toBe(verdict);
    if (reasonIncludes) expect(result.reason).toContain(reasonIncludes);
  });

  it("names the program pnpm runs, behind a `pnpm exec` layer", () => {
    const judged = fixture.judge("pnpm --filter core shred -u package.json").commands[0]!;
    expect(judged.program).toBe("shred");
    expect(judged.wrappers).toEqual(["pnpm exec"]);
  });

  it("without a project, parses every unknown pnpm name as a program", () => {
    const [command] = parseShell("pnpm build").commands;
    expect(command!.invocation.argv.map((word) => word.value)).toEqual(["build"]);
  });
});

describe("scripts of a pnpm workspace", () => {
  it("reads the packages pnpm-workspace.yaml lists, and not those it does not", () => {
    const root = makeTempDir("ipuaro-pnpm-workspace-");
    try {
      writeTree(root, {
        "package.json": "{}\n",
        "pnpm-workspace.yaml": "packages:\n  - 'apps/*'\n  - \"libs/**\" # nested\n\ncatalog:\n  x: 1\n",
        "apps/site/package.json": JSON.stringify({ scripts: { serve: "vite" } }),
        "libs/a/b/package.json": JSON.stringify({ scripts: { bundle: "tsup" } }),
        "tools/package.json": JSON.stringify({ scripts: { wipe: "rimraf ." } }),
      });
      const judge = (command: string) => judgeCommand(command, { ...fixture.policy, projectRoot: root }).verdict;
      expect(judge("pnpm -r serve")).toBe("allow");
      expect(judge("pnpm --filter ./libs/a/b bundle")).toBe("allow");
      expect(judge("pnpm -r wipe")).toBe("ask");
    } finally {
      removeDir(root);
    }
  });
});
