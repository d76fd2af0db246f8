// A monorepo whose utils barrel everything imports: PageRank alone gave every outline to utils'
// sub-barrels and left the apps' entry files (main.ts, main.tsx) out of the first message's map.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildInitialContext } from "../../../src/main/context/initial-context.js";
import { diversifyByWorkspace, isRunnableEntry, workspaceOf, workspaceRoots } from "../../../src/main/context/outline-diversity.js";
import type { RankedFile } from "../../../src/main/context/repo-ranking.js";
import { TokenEstimator } from "../../../src/main/llm/token-estimator.js";
import type { FileMeta } from "../../../src/workers/ast-types.js";
import { closeIndexedProject, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, writeTree, type FileTree } from "../../helpers/temp-dir.js";

const server = useRedisServer();
let project: IndexedProject;
const estimator = new TokenEstimator();
const estimateTokens = (text: string) => estimator.estimate(text);

const pkg = (name: string) => JSON.stringify({ name, version: "1.0.0", type: "module" });

function monorepo(): FileTree {
  const tree: FileTree = {
    "package.json": JSON.stringify({ name: "acme", private: true, workspaces: ["packages/*", "apps/*"] }),
    "packages/utils/package.json": pkg("@acme/utils"),
    "packages/core/package.json": pkg("@acme/core"),
    "apps/api/package.json": pkg("@acme/api"),
    "apps/web/package.json": pkg("@acme/web"),
  };
  const barrel: string[] = [];
  for (let m = 0; m < 16; m++) {
    barrel.push(`export * from "./m${m}/index.js";`);
    tree[`packages/utils/src/m${m}/index.ts`] = `export * from "./a.js";\nexport * from "./b.js";\n`;
    for (const f of ["a", "b"]) {
      tree[`packages/utils/src/m${m}/${f}.ts`] = `export function ${f}Helper${m}(value: string): string {\n  return value.trim();\n}\n`;
    }
  }
  tree["packages/utils/src/index.ts"] = `${barrel.join("\n")}\n`;
  tree["packages/core/src/index.ts"] = `export * from "./money.js";\n`;
  tree["packages/core/src/money.ts"] = `import { aHelper0 } from "../../utils/src/index.js";\nexport class Money {\n  format(): string {\n    return aHelper0("1");\n  }\n}\n`;
  const modules: string[] = [];
  for (let i = 0; i < 24; i++) {
    modules.push(`import { user${i} } from "./users/user-${i}.js";`);
    tree[`apps/api/src/users/user-${i}.ts`] = `import { bHelper${i % 16} } from "../../../../packages/utils/src/index.js";\nexport function user${i}(id: string): string {\n  return bHelper${i % 16}(id);\n}\n`;
  }
  tree["apps/api/src/app.module.ts"] = `${modules.join("\n")}\nexport const appModule = [${Array.from({ length: 24 }, (_, i) => `user${i}`).join(", ")}];\n`;
  tree["apps/api/src/main.ts"] = `import { appModule } from "./app.module.js";\nexport async function bootstrap(port: number): Promise<void> {\n  console.log(appModule.length, port);\n}\nvoid bootstrap(3000);\n`;
  tree["apps/web/src/App.tsx"] = `import { Money } from "../../../packages/core/src/index.js";\nexport function App(): JSX.Element {\n  return <div>{new Money().format()}</div>;\n}\n`;
  tree["apps/web/src/main.tsx"] = `import { App } from "./App.js";\nexport function mount(el: HTMLElement): void {\n  render(<App />, el);\n}\n`;
  return tree;
}

beforeAll(async () => {
  const root = makeTempDir("ipuaro-ctx-workspaces-");
  writeTree(root, monorepo());
  project = await openIndexedProject(root, server().url);
  await project.reindex();
}, 60_000);
afterAll(() => closeIndexedProject(project));

describe("outlines of a monorepo's first message", () => {
  it("give each workspace a turn and put the apps' entry files in, not only the most imported package", async () => {
    const ctx = await buildInitialContext({ store: project.store, root: project.root, budgetTokens: 1000, estimateTokens, cache: null });
    expect(ctx.tokens).toBeLessThanOrEqual(1000);
    expect(ctx.text).toContain("## Structure (folders; files in each subtree; 1 file at the root)");
    expect(ctx.includedFiles.length).toBeGreaterThanOrEqual(6);
    expect(ctx.includedFiles.length).toBeLessThan(20);
    expect(ctx.includedFiles).toContain("apps/api/src/main.ts");
    expect(ctx.includedFiles).toContain("apps/web/src/main.tsx");
    const workspaces = new Set(ctx.includedFiles.slice(0, 6).map((p) => p.split("/").slice(0, 2).join("/")));
    expect(workspaces.size).toBeGreaterThanOrEqual(3);
    // The metrics line lists the apps' entry files among the first entry points.
    const roomy = await buildInitialContext({ store: project.store, root: project.root, budgetTokens: 6000, estimateTokens, cache: null });
    expect(roomy.text).toMatch(/Entry points \(\d+; [^)]*\): [^,\n]+, [^,\n]+, apps\/api\/src\/main\.ts, apps\/web\/src\/main\.tsx/);
  });

  it("keep a file the conversation names first", async () => {
    const ctx = await buildInitialContext({ store: project.store, root: project.root, budgetTokens: 1800, estimateTokens, cache: null, mentions: ["what does packages/utils/src/m7/b.ts do?"] });
    expect(ctx.includedFiles[0]).toBe("packages/utils/src/m7/b.ts");
  });
});

describe("diversifyByWorkspace", () => {
  const meta = (over: Partial<FileMeta> = {}): FileMeta => ({
    complexity: { loc: 10, nesting: 1, cyclomatic: 1, score: 1 },
    dependencies: [],
    dependents: [],
    isHub: false,
    isEntryPoint: false,
    ...over,
  } as FileMeta);
  const ranked = (paths: string[]): RankedFile[] => paths.map((path, i) => ({ path, score: 1 / (i + 1), pinned: false }));

  it("leaves a single-package project's order alone", () => {
    const files = ranked(["src/a.ts", "src/b.ts", "tests/a.test.ts", "scripts/x.ts"]);
    const out = diversifyByWorkspace(files, { allPaths: ["package.json", ...files.map((f) => f.path)], meta: new Map(), focused: false });
    expect(out.map((f) => f.path)).toEqual(files.map((f) => f.path));
  });

  it("finds the deepest workspace of a file and ignores fixture packages", () => {
    const roots = workspaceRoots(["package.json", "packages/a/package.json", "packages/a/sub/package.json", "packages/a/fixtures/demo/package.json"]);
    expect(roots).toEqual(["packages/a/sub", "packages/a"]);
    expect(workspaceOf("packages/a/sub/x.ts", roots)).toBe("packages/a/sub");
    expect(workspaceOf("packages/a/x.ts", roots)).toBe("packages/a");
    expect(workspaceOf("scripts/x.ts", roots)).toBeNull();
  });

  it("tells runnable entry files from barrels, tests and generated code", () => {
    expect(isRunnableEntry("apps/api/src/main.ts", meta({ isEntryPoint: true }))).toBe(true);
    expect(isRunnableEntry("apps/cli/bin/acme.js", meta({ isEntryPoint: true }))).toBe(true);
    expect(isRunnableEntry("packages/a/src/index.ts", meta({ isEntryPoint: true, dependents: ["x.ts"] }))).toBe(false);
    expect(isRunnableEntry("apps/api/src/main.test.ts", meta({ isEntryPoint: true }))).toBe(false);
    expect(isRunnableEntry("apps/api/src/helpers.ts", meta({ isEntryPoint: true }))).toBe(false);
  });
});
