// Which packages and apps exist, how they depend on each other, and the file sink that guards paths.

import { SCOPE } from "../files/config-files.js";
import type { FileCategory, PlannedFile, Workspace } from "../model.js";
import type { Rng } from "../prng.js";

/** In dependency order: a package only depends on packages listed before it. */
export const PACKAGE_CATALOG = [
  "utils", "config", "logger", "core", "validation", "events", "http", "ui",
  "db", "auth", "i18n", "cache", "billing", "search", "notifications",
] as const;

export const MIN_PACKAGES = 8;

export function packageCountFor(files: number): number {
  return Math.min(PACKAGE_CATALOG.length, MIN_PACKAGES + Math.floor(files / 2500));
}

function workspace(short: string, kind: "package" | "app", index: number): Workspace {
  return {
    name: `${SCOPE}/${short}`,
    short,
    dir: `${kind === "package" ? "packages" : "apps"}/${short}`,
    kind,
    deps: [],
    // A quarter of the packages use NodeNext-style `.js` specifiers; the rest are extensionless (bundler).
    importStyle: kind === "package" && index % 4 === 2 ? "nodenext" : "bundler",
    domains: [],
    publicSymbols: [],
    rootIndexLines: [],
    externals: [],
  };
}

export function createWorkspaces(rng: Rng, packageCount: number): { packages: Workspace[]; web: Workspace; api: Workspace; cli: Workspace } {
  const packages = PACKAGE_CATALOG.slice(0, packageCount).map((short, i) => workspace(short, "package", i));
  packages.forEach((pkg, i) => {
    if (i === 0) return;
    const deps = new Set<Workspace>([packages[0] as Workspace]);
    const core = packages[3];
    if (core && i > 3 && rng.chance(0.7)) deps.add(core);
    for (const dep of rng.sample(packages.slice(1, i), rng.int(0, 2))) deps.add(dep);
    pkg.deps = [...deps];
    pkg.externals = pkg.short === "ui" ? ["react", "zod", "lodash"] : ["zod", "lodash"];
  });
  (packages[0] as Workspace).externals = ["zod", "lodash"];
  const byShort = (short: string) => packages.find((p) => p.short === short);
  const pickDeps = (fixed: string[]) => {
    const deps = new Set(fixed.map(byShort).filter((p): p is Workspace => p !== undefined));
    for (const extra of rng.sample(packages, 2)) deps.add(extra);
    return [...deps];
  };
  const web = workspace("web", "app", 0);
  web.deps = pickDeps(["ui", "core", "utils"]);
  web.externals = ["react", "react-dom", "prop-types", "zod", "lodash", "@testing-library/react"];
  const api = workspace("api", "app", 1);
  api.deps = pickDeps(["core", "utils", "validation"]);
  api.externals = ["@nestjs/common", "@nestjs/core", "@nestjs/config", "@nestjs/typeorm", "@nestjs/mapped-types", "@nestjs/testing", "typeorm", "class-validator", "rxjs", "reflect-metadata", "zod", "lodash"];
  const cli = workspace("cli", "app", 2);
  cli.importStyle = "nodenext";
  return { packages, web, api, cli };
}

export function categoryOf(path: string): FileCategory {
  if (/\.(ts|mts|cts)$/.test(path)) return "ts";
  if (path.endsWith(".tsx")) return "tsx";
  if (/\.(js|jsx|cjs|mjs)$/.test(path)) return "js";
  if (path.endsWith(".json")) return "json";
  if (/\.ya?ml$/.test(path)) return "yaml";
  return "other";
}

/** Collects planned files; a duplicate path is a generator bug, so it throws. */
export class FileSink {
  readonly files: PlannedFile[] = [];
  readonly #paths = new Set<string>();

  add(file: PlannedFile): PlannedFile {
    if (this.#paths.has(file.path)) throw new Error(`generator planned ${file.path} twice`);
    this.#paths.add(file.path);
    this.files.push(file);
    return file;
  }

  /** A text file whose category follows from its extension. */
  text(path: string, render: () => string, extra: Partial<PlannedFile> = {}): PlannedFile {
    return this.add({ path, category: categoryOf(path), render, ...extra });
  }

  has(path: string): boolean {
    return this.#paths.has(path);
  }

  /** Files that count towards `--files` (outside node_modules/ and dist/). */
  get counted(): number {
    return this.files.filter((f) => !f.excludedArea).length;
  }
}
