// Root and workspace configuration: package.json, tsconfig*, lint/format configs, .gitignore.

import type { Workspace } from "../model.js";
import { MANIFEST_FILE } from "../manifest.js";

export const SCOPE = "@acme";

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

const EXTERNAL_VERSIONS: Record<string, string> = {
  react: "^18.3.1",
  "react-dom": "^18.3.1",
  "prop-types": "^15.8.1",
  zod: "^4.1.0",
  lodash: "^4.17.21",
  "@nestjs/common": "^10.4.1",
  "@nestjs/core": "^10.4.1",
  "@nestjs/config": "^3.2.3",
  "@nestjs/typeorm": "^10.0.2",
  "@nestjs/mapped-types": "^2.0.5",
  "@nestjs/testing": "^10.4.1",
  "class-validator": "^0.14.1",
  typeorm: "^0.3.20",
  rxjs: "^7.8.1",
  "reflect-metadata": "^0.2.2",
  "@testing-library/react": "^16.0.0",
  vitest: "^4.1.0",
};

export function rootPackageJson(workspaces: readonly Workspace[]): string {
  const web = workspaces.find((w) => w.short === "web");
  return json({
    name: "acme-monorepo",
    version: "0.0.0",
    private: true,
    type: "module",
    workspaces: ["packages/*", "apps/*"],
    scripts: {
      build: "tsc -b",
      test: "vitest run",
      lint: "eslint . --ext .ts,.tsx,.js,.cjs",
      format: "prettier --write .",
      ...(web ? { "dev:web": `npm run dev -w ${web.name}` } : {}),
    },
    devDependencies: {
      "@types/node": "^20.14.0",
      eslint: "^8.57.0",
      prettier: "^3.3.3",
      typescript: "^5.9.3",
      vitest: "^4.1.0",
    },
    engines: { node: ">=20" },
    packageManager: "npm@10.8.2",
  });
}

function pathsFor(workspaces: readonly Workspace[], prefix: string): Record<string, string[]> {
  const paths: Record<string, string[]> = {};
  for (const w of workspaces) {
    if (w.kind !== "package") continue;
    paths[w.name] = [`${prefix}${w.dir}/src/index.ts`];
    paths[`${w.name}/*`] = [`${prefix}${w.dir}/src/*`];
  }
  return paths;
}

export function tsconfigBase(workspaces: readonly Workspace[]): string {
  return json({
    compilerOptions: {
      target: "ES2022",
      module: "ESNext",
      moduleResolution: "Bundler",
      lib: ["ES2023"],
      strict: true,
      jsx: "react-jsx",
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      declaration: true,
      composite: true,
      skipLibCheck: true,
      esModuleInterop: true,
      resolveJsonModule: true,
      isolatedModules: true,
      baseUrl: ".",
      paths: pathsFor(workspaces, "./"),
    },
  });
}

export function rootTsconfig(workspaces: readonly Workspace[]): string {
  return json({ files: [], references: workspaces.filter((w) => w.short !== "cli").map((w) => ({ path: w.dir })) });
}

export function workspaceTsconfig(workspace: Workspace, all: readonly Workspace[]): string {
  const compilerOptions: Record<string, unknown> = { outDir: "dist", rootDir: "src" };
  if (workspace.importStyle === "nodenext") Object.assign(compilerOptions, { module: "NodeNext", moduleResolution: "NodeNext" });
  if (workspace.short === "web") {
    Object.assign(compilerOptions, { baseUrl: ".", lib: ["DOM", "DOM.Iterable", "ES2023"], paths: { "~/*": ["./src/*"], ...pathsFor(all, "../../") } });
  }
  if (workspace.short === "api") Object.assign(compilerOptions, { baseUrl: ".", paths: { "@/*": ["./src/*"], ...pathsFor(all, "../../") } });
  if (workspace.short === "cli") Object.assign(compilerOptions, { allowJs: true, checkJs: true, noEmit: true, module: "NodeNext", moduleResolution: "NodeNext" });
  return json({
    extends: "../../tsconfig.base.json",
    compilerOptions,
    include: workspace.short === "cli" ? ["src", "bin", "scripts"] : ["src"],
    exclude: ["dist", "**/*.test.ts", "**/*.test.tsx"],
    references: workspace.deps.map((d) => ({ path: `../../${d.dir}` })),
  });
}

export function workspacePackageJson(workspace: Workspace, index: number): string {
  const dependencies: Record<string, string> = {};
  for (const dep of workspace.deps) dependencies[dep.name] = "*";
  for (const ext of workspace.externals) dependencies[ext] = EXTERNAL_VERSIONS[ext] ?? "^1.0.0";
  const isCli = workspace.short === "cli";
  return json({
    name: workspace.name,
    version: `${1 + (index % 3)}.${index * 3 % 17}.${index % 5}`,
    private: true,
    type: "module",
    ...(workspace.kind === "package"
      ? {
          main: "./dist/index.js",
          types: "./dist/index.d.ts",
          exports: { ".": { types: "./src/index.ts", import: "./dist/index.js" }, "./*": "./src/*" },
        }
      : {}),
    ...(isCli ? { bin: { acme: "./bin/acme.js" } } : {}),
    scripts: {
      build: isCli ? "node scripts/build.mjs" : "tsc -p tsconfig.json",
      test: "vitest run",
      ...(workspace.short === "web" ? { dev: "vite", preview: "vite preview" } : {}),
      ...(workspace.short === "api" ? { start: "node dist/main.js", "start:dev": "nest start --watch" } : {}),
    },
    dependencies,
    devDependencies: { typescript: "^5.9.3", vitest: "^4.1.0" },
  });
}

export function rootGitignore(): string {
  return [
    "# dependencies",
    "node_modules/",
    "",
    "# build output",
    "dist/",
    "*.tsbuildinfo",
    ".turbo/",
    "",
    "# tests",
    "coverage/",
    "",
    "# logs and local env",
    "*.log",
    ".env",
    ".env.local",
    ".DS_Store",
    "",
    "# benchmark manifest (not part of the project)",
    MANIFEST_FILE,
    "",
  ].join("\n");
}

export function nestedGitignore(): string {
  // `dir/*` plus a negation keeps .gitkeep tracked: the ignore matcher must handle the re-include.
  return ["# regenerated by `npm run codegen`", "generated-cache/*", "!generated-cache/.gitkeep", ""].join("\n");
}

export const ESLINTRC = json({
  root: true,
  parser: "@typescript-eslint/parser",
  plugins: ["@typescript-eslint", "react"],
  extends: ["eslint:recommended", "plugin:@typescript-eslint/recommended", "prettier"],
  ignorePatterns: ["dist", "coverage", "**/generated/**"],
  rules: {
    "@typescript-eslint/no-floating-promises": "error",
    "no-console": ["warn", { allow: ["warn", "error"] }],
  },
  overrides: [{ files: ["*.cjs"], env: { node: true }, rules: { "@typescript-eslint/no-require-imports": "off" } }],
});

export const PRETTIERRC = json({ printWidth: 110, singleQuote: false, trailingComma: "all", semi: true });

export const EDITORCONFIG = ["root = true", "", "[*]", "indent_style = space", "indent_size = 2", "end_of_line = lf", "insert_final_newline = true", ""].join("\n");

export const VSCODE_SETTINGS = json({
  "typescript.tsdk": "node_modules/typescript/lib",
  "editor.formatOnSave": true,
  "files.exclude": { "**/dist": true, "**/coverage": true },
});
