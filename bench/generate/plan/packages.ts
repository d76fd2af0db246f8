// packages/<name>/src: domains (folders with a barrel), modules, tests, and the imports between them.

import { PACKAGE_TEMPLATES, externalImportsFor, planPackageExports } from "../code/package-module.js";
import { planComponentExports, planHookExports, type ComponentVariant } from "../code/react.js";
import { NOUNS, QUALIFIERS, kebab, pascal, type NameRegistry } from "../names.js";
import type { Domain, ImportSpec, ImportedName, SourceModule, Workspace } from "../model.js";
import type { Rng } from "../prng.js";
import { dedupeExternal, importDynamic, importModule, importPublic, importWorkspace, specifierTo, uniquePath } from "./link.js";

export interface PlanContext {
  seed: number;
  rng: Rng;
  names: NameRegistry;
}

/** Module size budget: most files 20–300 lines, a long tail. */
export function moduleUnits(rng: Rng): number {
  return rng.skewedInt(5.5, 0.75, 1, 50);
}

const COMPONENT_VARIANTS: readonly (readonly [ComponentVariant, number])[] = [
  ["function", 5],
  ["arrow", 2],
  ["forwardRef", 1],
  ["generic", 1],
  ["class", 0.5],
  ["memo", 1],
];

function templatesFor(short: string): readonly (readonly [string, number])[] {
  if (short === "ui") return [["component", 7], ["hook", 2], ["utils", 1]];
  const bias: Record<string, string> = { validation: "model", events: "events", http: "service", db: "repository", config: "constants", auth: "service" };
  const favourite = bias[short];
  return PACKAGE_TEMPLATES.map(([t, w]) => [t, t === favourite ? w * 3 : w] as const);
}

/** Adds a module's barrel line(s) to its domain and records the names the barrel makes public. */
function addToBarrel(ctx: PlanContext, pkg: Workspace, domain: Domain, module: SourceModule): void {
  const { rng } = ctx;
  const from = specifierTo(`${domain.dir}/index.ts`, module.path, pkg.importStyle);
  const defaults = module.exports.filter((e) => e.isDefault);
  const named = module.exports.filter((e) => !e.isDefault);
  const style = rng.weighted<string>([["star", 65], ["list", 20], ["rename", 10], ["private", 5]]);
  if (style === "private") return;
  for (const d of defaults) {
    domain.barrelLines.push(`export { default as ${d.name} } from ${JSON.stringify(from)};`);
    domain.publicSymbols.push({ name: d.name, kind: d.kind });
  }
  if (named.length === 0) return;
  if (style === "star") {
    domain.barrelLines.push(`export * from ${JSON.stringify(from)};`);
    for (const e of named) domain.publicSymbols.push({ name: e.name, kind: e.kind });
    return;
  }
  const values = named.filter((e) => e.kind !== "interface" && e.kind !== "type");
  const types = named.filter((e) => e.kind === "interface" || e.kind === "type");
  const parts = values.map((e) => {
    if (style === "rename" && e === values[0]) {
      const alias = ctx.names.claim(/^[A-Z]/.test(e.name) ? `Legacy${e.name}` : `legacy${pascal([e.name])}`);
      domain.publicSymbols.push({ name: alias, kind: e.kind });
      return `${e.name} as ${alias}`;
    }
    domain.publicSymbols.push({ name: e.name, kind: e.kind });
    return e.name;
  });
  if (parts.length > 0) domain.barrelLines.push(`export { ${parts.join(", ")} } from ${JSON.stringify(from)};`);
  if (types.length > 0) {
    domain.barrelLines.push(`export type { ${types.map((t) => t.name).join(", ")} } from ${JSON.stringify(from)};`);
    for (const t of types) domain.publicSymbols.push({ name: t.name, kind: t.kind });
  }
}

function linkModule(ctx: PlanContext, pkg: Workspace, domain: Domain, module: SourceModule, earlier: readonly SourceModule[]): void {
  const { rng } = ctx;
  const taken = new Set(module.exports.map((e) => e.name));
  const specs: ImportSpec[] = [];
  const isUi = module.template === "component" || module.template === "hook";
  if (module.template === "component") {
    const hooks: ImportedName[] = ["useCallback", "useEffect", "useMemo", "useState"].map((name) => ({ name, kind: "function" }));
    specs.push({ from: "react", defaultName: "React", named: [...hooks, { name: "ReactNode", kind: "type" }] });
  } else if (module.template === "hook") {
    specs.push({ from: "react", named: ["useEffect", "useRef", "useState"].map((name) => ({ name, kind: "function" as const })) });
  }
  specs.push(...externalImportsFor(module.exports, rng));
  const external = dedupeExternal(specs, taken);

  const local: ImportSpec[] = [];
  const sameDomain = earlier.filter((m) => m.path.startsWith(`${domain.dir}/`) && (isUi || !m.path.endsWith(".tsx")));
  for (const target of rng.sample(sameDomain, rng.int(0, 2))) {
    const spec = importModule(rng, module.path, target, pkg.importStyle, taken);
    if (spec) local.push(spec);
  }
  const otherDomains = pkg.domains.filter((d) => d !== domain && d.publicSymbols.length > 0);
  if (otherDomains.length > 0 && rng.chance(0.45)) {
    const other = rng.pick(otherDomains);
    const spec = importPublic(rng, specifierTo(module.path, other.dir, pkg.importStyle, true), other.publicSymbols, taken);
    if (spec) local.push(spec);
  }
  for (const dep of rng.sample(pkg.deps, rng.int(0, 2))) {
    const spec = importWorkspace(rng, module.path, dep, taken, pkg.importStyle);
    if (spec) local.push(spec);
  }
  if (!isUi && earlier.length > 0 && rng.chance(0.08)) {
    const spec = importDynamic(module.path, rng.pick(earlier), pkg.importStyle);
    if (spec && !taken.has(spec.named[0]?.name ?? "")) local.push(spec);
  }
  module.imports = [...external, ...local];
}

function planModule(ctx: PlanContext, pkg: Workspace, domain: Domain, paths: Set<string>): SourceModule {
  const { rng } = ctx;
  const template = rng.weighted(templatesFor(pkg.short));
  const words = rng.chance(0.5) ? [domain.name.split("-")[0] as string, rng.pick(NOUNS)] : [rng.pick(QUALIFIERS), rng.pick(NOUNS)];
  const sub = rng.chance(0.15) ? `${rng.pick(["internal", "helpers", "adapters", "mappers"])}/` : "";
  const units = moduleUnits(rng);
  if (template === "component") {
    const variant = rng.weighted(COMPONENT_VARIANTS);
    const path = uniquePath(paths, `${domain.dir}/${sub}${pascal(words)}.tsx`);
    return { path, template, words, units, exports: planComponentExports(words, variant, ctx.names), imports: [] };
  }
  if (template === "hook") {
    const path = uniquePath(paths, `${domain.dir}/${sub}use-${kebab(words)}.ts`);
    return { path, template, words, units, exports: planHookExports(words, ctx.names), imports: [] };
  }
  const suffix = template === "service" || template === "repository" || template === "errors" || template === "events" ? `.${template === "events" ? "events" : template}` : "";
  const path = uniquePath(paths, `${domain.dir}/${sub}${kebab(words)}${suffix}.ts`);
  return { path, template, words, units, exports: planPackageExports(template, words, units, ctx.names, rng), imports: [] };
}

function planTest(ctx: PlanContext, pkg: Workspace, subject: SourceModule, paths: Set<string>): SourceModule | undefined {
  const { rng } = ctx;
  const values = subject.exports.filter((e) => e.kind !== "interface" && e.kind !== "type" && e.kind !== "abstractClass" && e.kind !== "namespace");
  if (values.length === 0) return undefined;
  const tsx = subject.path.endsWith(".tsx");
  const path = uniquePath(paths, subject.path.replace(/\.(tsx|ts)$/, tsx ? ".test.tsx" : ".test.ts"));
  const from = specifierTo(path, subject.path, pkg.importStyle);
  const defaults = values.filter((e) => e.isDefault);
  const subjectSpec: ImportSpec = { from, named: values.filter((e) => !e.isDefault).map((e) => ({ name: e.name, kind: e.kind })) };
  if (defaults[0]) subjectSpec.defaultName = defaults[0].name;
  const imports: ImportSpec[] = [{ from: "vitest", named: ["beforeEach", "describe", "expect", "it", "vi"].map((name) => ({ name, kind: "function" as const })) }];
  if (tsx) imports.push({ from: "@testing-library/react", named: [{ name: "render", kind: "function" }, { name: "screen", kind: "const" }] });
  imports.push(subjectSpec);
  return { path, template: "test", words: subject.words, units: rng.skewedInt(3, 0.5, 1, 12), exports: [], imports, subject };
}

/** Fills `pkg.domains` with exactly `count` files (barrels, modules, tests) under `pkg.dir/src`. */
export function planPackageSources(ctx: PlanContext, pkg: Workspace, count: number): SourceModule[] {
  const { rng } = ctx;
  const paths = new Set<string>([`${pkg.dir}/src/index.ts`]);
  const all: SourceModule[] = [];
  const usedDomains = new Set<string>();
  let remaining = count;
  while (remaining > 0) {
    let domain = pkg.domains[pkg.domains.length - 1];
    if (!domain || remaining >= 3) {
      let name = rng.pick(NOUNS) as string;
      while (usedDomains.has(name) || name === "generated" || name === "legacy") name = `${rng.pick(NOUNS)}-${rng.pick(NOUNS)}`;
      usedDomains.add(name);
      domain = { name, dir: `${pkg.dir}/src/${name}`, modules: [], tests: [], barrelLines: [], publicSymbols: [] };
      pkg.domains.push(domain);
      paths.add(`${domain.dir}/index.ts`);
      remaining--; // the barrel
    }
    const size = rng.int(3, 12);
    for (let i = 0; i < size && remaining > 0; i++) {
      const module = planModule(ctx, pkg, domain, paths);
      linkModule(ctx, pkg, domain, module, all);
      addToBarrel(ctx, pkg, domain, module);
      domain.modules.push(module);
      all.push(module);
      remaining--;
      if (remaining > 0 && rng.chance(0.3)) {
        const test = planTest(ctx, pkg, module, paths);
        if (test) {
          domain.tests.push(test);
          remaining--;
        }
      }
    }
  }
  return all;
}

/** The package root index: re-exports every domain; one may be a namespace re-export. */
export function finishPackageIndex(ctx: PlanContext, pkg: Workspace): void {
  const { rng } = ctx;
  const indexPath = `${pkg.dir}/src/index.ts`;
  let namespaced = false;
  for (const domain of pkg.domains) {
    if (domain.publicSymbols.length === 0) continue;
    const from = JSON.stringify(specifierTo(indexPath, domain.dir, pkg.importStyle, true));
    if (!namespaced && pkg.domains.length > 2 && rng.chance(0.15)) {
      namespaced = true;
      const ns = ctx.names.claim(`${domain.name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}Api`);
      pkg.rootIndexLines.push(`export * as ${ns} from ${from};`);
      pkg.publicSymbols.push({ name: ns, kind: "namespace" });
    } else {
      pkg.rootIndexLines.push(`export * from ${from};`);
      pkg.publicSymbols.push(...domain.publicSymbols);
    }
  }
  if (pkg.rootIndexLines.length === 0) pkg.rootIndexLines.push("export {};");
}
