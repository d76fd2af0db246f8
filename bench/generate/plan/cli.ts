// apps/cli: plain JavaScript. ESM commands and libs (explicit .js specifiers), CommonJS legacy files
// (require / module.exports) and .mjs scripts with top-level await.

import { planJsExports, type JsTemplate } from "../code/js-module.js";
import { NOUNS, QUALIFIERS, kebab } from "../names.js";
import type { ImportSpec, SourceModule, Workspace } from "../model.js";
import { importDynamic, importModule, specifierTo, uniquePath } from "./link.js";
import { moduleUnits, type PlanContext } from "./packages.js";

export interface CliPlan {
  modules: SourceModule[];
  commands: SourceModule[];
}

const FOLDERS: Record<JsTemplate, string> = { "js-command": "src/commands", "js-lib": "src/lib", cjs: "src/legacy", "mjs-script": "scripts" };
const EXTENSIONS: Record<JsTemplate, string> = { "js-command": "js", "js-lib": "js", cjs: "cjs", "mjs-script": "mjs" };

export function planCli(ctx: PlanContext, cli: Workspace, count: number): CliPlan {
  const { rng, names } = ctx;
  const plan: CliPlan = { modules: [], commands: [] };
  const paths = new Set<string>();
  const libs: SourceModule[] = [];
  const legacy: SourceModule[] = [];
  for (let i = 0; i < count; i++) {
    const template = rng.weighted<JsTemplate>([["js-command", 35], ["js-lib", 35], ["cjs", 20], ["mjs-script", 10]]);
    const words = [rng.pick(rng.chance(0.4) ? QUALIFIERS : NOUNS), rng.pick(NOUNS)];
    const units = moduleUnits(rng);
    const path = uniquePath(paths, `${cli.dir}/${FOLDERS[template]}/${kebab(words)}.${EXTENSIONS[template]}`);
    const module: SourceModule = { path, template, words, units, exports: planJsExports(template, words, units, names, rng), imports: [] };
    const taken = new Set(module.exports.map((e) => e.name));
    const imports: ImportSpec[] = [];
    const builtin = (from: string, spec: Omit<ImportSpec, "from">) => {
      const bound = [...(spec.defaultName ? [spec.defaultName] : []), ...spec.named.map((n) => n.name)];
      if (bound.some((b) => taken.has(b))) return;
      bound.forEach((b) => taken.add(b));
      imports.push({ from, ...spec });
    };
    if (template === "cjs") {
      builtin(rng.chance(0.5) ? "fs" : "node:fs", { named: [], defaultName: "fs" });
      builtin("path", { named: [], defaultName: "path" });
      const sibling = legacy.length > 0 && rng.chance(0.6) ? rng.pick(legacy) : undefined;
      if (sibling) {
        const spec = importModule(rng, path, sibling, "nodenext", taken);
        if (spec) imports.push({ ...spec, from: spec.from.replace(/\.js$/, ".cjs"), typeOnly: false });
      }
      legacy.push(module);
    } else {
      if (template === "js-command") builtin("node:util", { named: [{ name: "parseArgs", kind: "function" }] });
      if (rng.chance(0.6)) builtin("node:fs/promises", { named: [{ name: "readFile", kind: "function" }, { name: "writeFile", kind: "function" }] });
      if (rng.chance(0.5)) builtin("node:path", { named: [], defaultName: "path" });
      for (const lib of rng.sample(libs, rng.int(0, 2))) {
        const spec = importModule(rng, path, lib, "nodenext", taken);
        if (spec) imports.push(spec);
      }
      if (legacy.length > 0 && rng.chance(0.15)) {
        const target = rng.pick(legacy);
        const name = target.exports[0];
        if (name && !taken.has(name.name)) {
          taken.add(name.name);
          // Node's CJS interop: named imports from module.exports = { … } object literals work.
          imports.push({ from: specifierTo(path, target.path, "bundler") + ".cjs", named: [{ name: name.name, kind: name.kind }] });
        }
      }
      if ((template === "js-command" || template === "mjs-script") && libs.length > 0 && rng.chance(0.3)) {
        const spec = importDynamic(path, rng.pick(libs), "nodenext");
        if (spec && !taken.has(spec.named[0]?.name ?? "")) imports.push(spec);
      }
      if (template === "js-lib") libs.push(module);
      if (template === "js-command") plan.commands.push(module);
    }
    module.imports = imports;
    plan.modules.push(module);
  }
  return plan;
}

export function renderCliBin(): string {
  return `#!/usr/bin/env node
import { main } from "../src/index.js";

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
`;
}

/** The dispatcher: every command is loaded lazily with a dynamic import. */
export function renderCliIndex(commands: readonly SourceModule[]): string {
  const entries = commands.map((c) => {
    const file = c.path.split("/").pop() as string;
    return `  ${JSON.stringify(file.replace(/\.js$/, ""))}: () => import(${JSON.stringify(`./commands/${file}`)}),`;
  });
  return [
    "/** @type {Record<string, () => Promise<{ default: { run(argv: string[]): Promise<number> } }>>} */",
    "const commands = {",
    ...entries,
    "};",
    "",
    "/** @param {string[]} argv */",
    "export async function main(argv) {",
    "  const [name, ...rest] = argv;",
    "  const load = name ? commands[name] : undefined;",
    "  if (!load) {",
    '    console.log(`usage: acme <${Object.keys(commands).join("|")}>`);',
    "    return name ? 1 : 0;",
    "  }",
    "  const command = await load();",
    "  return command.default.run(rest);",
    "}",
    "",
  ].join("\n");
}
