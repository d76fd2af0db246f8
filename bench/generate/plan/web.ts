// apps/web: React components in groups (with barrels, CSS modules, tests), hooks, lib modules, pages,
// a few legacy JSX files. Imports use the `~/*` alias, relative paths and workspace packages.

import { externalImportsFor, planPackageExports } from "../code/package-module.js";
import { planComponentExports, planHookExports, type ComponentVariant } from "../code/react.js";
import { NOUNS, QUALIFIERS, kebab, pascal } from "../names.js";
import type { Domain, ImportSpec, SourceModule, Workspace } from "../model.js";
import { dedupeExternal, importPublic, importWorkspace, stripExtension, uniquePath } from "./link.js";
import { moduleUnits, type PlanContext } from "./packages.js";

export interface WebPlan {
  modules: SourceModule[];
  /** Component groups: folders under src/components with an index.ts barrel. */
  groups: Domain[];
  cssModules: string[];
}

const REACT_COMPONENT_IMPORT: ImportSpec = {
  from: "react",
  defaultName: "React",
  named: [...["useCallback", "useEffect", "useMemo", "useState"].map((name) => ({ name, kind: "function" as const })), { name: "ReactNode", kind: "type" }],
};

function alias(path: string, dir: string): string {
  return `~/${stripExtension(path).slice(`${dir}/src/`.length)}`;
}

/** `reserved`: paths already taken by fixed files (e.g. the dashboard page App.tsx loads). */
export function planWeb(ctx: PlanContext, web: Workspace, count: number, reserved: readonly string[]): WebPlan {
  const { rng, names } = ctx;
  const plan: WebPlan = { modules: [], groups: [], cssModules: [] };
  const hooks: SourceModule[] = [];
  const libs: SourceModule[] = [];
  const paths = new Set<string>(reserved);
  const unique = (path: string) => uniquePath(paths, path);
  let group: Domain | undefined;
  let remaining = count;

  const linkUi = (module: SourceModule, sameGroup: readonly SourceModule[]): void => {
    const taken = new Set(module.exports.map((e) => e.name));
    const specs: ImportSpec[] = dedupeExternal([{ ...REACT_COMPONENT_IMPORT, named: [...REACT_COMPONENT_IMPORT.named] }], taken);
    for (const sibling of rng.sample(sameGroup, rng.int(0, 2))) {
      const component = sibling.exports.find((e) => e.kind === "component" && !e.isDefault);
      if (component && !taken.has(component.name)) {
        taken.add(component.name);
        specs.push({ from: `./${sibling.path.split("/").pop()?.replace(/\.tsx$/, "")}`, named: [{ name: component.name, kind: "component" }] });
      }
    }
    const otherGroups = plan.groups.filter((g) => g !== group && g.publicSymbols.some((s) => s.kind === "component"));
    if (otherGroups.length > 0 && rng.chance(0.5)) {
      const other = rng.pick(otherGroups);
      const spec = importPublic(rng, `~/components/${other.name}`, other.publicSymbols.filter((s) => s.kind === "component"), taken);
      if (spec) specs.push(spec);
    }
    if (hooks.length > 0 && rng.chance(0.4)) {
      const hook = rng.pick(hooks);
      const spec = importPublic(rng, alias(hook.path, web.dir), hook.exports.filter((e) => e.kind === "hook"), taken, 1);
      if (spec) specs.push(spec);
    }
    if (libs.length > 0 && rng.chance(0.4)) {
      const lib = rng.pick(libs);
      const spec = importPublic(rng, alias(lib.path, web.dir), lib.exports.filter((e) => !e.isDefault), taken);
      if (spec) specs.push(spec);
    }
    for (const dep of rng.sample(web.deps, rng.int(0, 2))) {
      const spec = importWorkspace(rng, module.path, dep, taken, "bundler");
      if (spec) specs.push(spec);
    }
    module.imports = specs;
  };

  while (remaining > 0) {
    const kind = rng.weighted<string>([["component", 55], ["hook", 12], ["lib", 15], ["page", 12], ["legacy", 3]]);
    const words = [rng.pick(rng.chance(0.5) ? QUALIFIERS : NOUNS), rng.pick(NOUNS)];
    const units = moduleUnits(rng);
    if (kind === "component") {
      if (!group || group.modules.length >= 8) {
        if (remaining < 2) continue;
        const name = unique(`${web.dir}/src/components/${pascal([rng.pick(NOUNS)])}`).split("/").pop() as string;
        group = { name, dir: `${web.dir}/src/components/${name}`, modules: [], tests: [], barrelLines: [], publicSymbols: [] };
        plan.groups.push(group);
        remaining--; // barrel
      }
      const variant = rng.weighted<ComponentVariant>([["function", 5], ["arrow", 2], ["forwardRef", 1], ["generic", 1], ["class", 0.5], ["memo", 1]]);
      const path = unique(`${group.dir}/${pascal(words)}.tsx`);
      const module: SourceModule = { path, template: "component", words, units, exports: planComponentExports(words, variant, names), imports: [] };
      linkUi(module, group.modules);
      const file = `./${path.split("/").pop()?.replace(/\.tsx$/, "")}`;
      group.barrelLines.push(rng.chance(0.6) ? `export * from ${JSON.stringify(file)};` : `export { ${module.exports.map((e) => (e.kind === "interface" ? `type ${e.name}` : e.name)).join(", ")} } from ${JSON.stringify(file)};`);
      group.publicSymbols.push(...module.exports.map((e) => ({ name: e.name, kind: e.kind })));
      group.modules.push(module);
      plan.modules.push(module);
      remaining--;
      if (remaining > 0 && rng.chance(0.35)) {
        const css = path.replace(/\.tsx$/, ".module.css");
        plan.cssModules.push(css);
        module.imports.push({ from: `./${css.split("/").pop()}`, named: [], defaultName: "styles" });
        remaining--;
      }
      if (remaining > 0 && rng.chance(0.25)) {
        const component = module.exports.find((e) => e.kind === "component");
        const test: SourceModule = {
          path: path.replace(/\.tsx$/, ".test.tsx"),
          template: "test",
          words,
          units: rng.int(1, 5),
          exports: [],
          subject: module,
          imports: [
            { from: "vitest", named: ["describe", "expect", "it", "vi", "beforeEach"].map((name) => ({ name, kind: "function" as const })) },
            { from: "@testing-library/react", named: [{ name: "render", kind: "function" }, { name: "screen", kind: "const" }] },
            { from: file, named: component ? [{ name: component.name, kind: "component" }] : [] },
          ],
        };
        group.tests.push(test);
        plan.modules.push(test);
        remaining--;
      }
    } else if (kind === "hook") {
      const module: SourceModule = { path: unique(`${web.dir}/src/hooks/use-${kebab(words)}.ts`), template: "hook", words, units, exports: planHookExports(words, names), imports: [] };
      const taken = new Set(module.exports.map((e) => e.name));
      module.imports = [{ from: "react", named: ["useEffect", "useRef", "useState"].map((name) => ({ name, kind: "function" as const })) }];
      if (libs.length > 0 && rng.chance(0.5)) {
        const lib = rng.pick(libs);
        const spec = importPublic(rng, alias(lib.path, web.dir), lib.exports.filter((e) => e.kind === "function" && !e.isDefault), taken, 1);
        if (spec) module.imports.push(spec);
      }
      hooks.push(module);
      plan.modules.push(module);
      remaining--;
    } else if (kind === "lib") {
      const template = rng.pick(["utils", "model", "service", "constants"]);
      const exports = planPackageExports(template, words, units, names, rng);
      const module: SourceModule = { path: unique(`${web.dir}/src/lib/${kebab(words)}.ts`), template, words, units, exports, imports: [] };
      const taken = new Set(exports.map((e) => e.name));
      module.imports = dedupeExternal(externalImportsFor(exports, rng), taken);
      for (const dep of rng.sample(web.deps, rng.int(0, 1))) {
        const spec = importWorkspace(rng, module.path, dep, taken, "bundler");
        if (spec) module.imports.push(spec);
      }
      libs.push(module);
      plan.modules.push(module);
      remaining--;
    } else {
      const legacy = kind === "legacy";
      const file = legacy ? `${web.dir}/src/legacy/${pascal(words)}.jsx` : `${web.dir}/src/pages/${kebab([rng.pick(NOUNS)])}/${rng.chance(0.5) ? "[id]" : "index"}.tsx`;
      const module: SourceModule = { path: unique(file), template: "component", words, units, exports: planComponentExports(words, legacy ? "legacy" : "page", names), imports: [] };
      if (legacy) {
        module.imports = [
          { from: "react", defaultName: "React", named: ["useCallback", "useEffect", "useMemo", "useState"].map((name) => ({ name, kind: "function" as const })) },
          { from: "prop-types", named: [], defaultName: "PropTypes" },
        ];
      } else linkUi(module, []);
      plan.modules.push(module);
      remaining--;
    }
  }
  return plan;
}
