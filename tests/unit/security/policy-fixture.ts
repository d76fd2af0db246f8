// A real project folder and the shipped command lists, so the policy is tested as check-command runs it.
import fs from "node:fs";
import path from "node:path";
import { judgeCommand, type CommandJudgement, type CommandPolicy } from "../../../src/main/security/index.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";

const configDir = path.resolve(import.meta.dirname, "../../../config");

export interface PolicyFixture {
  root: string;
  outside: string;
  /** The policy check-command uses for `root` (the shipped lists). */
  policy: CommandPolicy;
  judge(command: string, extraWhitelist?: readonly string[]): CommandJudgement;
  cleanup(): void;
}

/**
 * `root` holds src/a.ts, scripts/build.js and `link-out` → `outside`, a folder next to it. It is a
 * workspace: its package.json has the scripts `build` and `lint`, and packages/web (named `web`) the
 * scripts `dev` and `publish`. It is not a git repository's top (there is no .git in it).
 */
export function makePolicyFixture(): PolicyFixture {
  const base = makeTempDir("ipuaro-policy-");
  const root = path.join(base, "project");
  const outside = path.join(base, "outside");
  const manifest = (value: unknown): string => `${JSON.stringify(value)}\n`;
  writeTree(root, {
    "src/a.ts": "export {};\n",
    "scripts/build.js": "\n",
    "package.json": manifest({ workspaces: ["packages/*"], scripts: { build: "node scripts/build.js", lint: "eslint ." } }),
    "packages/web/package.json": manifest({ name: "web", scripts: { dev: "vite", publish: "node scripts/publish.js" } }),
  });
  fs.mkdirSync(outside);
  fs.symlinkSync(outside, path.join(root, "link-out"));
  const lists = (name: string): unknown => JSON.parse(fs.readFileSync(path.join(configDir, name), "utf8"));
  const blacklist = (lists("blacklist.json") as { commands: string[] }).commands;
  const whitelist = (lists("whitelist.json") as { default: string[] }).default;
  const policy: CommandPolicy = { blacklist, whitelist, projectRoot: root };
  return {
    root,
    outside,
    policy,
    judge: (command, extra = []) => judgeCommand(command, { ...policy, whitelist: [...whitelist, ...extra] }),
    cleanup: () => removeDir(base),
  };
}
