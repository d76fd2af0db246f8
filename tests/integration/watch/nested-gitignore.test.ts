// A deeper .gitignore overrides a shallower one, in the cold index and in the watcher's live updates,
// and the index ends up holding exactly what git itself does not ignore.
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeIndexedProject, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, writeTree } from "../../helpers/temp-dir.js";
import { startWatching, type WatchHarness } from "./watch-harness.js";

const server = useRedisServer();
let project: IndexedProject;
let w: WatchHarness;

beforeAll(async () => {
  const root = makeTempDir();
  execFileSync("git", ["init", "-q"], { cwd: root });
  writeTree(root, {
    ".gitignore": "*.log\n",
    "sub/.gitignore": "*.skip.ts\n!deep/\n",
    "sub/deep/.gitignore": "!x.skip.ts\n",
    "sub/a.skip.ts": "export const a = 1;\n",
    "sub/b.ts": "export const b = 1;\n",
    "sub/deep/x.skip.ts": "export const x = 1;\n",
    "sub/deep/y.skip.ts": "export const y = 1;\n",
  });
  project = await openIndexedProject(root, server().url);
  await project.reindex();
  w = await startWatching(project);
});
afterAll(async () => {
  await w?.stop();
  await closeIndexedProject(project);
});

const indexed = async () => (await project.redis.hkeys(w.key("stat"))).filter((p) => p.endsWith(".ts")).sort();
/** What git keeps of the project's .ts files, with no user or system config. */
function gitKept(): string[] {
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
  const out = execFileSync("git", ["-c", "core.excludesFile=/dev/null", "ls-files", "-z", "--others", "--exclude-standard"], { cwd: project.root, env, encoding: "utf8" });
  return out.split("\0").filter((p) => p.endsWith(".ts")).sort();
}

describe("nested .gitignore precedence", () => {
  it("the cold index keeps what a deeper .gitignore re-includes, as git does", async () => {
    expect(await indexed()).toEqual(["sub/b.ts", "sub/deep/x.skip.ts"]);
    expect(await indexed()).toEqual(gitKept());
  });

  it("the watcher judges new files and changed .gitignore files the same way", async () => {
    w.write("sub/deep/x.skip.ts", "export const x = 2;\n");
    await w.waitIndexed("sub/deep/x.skip.ts");
    w.write("sub/deep/z.skip.ts", "export const z = 1;\n");
    w.write("sub/deep/ok.ts", "export const ok = 1;\n");
    await w.waitIndexed("sub/deep/ok.ts");
    expect(await indexed()).toEqual(["sub/b.ts", "sub/deep/ok.ts", "sub/deep/x.skip.ts"]);

    w.write("sub/deep/.gitignore", "!*.skip.ts\n");
    await w.waitIndexed("sub/deep/y.skip.ts");
    await w.waitIndexed("sub/deep/z.skip.ts");
    expect(await indexed()).toEqual(gitKept());

    // The folder excluded from above: nothing inside comes back, whatever its own .gitignore says.
    w.write("sub/.gitignore", "*.skip.ts\ndeep/\n");
    await w.waitGone("sub/deep/x.skip.ts");
    await w.waitGone("sub/deep/ok.ts");
    expect(await indexed()).toEqual(["sub/b.ts"]);
    expect(await indexed()).toEqual(gitKept());
  });
});
