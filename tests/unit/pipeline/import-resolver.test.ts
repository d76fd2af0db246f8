import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ImportResolver } from "../../../src/pipeline/graph/import-resolver.js";
import { internalSpecifierMatchers, loadProjectLayout } from "../../../src/pipeline/graph/project-layout.js";
import { linkTargetPath } from "../../../src/pipeline/graph/project-links.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";

let root: string;
const files = [
  "package.json",
  "tsconfig.json",
  "packages/core/package.json",
  "packages/core/src/index.ts",
  "packages/core/src/money.ts",
  "packages/core/src/utils/index.ts",
  "packages/core/src/utils/strings.ts",
  "packages/ui/package.json",
  "packages/ui/tsconfig.json",
  "packages/ui/src/index.ts",
  "packages/ui/src/components/Button.tsx",
  "packages/ui/src/theme.ts",
  "apps/web/src/main.tsx",
  "apps/web/src/data.json",
];

beforeEach(() => {
  root = makeTempDir();
  const tree: Record<string, string> = Object.fromEntries(files.map((f) => [f, ""]));
  tree["package.json"] = JSON.stringify({ name: "mono", workspaces: ["packages/*"] });
  tree["tsconfig.json"] = `{
    // comments and trailing commas are fine in tsconfig
    "compilerOptions": { "baseUrl": ".", "paths": { "@core/*": ["packages/core/src/*"], "@money": ["packages/core/src/money.ts"], }, },
  }`;
  tree["packages/ui/tsconfig.json"] = JSON.stringify({ extends: "../../tsconfig.json", compilerOptions: { baseUrl: "src", paths: { "~/*": ["*"] } } });
  tree["packages/core/package.json"] = JSON.stringify({ name: "@acme/core", main: "dist/index.js" });
  tree["packages/ui/package.json"] = JSON.stringify({ name: "@acme/ui", exports: { ".": "./src/index.ts", "./button": "./src/components/Button.tsx" } });
  writeTree(root, tree);
});
afterEach(() => removeDir(root));

function resolver() {
  const layout = loadProjectLayout(root, files);
  return { r: new ImportResolver(new Set(files), layout), layout };
}

describe("two workspace packages with one name (a package folder copied)", () => {
  it("resolve to the same one whatever order the files are listed in: the shallower folder, then the first by name", () => {
    writeTree(root, {
      "packages/charts/package.json": JSON.stringify({ name: "@acme/core", main: "src/index.ts" }),
      "packages/charts/src/index.ts": "",
      "examples/deep/core/package.json": JSON.stringify({ name: "@acme/core" }),
    });
    const more = [...files, "packages/charts/package.json", "packages/charts/src/index.ts", "examples/deep/core/package.json"];
    for (const listed of [more, [...more].reverse()]) {
      const layout = loadProjectLayout(root, listed);
      expect(layout.packages.get("@acme/core")?.dir).toBe("packages/charts");
      expect(new ImportResolver(new Set(listed), layout).resolve("apps/web/src/main.tsx", "@acme/core")).toBe("packages/charts/src/index.ts");
    }
  });
});

describe("ImportResolver", () => {
  it.each([
    ["packages/core/src/index.ts", "./money", "packages/core/src/money.ts"],
    ["packages/core/src/index.ts", "./money.js", "packages/core/src/money.ts"],
    ["packages/core/src/index.ts", "./utils", "packages/core/src/utils/index.ts"],
    ["packages/core/src/utils/strings.ts", "../money", "packages/core/src/money.ts"],
    ["apps/web/src/main.tsx", "./data.json", "apps/web/src/data.json"],
    ["apps/web/src/main.tsx", "@core/utils/strings", "packages/core/src/utils/strings.ts"],
    ["apps/web/src/main.tsx", "@money", "packages/core/src/money.ts"],
    ["apps/web/src/main.tsx", "@acme/core", "packages/core/src/index.ts"],
    ["apps/web/src/main.tsx", "@acme/ui", "packages/ui/src/index.ts"],
    ["apps/web/src/main.tsx", "@acme/ui/button", "packages/ui/src/components/Button.tsx"],
    ["packages/ui/src/index.ts", "~/theme", "packages/ui/src/theme.ts"],
    ["packages/ui/src/index.ts", "components/Button", "packages/ui/src/components/Button.tsx"],
  ])("%s imports %s → %s", (from, spec, expected) => {
    expect(resolver().r.resolve(from, spec)).toBe(expected);
  });

  it("takes a JavaScript module over the declaration file beside it, and a declaration file alone", () => {
    const js = ["lib/index.js", "lib/client.js", "lib/client.d.ts", "lib/utils/index.js", "lib/utils/index.d.ts", "lib/types.d.ts"];
    const r = new ImportResolver(new Set(js), loadProjectLayout(root, js));
    expect(r.resolve("lib/index.js", "./client")).toBe("lib/client.js");
    expect(r.resolve("lib/index.js", "./utils")).toBe("lib/utils/index.js");
    expect(r.resolve("lib/index.js", "./types")).toBe("lib/types.d.ts");
  });

  it("resolves a declaration file's imports to declarations, as TypeScript reads them, and the code's to code", () => {
    const files = ["v4/index.d.cts", "v4/index.cjs", "v4/classic/index.d.cts", "v4/classic/index.cjs", "lib/a.d.ts", "lib/a.js", "lib/b.d.ts", "lib/b.js", "lib/c.js", "lib/d.ts", "lib/d.d.ts", "lib/e/index.d.ts", "lib/e/index.js"];
    const r = new ImportResolver(new Set(files), loadProjectLayout(root, files));
    expect(r.resolve("v4/index.d.cts", "./classic/index.cjs")).toBe("v4/classic/index.d.cts");
    expect(r.resolve("v4/index.cjs", "./classic/index.cjs")).toBe("v4/classic/index.cjs");
    expect(r.resolve("lib/a.d.ts", "./b.js")).toBe("lib/b.d.ts");
    expect(r.resolve("lib/a.d.ts", "./b")).toBe("lib/b.d.ts");
    expect(r.resolve("lib/a.d.ts", "./e")).toBe("lib/e/index.d.ts");
    // A TypeScript source still comes first; a module with no declarations is what it is.
    expect(r.resolve("lib/a.d.ts", "./d.js")).toBe("lib/d.ts");
    expect(r.resolve("lib/a.d.ts", "./c.js")).toBe("lib/c.js");
    // The code beside it, in the same folder, keeps resolving to code (the answers are cached apart).
    expect(r.resolve("lib/a.js", "./b")).toBe("lib/b.js");
    expect(r.resolve("lib/a.js", "./b.js")).toBe("lib/b.js");
  });

  it.each([
    ["apps/web/src/main.tsx", "react"],
    ["apps/web/src/main.tsx", "node:fs"],
    ["apps/web/src/main.tsx", "./missing"],
    ["apps/web/src/main.tsx", "../../../../outside"],
  ])("%s imports %s → unresolved", (from, spec) => {
    expect(resolver().r.resolve(from, spec)).toBeNull();
  });

  it("follows a symlink to the file it points to; a link out, to a file it does not know, or in a loop leads nowhere", () => {
    const links = new Map<string, string | null>([
      ["src/alias.ts", linkTargetPath(root, "src/alias.ts", "a/a.ts")],
      ["src/chain.ts", linkTargetPath(root, "src/chain.ts", "./alias.ts")],
      ["src/abs.ts", linkTargetPath(root, "src/abs.ts", `${root}/src/a/a.ts`)],
      ["src/out.ts", linkTargetPath(root, "src/out.ts", "../../elsewhere/x.ts")],
      ["src/notes.ts", linkTargetPath(root, "src/notes.ts", "notes.md")],
      ["src/loop1.ts", "src/loop2.ts"],
      ["src/loop2.ts", "src/loop1.ts"],
      ["src/lib", "src/a"],
    ]);
    const known = ["src/a/a.ts", "src/n.ts", "tsconfig.json"];
    const layout = loadProjectLayout(root, known);
    const r = new ImportResolver(new Set([...known, ...links.keys()]), layout, links);
    expect(links.get("src/out.ts")).toBeNull();
    expect(r.resolve("src/n.ts", "./alias")).toBe("src/a/a.ts");
    expect(r.resolve("src/n.ts", "./alias.js")).toBe("src/a/a.ts");
    expect(r.resolve("src/n.ts", "./chain")).toBe("src/a/a.ts");
    expect(r.resolve("src/n.ts", "./abs")).toBe("src/a/a.ts");
    expect(r.resolve("src/n.ts", "./out")).toBeNull();
    expect(r.resolve("src/n.ts", "./notes")).toBeNull();
    expect(r.resolve("src/n.ts", "./loop1")).toBeNull();
    expect(r.resolve("src/n.ts", "@/alias")).toBeNull();
  });

  it("an import under a symlinked folder lands on the file's real path; a folder link out of the project or in a loop leads nowhere", () => {
    const links = new Map<string, string | null>([
      ["src/lib", linkTargetPath(root, "src/lib", "a")],
      ["src/deep/shared", linkTargetPath(root, "src/deep/shared", "../lib")],
      ["src/outer", linkTargetPath(root, "src/outer", "../../elsewhere")],
      ["src/ring1", "src/ring2"],
      ["src/ring2", "src/ring1"],
    ]);
    const known = ["src/a/a.ts", "src/a/index.ts", "src/a/alias-target.ts", "src/n.ts", "src/deep/d.ts", "tsconfig.json"];
    const r = new ImportResolver(new Set([...known, ...links.keys()]), loadProjectLayout(root, known), links);
    expect(r.resolve("src/n.ts", "./lib/a")).toBe("src/a/a.ts");
    expect(r.resolve("src/n.ts", "./lib/a.js")).toBe("src/a/a.ts");
    expect(r.resolve("src/n.ts", "./lib")).toBe("src/a/index.ts");
    // A link to a link to a folder.
    expect(r.resolve("src/deep/d.ts", "./shared/alias-target")).toBe("src/a/alias-target.ts");
    expect(r.resolve("src/n.ts", "./lib/missing")).toBeNull();
    expect(r.resolve("src/n.ts", "./outer/x")).toBeNull();
    expect(r.resolve("src/n.ts", "./ring1/x")).toBeNull();
  });

  it("tells the workers which bare specifiers are internal", () => {
    const m = internalSpecifierMatchers(resolver().layout);
    expect(m.exact).toEqual(expect.arrayContaining(["@acme/core", "@acme/ui", "@money"]));
    expect(m.prefixes).toEqual(expect.arrayContaining(["@acme/core/", "@core/", "~/"]));
  });
});
