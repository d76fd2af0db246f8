// get_dependencies, get_dependents, get_complexity and get_todos on the acme-shop fixture, indexed into
// a real Redis.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RegisteredTool } from "../../../src/main/tools/define-tool.js";
import { computeGraphMetrics } from "../../../src/main/context/project-sections.js";
import { getComplexity, TOP_COMPLEXITY_FILES } from "../../../src/main/tools/get-complexity.js";
import { getDependencies } from "../../../src/main/tools/get-dependencies.js";
import { getDependents } from "../../../src/main/tools/get-dependents.js";
import { getTodos } from "../../../src/main/tools/get-todos.js";
import type { ToolResult } from "../../../src/main/tools/tool-types.js";
import type { IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { toolContext, type TestToolContext } from "../../helpers/tool-context.js";
import { writeTree } from "../../helpers/temp-dir.js";
import { HOSTILE_PATHS, HUB_REPORTS, openSearchFixture } from "./search-fixture.js";

const server = useRedisServer();
let project: IndexedProject;
let ctx: TestToolContext;

beforeAll(async () => {
  project = await openSearchFixture(server().url);
  ctx = toolContext(project);
}, 60_000);
afterAll(async () => {
  await project?.close();
});

async function run(tool: RegisteredTool, args: unknown): Promise<ToolResult> {
  return tool.run("call-1", args, ctx);
}

async function ok(tool: RegisteredTool, args: unknown): Promise<string> {
  const r = await run(tool, args);
  expect(r.error, `${tool.name} ${JSON.stringify(args)}`).toBeUndefined();
  return r.data!;
}

async function fails(tool: RegisteredTool, args: unknown, code: string): Promise<string> {
  const r = await run(tool, args);
  expect(r.success, `${tool.name} ${JSON.stringify(args)} should fail`).toBe(false);
  expect(r.code).toBe(code);
  return r.error!;
}

const HUB_DEPENDENTS = HUB_REPORTS + 2; // the reports, main.ts and order.controller.ts

describe("get_dependencies", () => {
  it("lists resolved project files with hub/entry flags, and the externals", async () => {
    const out = await ok(getDependencies, { path: "apps/api/src/main.ts" });
    expect(out.split("\n")).toEqual([
      "apps/api/src/main.ts [entry] imports 2 project files:",
      "  apps/api/src/orders/order.controller.ts",
      `  apps/api/src/orders/order.service.ts [hub: ${HUB_DEPENDENTS} dependents]`,
      "external: node:http",
    ]);
  });

  it("resolves workspace packages and tsconfig paths", async () => {
    const out = await ok(getDependencies, { path: "packages/ui/src/components/PriceTag.tsx" });
    expect(out).toContain("  packages/core/src/index.ts [entry, re-exports]");
    expect(out).toContain("  packages/core/src/utils/strings.ts");
    expect(out).toContain("external: react");
  });

  it("says so when a file imports nothing from the project", async () => {
    expect(await ok(getDependencies, { path: "packages/core/src/money.ts" })).toBe("packages/core/src/money.ts imports no project files.");
  });
});

describe("get_dependents", () => {
  it("lists importers and points at barrels for indirect users", async () => {
    const out = await ok(getDependents, { path: "packages/core/src/money.ts" });
    expect(out.split("\n")).toEqual([
      "packages/core/src/money.ts is imported by 2 project files:",
      "  packages/core/src/index.ts [entry, re-exports]",
      "  packages/core/src/references-edge.ts [entry]", // nothing imports it
      "Indirect users import it through packages/core/src/index.ts; call get_dependents on it.",
    ]);
  });

  it("marks a hub and lists all its dependents", async () => {
    const out = await ok(getDependents, { path: "apps/api/src/orders/order.service.ts" });
    const lines = out.split("\n");
    expect(lines[0]).toBe(`apps/api/src/orders/order.service.ts [hub: ${HUB_DEPENDENTS} dependents] is imported by ${HUB_DEPENDENTS} project files:`);
    expect(lines).toContain("  apps/api/src/main.ts [entry]");
    expect(lines.filter((l) => l.includes("apps/api/src/reports/report-"))).toHaveLength(HUB_REPORTS);
  });

  it("says so for a file nothing imports", async () => {
    expect(await ok(getDependents, { path: "apps/api/src/main.ts" })).toBe("apps/api/src/main.ts [entry] is imported by no project file (an entry point).");
  });

  it("counts them in the chat line in words people read", async () => {
    const summary = async (path: string) => (await run(getDependents, { path })).display?.summary;
    expect(await summary("apps/api/src/orders/order.controller.ts")).toBe("1 dependent");
    expect(await summary("packages/core/src/money.ts")).toBe("2 dependents");
    expect(await summary("apps/api/src/main.ts")).toBe("0 dependents");
  });
});

describe("get_dependencies / get_dependents errors", () => {
  it.each([getDependencies, getDependents])("%s explains missing files, folders and binaries", async (tool) => {
    expect(await fails(tool, { path: "packages/core/src/nope.ts" }, "FILE_NOT_FOUND")).toContain("get_structure");
    expect(await fails(tool, { path: "packages/core/src" }, "PATH_INVALID")).toContain("is a folder");
    expect(await fails(tool, { path: "assets/logo.png" }, "NOT_FOUND")).toContain("no dependency data");
  });

  it.each(HOSTILE_PATHS)("refuse the hostile path %j", async (path, code) => {
    await fails(getDependencies, { path }, code);
    await fails(getDependents, { path }, code);
  });

  it.each([[{}], [{ path: 1 }], [{ path: "" }], [{ path: "a.ts", depth: 2 }]])("reject %j", async (args) => {
    await fails(getDependencies, args, "INVALID_ARGS");
    await fails(getDependents, args, "INVALID_ARGS");
  });
});

describe("get_complexity", () => {
  it("ranks code files by score, highest first, leaving data files out", async () => {
    const out = await ok(getComplexity, {});
    const lines = out.split("\n");
    expect(lines[0]).toMatch(/^Top \d+ of \d+ code files by complexity \(score = loc\/10 \+ nesting\*5 \+ imports\*2\):$/);
    expect(lines[1]).toBe("score   loc nest  imp  path");
    const rows = lines.slice(2).map((l) => l.trim().split(/\s+/));
    expect(rows.length).toBeLessThanOrEqual(TOP_COMPLEXITY_FILES);
    const scores = rows.map((r) => Number(r[0]));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const paths = rows.map((r) => r[4]);
    expect(paths[0]).toBe("packages/core/src/long.ts");
    expect(paths.some((p) => /\.(json|ya?ml)$/.test(p!))).toBe(false);
    // Each row matches the stored metadata.
    const meta = await project.store.getMeta(paths[0]!);
    expect(rows[0]!.slice(0, 4).map(Number)).toEqual([meta!.complexity.score, meta!.complexity.loc, meta!.complexity.nesting, meta!.complexity.imports]);
  });

  it("breaks one file down with its rank and longest functions", async () => {
    const out = await ok(getComplexity, { path: "apps/api/src/orders/order.service.ts" });
    const c = (await project.store.getMeta("apps/api/src/orders/order.service.ts"))!.complexity;
    const lines = out.split("\n");
    expect(lines[0]).toMatch(new RegExp(`^apps/api/src/orders/order.service.ts \\[hub: ${HUB_DEPENDENTS} dependents\\]: score ${c.score} \\(rank \\d+ of \\d+ code files\\)$`));
    expect(lines).toContain(`  loc ${c.loc} (lines with code) → ${(c.loc / 10).toFixed(1)}`);
    expect(lines).toContain(`  nesting ${c.nesting} (deepest block) → ${c.nesting * 5}`);
    expect(lines).toContain(`  imports ${c.imports} → ${c.imports * 2}`);
    expect(lines.at(-1)).toBe("longest functions: OrderService.total :18-22 (5 lines), OrderService.create :13-16 (4 lines)");
  });

  it("ranks only the files of a folder", async () => {
    const out = await ok(getComplexity, { path: "packages/ui" });
    expect(out.split("\n")[0]).toMatch(/^Top 5 of 5 code files under packages\/ui by complexity/);
    for (const row of out.split("\n").slice(2)) expect(row).toContain(" packages/ui/");
  });

  it("explains what it cannot measure", async () => {
    expect(await fails(getComplexity, { path: "packages/core/src/nope.ts" }, "FILE_NOT_FOUND")).toContain("get_structure");
    expect(await fails(getComplexity, { path: "assets/logo.png" }, "NOT_FOUND")).toContain("no complexity data");
    expect(await fails(getComplexity, { path: "assets" }, "NOT_FOUND")).toContain("no indexed code files under assets");
  });

  it.each(HOSTILE_PATHS)("refuses the hostile path %j", async (path, code) => {
    await fails(getComplexity, { path }, code);
  });

  it.each([[{ path: 3 }], [{ top: 5 }]])("rejects %j", async (args) => {
    await fails(getComplexity, args, "INVALID_ARGS");
  });
});

describe("get_todos", () => {
  it("finds markers in comments only, in code and YAML", async () => {
    const out = await ok(getTodos, {});
    expect(out.split("\n")).toEqual([
      "6 markers (3 TODO, 1 FIXME, 1 HACK, 1 XXX) in 4 files:",
      "apps/api/settings.yaml",
      "  1 TODO │ # TODO yaml comment",
      "apps/api/src/orders/order.controller.ts",
      "  13 FIXME │ // FIXME: parse the id properly",
      "packages/core/src/utils/strings.ts",
      '  1 TODO │ // TODO: handle Cyrillic transliteration ("привет" → "privet")',
      "packages/ui/src/components/Notes.tsx",
      "  2 TODO │ * @todo paginate",
      "  6 HACK │ /* HACK: block comment */",
      "  8 XXX │ return <p>TODO in JSX text</p>; // XXX trailing",
    ]);
  });

  it("narrows to a folder or a file", async () => {
    const folder = await ok(getTodos, { path: "packages" });
    expect(folder.split("\n")[0]).toBe("4 markers (2 TODO, 1 HACK, 1 XXX) in 2 files under packages:");
    const file = await ok(getTodos, { path: "apps/api/src/orders/order.controller.ts" });
    expect(file.split("\n")).toEqual([
      "1 marker (1 FIXME) in 1 file under apps/api/src/orders/order.controller.ts:",
      "apps/api/src/orders/order.controller.ts",
      "  13 FIXME │ // FIXME: parse the id properly",
    ]);
    expect(await ok(getTodos, { path: "apps/api/src/main.ts" })).toBe("no TODO/FIXME/HACK/XXX comments under apps/api/src/main.ts");
    expect(await fails(getTodos, { path: "apps/nowhere" }, "NOT_FOUND")).toContain("nothing indexed at apps/nowhere");
  });

  it.each(HOSTILE_PATHS)("refuses the hostile path %j", async (path, code) => {
    await fails(getTodos, { path }, code);
  });

  it.each([[{ path: false }], [{ marker: "TODO" }]])("rejects %j", async (args) => {
    await fails(getTodos, args, "INVALID_ARGS");
  });
});

describe("get_dependents of a file more than the list can show imports", () => {
  it("says how the dependents spread over folders before listing the first of them", async () => {
    const tree: Record<string, string> = { "packages/shared/src/hub.ts": "export const hub = 1;\n" };
    for (let i = 0; i < 150; i++) tree[`apps/one/src/u${i}.ts`] = 'import { hub } from "../../../packages/shared/src/hub";\nexport const u = hub;\n';
    for (let i = 0; i < 60; i++) tree[`apps/two/src/v${i}.ts`] = 'import { hub } from "../../../packages/shared/src/hub";\nexport const v = hub;\n';
    writeTree(project.root, tree);
    await project.reindex();
    const lines = (await ok(getDependents, { path: "packages/shared/src/hub.ts" })).split("\n");
    expect(lines[0]).toMatch(/is imported by 210 project files:$/);
    expect(lines[1]).toBe("By folder: apps/one (150), apps/two (60)");
    expect(lines.at(-1)).toBe("  … 10 more");
  });
});

describe("generated code in the complexity ranking", () => {
  it("leaves codegen output and minified bundles out of the ranking and says so", async () => {
    const nested = (depth: number): string => (depth === 0 ? "return value;" : `if (value) {\n${nested(depth - 1)}\n}`);
    const functions = Array.from({ length: 400 }, (_, i) => `export function resolve${i}(value: unknown) {\n${nested(6)}\n}`).join("\n");
    writeTree(project.root, {
      "apps/api/src/gql/client.ts": `// Code generated by graphql-codegen. DO NOT EDIT.\n${functions}\n`,
      "apps/web/public/chart.bundle.js": `${"var a=function(b){return b&&b.c?b.d:b};".repeat(800)}\n`,
      "apps/api/src/gql/__generated__/types.ts": functions,
    });
    await project.reindex();
    expect((await project.store.getMeta("apps/api/src/gql/client.ts"))!.complexity).toMatchObject({ generated: true });
    expect((await project.store.getMeta("apps/api/src/gql/__generated__/types.ts"))!.complexity.generated).toBe(true);
    expect((await project.store.getMeta("packages/core/src/long.ts"))!.complexity.generated).toBeUndefined();

    const out = await ok(getComplexity, {});
    expect(out.split("\n").slice(0, -1).join("\n")).not.toMatch(/gql\/|chart\.bundle\.js/);
    expect(out.split("\n")[2]).toMatch(/ packages\/core\/src\/long\.ts/);
    expect(out.split("\n").at(-1)).toBe("(3 generated files left out: apps/api/src/gql/__generated__/types.ts, apps/api/src/gql/client.ts, apps/web/public/chart.bundle.js)");

    const one = await ok(getComplexity, { path: "apps/api/src/gql/client.ts" });
    expect(one.split("\n")[0]).toMatch(/^apps\/api\/src\/gql\/client\.ts \[.*generated\]: score \d+ \(generated: a tool wrote it, so it is not ranked\)$/);
    expect(await fails(getComplexity, { path: "apps/api/src/gql" }, "NOT_FOUND")).toMatch(/^only generated code under apps\/api\/src\/gql, which is not ranked/);

    const metrics = computeGraphMetrics(await project.store.getAllMeta());
    expect(metrics.complex.join("\n")).not.toMatch(/gql\/|chart\.bundle/);
    expect(metrics.complex[0]).toMatch(/^packages\/core\/src\/long\.ts /);
  });
});
