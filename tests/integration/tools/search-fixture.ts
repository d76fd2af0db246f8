// The acme-shop fixture plus files the search and analysis tool tests need: names in comments and
// strings, a second class with an `add` method, a namespace and its users, a hub, long declarations, TODO markers in comments and
// outside them, and a name used on more lines than find_references shows.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildAcmeShop, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { writeTree } from "../../helpers/temp-dir.js";

export const LONG_FUNCTION_LINES = 450;
export const MANY_REFS_LINES = 150;
export const HUB_REPORTS = 6;

function longFunction(): string {
  const body = Array.from({ length: LONG_FUNCTION_LINES - 4 }, (_, i) => `  total += ${i};`);
  return ["export function longOne(): number {", "  let total = 0;", ...body, "  return total;", "}"].join("\n");
}

function bigClass(): string {
  const filler = (n: number) => Array.from({ length: n }, (_, i) => `    this.n += ${i};`).join("\n");
  return [
    "export class BigClass {",
    "  n = 0;",
    "  first(): void {",
    filler(250),
    "  }",
    "  second(): void {",
    filler(250),
    "  }",
    "}",
  ].join("\n");
}

export const EXTRA_FILES: Record<string, string> = {
  "packages/core/src/checks.ts": [
    "export namespace util {",
    "  export function assertEqual(a: unknown, b: unknown): void {",
    '    if (!same(a, b)) throw new Error("differ");',
    "  }",
    "  function same(a: unknown, b: unknown): boolean {",
    "    return a === b;",
    "  }",
    "  export function check(): void {",
    "    assertEqual(1, 1);",
    "  }",
    "}",
    "",
  ].join("\n"),
  "packages/core/src/verify.ts": ['import { util } from "./checks";', "", "export function verify(): void {", "  util.assertEqual(2, 2);", "}", ""].join("\n"),
  "packages/core/src/references-edge.ts": [
    "// Money in a comment only",
    "/* Money again */",
    'import { Money, sum } from "./money";',
    'export const label = "Money";',
    "export const tpl = `Money ${Money.ZERO.amount}`;",
    "export class Wallet {",
    "  add(m: Money): Money {",
    "    return m;",
    "  }",
    "}",
    "export const sumAlias = sum;",
    "",
  ].join("\n"),
  "packages/ui/src/components/Notes.tsx": [
    "/** Notes list.",
    " * @todo paginate",
    " */",
    'export const NOTE = "TODO: not a comment";',
    "export const tpl = `FIXME ${1}`;",
    "/* HACK: block comment */",
    "export function Notes() {",
    "  return <p>TODO in JSX text</p>; // XXX trailing",
    "}",
    "",
  ].join("\n"),
  "apps/api/settings.yaml": "# TODO yaml comment\nkey: TODO not a comment\n",
  "packages/ui/src/slug.ts": "export function slugify(s: string): string {\n  return s;\n}\n",
  "packages/core/src/long.ts": `${longFunction()}\n\n${bigClass()}\n`,
  "packages/core/src/many-refs.ts": `export const manyRefs = 1;\n${Array.from({ length: MANY_REFS_LINES }, (_, i) => `export const x${i} = manyRefs + ${i};`).join("\n")}\n`,
  ...Object.fromEntries(
    Array.from({ length: HUB_REPORTS }, (_, i) => [
      `apps/api/src/reports/report-${i}.ts`,
      `import { OrderService } from "../orders/order.service";\nexport const report${i} = (s: OrderService) => s.total("r${i}");\n`,
    ]),
  ),
};

/** Paths no tool may read: each must come back as a path error, never as data. */
export const HOSTILE_PATHS: Array<[string, string]> = [
  ["../outside.ts", "PATH_OUTSIDE_ROOT"],
  ["packages/../../etc/passwd", "PATH_OUTSIDE_ROOT"],
  ["/etc/passwd", "PATH_OUTSIDE_ROOT"],
  ["outside-link/x.ts", "PATH_OUTSIDE_ROOT"],
  ["packages/core/src/money.ts\0.txt", "PATH_INVALID"],
  ["~/.ssh/id_rsa", "PATH_INVALID"],
  ["file:///etc/passwd", "PATH_INVALID"],
  ["C:/Windows/win.ini", "PATH_INVALID"],
  ["packages\\core\\src\\money.ts", "PATH_INVALID"],
  ["packages/core/src/mon\u202eey.ts", "PATH_INVALID"],
  ["   ", "PATH_INVALID"],
];

/** Builds and indexes the project (with a symlink out of it); call close() in afterAll. */
export async function openSearchFixture(redisUrl: string): Promise<IndexedProject> {
  const root = buildAcmeShop();
  writeTree(root, EXTRA_FILES);
  fs.symlinkSync(os.tmpdir(), path.join(root, "outside-link"));
  const project = await openIndexedProject(root, redisUrl);
  await project.reindex();
  return project;
}
