// Files every generated repo has regardless of size: root configs, per-workspace configs, the big file,
// the generated large files, and the deliberate edge files.

import { bigTable, largeGenerated, type LargeKind } from "../files/big-files.js";
import * as config from "../files/config-files.js";
import { LOCALES, ciWorkflow, dependabot, dockerCompose, localeJson, rootReadme, yamlFile } from "../files/data-files.js";
import { cp1251Cjs, cp1251Module, ico, latin1Json, latin1Module, nulTs, pdf, png, woff } from "../files/edge-files.js";
import type { PlannedSymlink, Workspace } from "../model.js";
import { Rng } from "../prng.js";
import type { FileSink } from "./workspaces.js";

export const BIG_FILE_PATH = "packages/core/src/generated/big-table.ts";
/** The package holding the nested .gitignore and its ignored generated-cache/ folder. */
export const NESTED_IGNORE_DIR = "packages/http";

export function addRootFiles(sink: FileSink, all: readonly Workspace[]): void {
  sink.text("package.json", () => config.rootPackageJson(all));
  sink.text("tsconfig.base.json", () => config.tsconfigBase(all));
  sink.text("tsconfig.json", () => config.rootTsconfig(all));
  sink.text(".gitignore", config.rootGitignore);
  sink.text("README.md", () => rootReadme(all));
  sink.text(".eslintrc.json", () => config.ESLINTRC);
  sink.text(".prettierrc", () => config.PRETTIERRC);
  sink.text(".editorconfig", () => config.EDITORCONFIG);
  sink.text(".nvmrc", () => "20\n");
  sink.text(".env.example", () => "DATABASE_URL=postgres://acme:acme@localhost:5432/acme\nREDIS_URL=redis://localhost:6379\n");
  sink.text(".github/workflows/ci.yml", ciWorkflow);
  sink.text(".github/dependabot.yml", dependabot);
  sink.text("docker-compose.yml", dockerCompose);
  sink.text(".vscode/settings.json", () => config.VSCODE_SETTINGS);
}

export function addWorkspaceFiles(sink: FileSink, all: readonly Workspace[]): void {
  all.forEach((w, index) => {
    sink.text(`${w.dir}/package.json`, () => config.workspacePackageJson(w, index));
    sink.text(`${w.dir}/tsconfig.json`, () => config.workspaceTsconfig(w, all));
    sink.text(`${w.dir}/README.md`, () => `# ${w.name}\n\n${w.kind === "app" ? "Application" : "Library"} of the Acme platform.\n\n## Usage\n\n\`\`\`ts\nimport * as lib from "${w.name}";\n\`\`\`\n`);
    if (w.kind === "package") sink.text(`${w.dir}/src/index.ts`, () => `${w.rootIndexLines.join("\n")}\n`);
  });
}

export function addWebFixed(sink: FileSink, web: Workspace, seed: number): void {
  sink.text(`${web.dir}/index.html`, () => '<!doctype html>\n<html lang="en">\n  <head><meta charset="UTF-8" /><title>Acme</title></head>\n  <body>\n    <div id="root"></div>\n    <script type="module" src="/src/main.tsx"></script>\n  </body>\n</html>\n');
  sink.text(`${web.dir}/vite.config.ts`, () => 'import { defineConfig } from "vite";\nimport react from "@vitejs/plugin-react";\nimport { fileURLToPath } from "node:url";\n\nexport default defineConfig({\n  plugins: [react()],\n  resolve: { alias: { "~": fileURLToPath(new URL("./src", import.meta.url)) } },\n  server: { port: 5173 },\n});\n');
  sink.text(`${web.dir}/src/main.tsx`, () => 'import React from "react";\nimport { createRoot } from "react-dom/client";\n\nimport App from "./App";\n\nconst container = document.getElementById("root");\nif (!container) throw new Error("#root is missing");\n\ncreateRoot(container).render(\n  <React.StrictMode>\n    <App />\n  </React.StrictMode>,\n);\n');
  sink.text(`${web.dir}/src/App.tsx`, () => 'import { Suspense, lazy } from "react";\n\nconst Dashboard = lazy(() => import("./pages/dashboard/index"));\n\nexport default function App() {\n  return (\n    <Suspense fallback={<p>Загрузка…</p>}>\n      <Dashboard title="Acme" />\n    </Suspense>\n  );\n}\n');
  sink.text(`${web.dir}/src/pages/dashboard/index.tsx`, () => 'export default function Dashboard({ title }: { title: string }) {\n  return <main aria-label={title}>{title}</main>;\n}\n');
  sink.text(`${web.dir}/src/env.d.ts`, () => '/// <reference types="vite/client" />\n\ndeclare module "*.module.css" {\n  const classes: Readonly<Record<string, string>>;\n  export default classes;\n}\n\ninterface ImportMetaEnv {\n  readonly VITE_API_URL: string;\n}\n');
  for (const locale of LOCALES) sink.text(`${web.dir}/src/locales/${locale}.json`, () => localeJson(`${web.dir}/src/locales/${locale}.json`, locale, seed, 6));
  sink.text(`${web.dir}/Dockerfile`, () => "FROM node:20-alpine\nWORKDIR /app\nCOPY . .\nRUN npm ci && npm run build -w @acme/web\nCMD [\"npx\", \"vite\", \"preview\"]\n");
  sink.add({ path: `${web.dir}/public/logo.png`, category: "binary", render: () => png(seed, "logo", 24) });
  sink.add({ path: `${web.dir}/public/favicon.ico`, category: "binary", render: () => ico(seed, "favicon") });
  sink.add({ path: `${web.dir}/public/fonts/inter.woff`, category: "binary", render: () => woff(seed, "inter") });
  sink.text(`${web.dir}/public/vendor/chart.min.js`, () => `/*! chart v4.4.1 */!function(t,e){"object"==typeof exports?module.exports=e():t.Chart=e()}(this,function(){return{}});\n`, { ignoredBy: "config-ignore" });
}

export function addApiFixed(sink: FileSink, api: Workspace, seed: number): void {
  sink.text(`${api.dir}/Dockerfile`, () => "FROM node:20-alpine\nWORKDIR /app\nCOPY . .\nRUN npm ci && npm run build -w @acme/api\nCMD [\"node\", \"apps/api/dist/main.js\"]\n");
  sink.text(`${api.dir}/config/default.yaml`, () => yamlFile(`${api.dir}/config/default.yaml`, seed, 6));
}

/** The big table, 2–6 codegen outputs, non-UTF-8 and binary files, ignored files, an empty file. */
export function addEdgeFiles(sink: FileSink, seed: number, files: number): void {
  const rng = new Rng(seed ^ 0x5eed);
  sink.text(BIG_FILE_PATH, () => bigTable(BIG_FILE_PATH, seed), { big: true });
  const large: [LargeKind, string][] = [
    ["api-types", "packages/http/src/generated/api-types.ts"],
    ["icons", "apps/web/src/generated/icons.tsx"],
    ["graphql", "packages/core/src/generated/graphql.ts"],
    ["routes", "apps/api/src/generated/routes.ts"],
    ["graphql", "packages/validation/src/generated/schema-types.ts"],
    ["api-types", "packages/events/src/generated/event-types.ts"],
  ];
  for (const [kind, path] of large.slice(0, Math.min(large.length, 2 + Math.floor(files / 4000)))) {
    const lines = rng.int(2000, 8000);
    sink.text(path, () => largeGenerated(kind, path, seed, lines), { large: true });
  }

  sink.add({ path: "packages/utils/src/legacy/cp1251-messages.ts", category: "nonUtf8", render: cp1251Module });
  sink.add({ path: "packages/logger/src/legacy/latin1-banner.ts", category: "nonUtf8", render: latin1Module });
  sink.add({ path: "apps/cli/src/legacy/cp1251-help.cjs", category: "nonUtf8", render: cp1251Cjs });
  sink.add({ path: "packages/config/fixtures/latin1-settings.json", category: "nonUtf8", render: latin1Json });
  sink.add({ path: "packages/utils/src/legacy/blob-dump.ts", category: "binary", render: () => nulTs(seed, "blob-dump") });
  sink.add({ path: "docs/architecture.pdf", category: "binary", render: () => pdf(seed, "architecture") });
  sink.text("packages/utils/src/legacy/placeholder.ts", () => "", { quirk: "empty" });

  sink.text(`${NESTED_IGNORE_DIR}/.gitignore`, config.nestedGitignore);
  sink.text(`${NESTED_IGNORE_DIR}/generated-cache/.gitkeep`, () => "");
  sink.text(`${NESTED_IGNORE_DIR}/generated-cache/client-0.ts`, () => "// cached codegen output\nexport const CLIENT_VERSION = 0;\n", { ignoredBy: "nested-gitignore" });
  sink.text(".env", () => "DATABASE_URL=postgres://acme:secret@localhost:5432/acme\n", { ignoredBy: "gitignore" });
  sink.text("npm-debug.log", () => "0 info it worked if it ends with ok\n1 verbose cli [ 'node', 'npm', 'ci' ]\n", { ignoredBy: "gitignore" });
  sink.text("coverage/lcov.info", () => "TN:\nSF:packages/core/src/index.ts\nend_of_record\n", { ignoredBy: "gitignore" });
}

export function planSymlinks(cli: Workspace): PlannedSymlink[] {
  return [
    { path: "apps/web/src/shared-types.ts", target: "../../../packages/core/src/index.ts", kind: "file" },
    { path: "apps/api/src/shared", target: "../../../packages/utils/src", kind: "directory" },
    { path: "packages/core/src/self", target: ".", kind: "loop" },
    { path: `${cli.dir}/src/missing.js`, target: "./does-not-exist.js", kind: "dangling" },
  ];
}
