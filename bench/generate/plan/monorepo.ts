// The whole plan: fixed files first, then the remaining --files budget split across buckets so the
// counted total is exact.

import { renderJsModule } from "../code/js-module.js";
import { renderNestCommon, NEST_COMMON_FILES } from "../code/nest-common.js";
import { renderNestModule } from "../code/nest.js";
import { renderPackageModule } from "../code/package-module.js";
import { renderComponentModule, renderCssModule, renderHookModule } from "../code/react.js";
import { renderTestFile } from "../code/test-file.js";
import { distFiles, nodeModulesFiles } from "../files/edge-files.js";
import type { PlannedFile, PlannedSymlink, SourceModule, Workspace } from "../model.js";
import { NameRegistry } from "../names.js";
import { Rng } from "../prng.js";
import { planApi } from "./api.js";
import { planCli, renderCliBin, renderCliIndex } from "./cli.js";
import { addAssetsBucket, addDocsBucket, addIgnoredBucket, addJsonBucket, addYamlBucket } from "./extras.js";
import { addApiFixed, addEdgeFiles, addRootFiles, addWebFixed, addWorkspaceFiles, planSymlinks } from "./fixed.js";
import { finishPackageIndex, planPackageSources, type PlanContext } from "./packages.js";
import { planWeb } from "./web.js";
import { FileSink, createWorkspaces, packageCountFor } from "./workspaces.js";

export interface RepoPlan {
  /** Every file to write, node_modules/ and dist/ included (flagged `excludedArea`). */
  files: PlannedFile[];
  symlinks: PlannedSymlink[];
  workspaces: Workspace[];
}

/** Below this many elastic files the buckets cannot all get a share. */
const MIN_ELASTIC_FILES = 60;

const BUCKET_WEIGHTS = {
  packages: 0.6,
  web: 0.14,
  api: 0.1,
  cli: 0.04,
  json: 0.05,
  yaml: 0.012,
  docs: 0.015,
  assets: 0.006,
  ignored: 0.008,
} as const;

/** Largest-remainder split of `total` by `weights`: the parts always sum to `total`. */
export function apportion<K extends string>(total: number, weights: Readonly<Record<K, number>>): Record<K, number> {
  const keys = Object.keys(weights) as K[];
  const sum = keys.reduce((s, k) => s + weights[k], 0);
  const exact = keys.map((k) => (total * weights[k]) / sum);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((s, p) => s + p, 0);
  const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left-- <= 0) break;
    parts[i] = (parts[i] as number) + 1;
  }
  return Object.fromEntries(keys.map((k, i) => [k, parts[i]])) as Record<K, number>;
}

function renderSource(module: SourceModule, seed: number): string {
  switch (module.template) {
    case "component":
      return renderComponentModule(module, seed);
    case "hook":
      return renderHookModule(module, seed);
    case "test":
      return renderTestFile(module, seed);
    case "js-command":
    case "js-lib":
    case "cjs":
    case "mjs-script":
      return renderJsModule(module, seed);
    default:
      return module.template.startsWith("nest-") ? renderNestModule(module, seed) : renderPackageModule(module, seed);
  }
}

export function planMonorepo(options: { files: number; seed: number }): RepoPlan {
  const { files, seed } = options;
  const rng = new Rng(seed);
  const ctx: PlanContext = { seed, rng, names: new NameRegistry() };
  const { packages, web, api, cli } = createWorkspaces(rng, packageCountFor(files));
  const workspaces = [...packages, web, api, cli];
  const sink = new FileSink();

  addRootFiles(sink, workspaces);
  addWorkspaceFiles(sink, workspaces);
  addWebFixed(sink, web, seed);
  addApiFixed(sink, api, seed);
  for (const file of NEST_COMMON_FILES) {
    sink.text(`${api.dir}/src/${file}`, () => renderNestCommon(file, apiPlan.featureModules));
  }
  sink.text(`${cli.dir}/bin/acme.js`, renderCliBin);
  sink.text(`${cli.dir}/src/index.js`, () => renderCliIndex(cliPlan.commands));
  addEdgeFiles(sink, seed, files);

  const elastic = files - sink.counted;
  if (elastic < MIN_ELASTIC_FILES) {
    throw new Error(`--files ${files} is too small: the fixed layout alone has ${sink.counted} files; use at least ${sink.counted + MIN_ELASTIC_FILES}`);
  }
  const buckets = apportion(elastic, BUCKET_WEIGHTS);

  // Package sizes: core and utils are the big ones; the rest vary by seed.
  const weights = Object.fromEntries(packages.map((p) => [p.short, (p.short === "core" ? 1.6 : p.short === "utils" ? 1.3 : 1) * (0.6 + rng.next())]));
  const perPackage = apportion(buckets.packages, weights);
  const sources: SourceModule[] = [];
  for (const pkg of packages) {
    sources.push(...planPackageSources(ctx, pkg, perPackage[pkg.short] ?? 0));
    finishPackageIndex(ctx, pkg);
    for (const domain of pkg.domains) {
      sources.push(...domain.tests);
      sink.text(`${domain.dir}/index.ts`, () => `${domain.barrelLines.length > 0 ? domain.barrelLines.join("\n") : "export {};"}\n`);
    }
  }
  const webPlan = planWeb(ctx, web, buckets.web, [`${web.dir}/src/pages/dashboard/index.tsx`]);
  for (const group of webPlan.groups) sink.text(`${group.dir}/index.ts`, () => `${group.barrelLines.join("\n")}\n`);
  for (const css of webPlan.cssModules) sink.text(css, () => renderCssModule(css, seed));
  const apiPlan = planApi(ctx, api, buckets.api);
  const cliPlan = planCli(ctx, cli, buckets.cli);
  sources.push(...webPlan.modules, ...apiPlan.modules, ...cliPlan.modules);

  // A few files with Windows line ends and one with a BOM: real repos have them.
  const quirkRng = new Rng(seed ^ 0xc0ffee);
  const crlfEvery = Math.max(40, Math.round(sources.length / 12));
  sources.forEach((module, index) => {
    const quirk = index === 7 ? "bom" : index % crlfEvery === 3 && quirkRng.chance(0.8) ? "crlf" : undefined;
    const render = () => {
      const text = renderSource(module, seed);
      if (quirk === "crlf") return text.replace(/\n/g, "\r\n");
      if (quirk === "bom") return `\uFEFF${text}`;
      return text;
    };
    sink.text(module.path, render, quirk ? { quirk } : {});
  });

  addJsonBucket(sink, rng, seed, packages, web, buckets.json);
  addYamlBucket(sink, rng, seed, packages, api, buckets.yaml);
  addDocsBucket(sink, rng, seed, packages, buckets.docs);
  addAssetsBucket(sink, rng, seed, web, buckets.assets);
  addIgnoredBucket(sink, rng, buckets.ignored);

  if (sink.counted !== files) throw new Error(`generator bug: planned ${sink.counted} files for --files ${files}`);

  for (const file of nodeModulesFiles(seed, Math.max(30, Math.round(files * 0.05)))) {
    sink.text(file.path, () => file.content, { excludedArea: "node_modules" });
  }
  for (const file of distFiles(seed, [...packages.map((p) => p.dir), web.dir], Math.max(2 * packages.length, Math.round(files * 0.02)))) {
    sink.text(file.path, () => file.content, { excludedArea: "dist" });
  }
  return { files: sink.files, symlinks: planSymlinks(cli), workspaces };
}
