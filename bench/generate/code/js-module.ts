// apps/cli: plain JavaScript — ESM commands and libs with JSDoc, CommonJS legacy files, .mjs scripts.

import { NOUNS, PROSE, camel, pascal, type NameRegistry } from "../names.js";
import { Rng } from "../prng.js";
import type { ExportedSymbol, ImportSpec, SourceModule } from "../model.js";
import { localName, renderImportBlock } from "./imports.js";
import { comment, expression, newScope, statements, stringLiteral } from "./statements.js";

export type JsTemplate = "js-command" | "js-lib" | "cjs" | "mjs-script";

export function planJsExports(template: JsTemplate, words: string[], units: number, names: NameRegistry, rng: Rng): ExportedSymbol[] {
  const P = pascal(words);
  switch (template) {
    case "js-command":
      return [
        { name: names.claim(`run${P}`), kind: "function", role: "js-run" },
        { name: names.claim(`${camel(words)}Command`), kind: "const", role: "js-command", isDefault: true },
      ];
    case "mjs-script":
      return [];
    default: {
      const out: ExportedSymbol[] = [];
      for (let i = 0; i < Math.max(1, Math.round(units / 2)); i++) out.push({ name: names.claim(camel([rng.pick(["load", "format", "parse", "write", "resolve", "collect"]), ...words])), kind: "function", role: "js-fn" });
      if (rng.chance(0.5)) out.push({ name: names.claim(`${P}${rng.pick(["Cache", "Runner", "Queue", "Reporter"])}`), kind: "class", role: "js-class" });
      return out;
    }
  }
}

function indent(lines: string[], by = "  "): string[] {
  return lines.map((line) => (line === "" ? line : by + line));
}

function requireBlock(specs: readonly ImportSpec[]): string[] {
  return specs.map((spec) => {
    if (spec.defaultName) return `const ${spec.defaultName} = require(${JSON.stringify(spec.from)});`;
    return `const { ${spec.named.map((n) => (n.alias ? `${n.name}: ${n.alias}` : n.name)).join(", ")} } = require(${JSON.stringify(spec.from)});`;
  });
}

function jsFunction(rng: Rng, symbol: ExportedSymbol, calls: string[], exported: boolean, size: number): string[] {
  const arg = rng.pick(NOUNS);
  const isAsync = rng.chance(0.5);
  const scope = newScope(rng, { ts: false, async: isAsync, params: [arg, "options"], calls });
  return [
    "/**",
    ` * ${rng.pick(PROSE)}`,
    ` * @param {string} ${arg}`,
    " * @param {{ verbose?: boolean }} [options]",
    ` * @returns {${isAsync ? "Promise<unknown>" : "unknown"}}`,
    " */",
    `${exported ? "export " : ""}${isAsync ? "async " : ""}function ${symbol.name}(${arg}, options = {}) {`,
    ...indent(statements(scope, rng.skewedInt(Math.max(2, size), 0.5, 1, 12))),
    `  return ${expression(scope)};`,
    "}",
  ];
}

function jsClass(rng: Rng, symbol: ExportedSymbol, exported: boolean, size: number): string[] {
  const out = [`${exported ? "export " : ""}class ${symbol.name} {`, "  #entries = new Map();", `  static defaultLimit = ${rng.int(10, 1000)};`, ""];
  out.push("  get size() {", "    return this.#entries.size;", "  }", "");
  for (let i = 0; i < Math.max(1, size); i++) {
    const scope = newScope(rng, { ts: false, async: false, params: ["key", "value", "this.#entries"], calls: [] });
    out.push(`  ${camel([rng.pick(["put", "take", "drain", "peek", "touch"]), rng.pick(NOUNS), String(i)])}(key, value) {`, ...indent(statements(scope, rng.int(1, 4)), "    "), "    return this;", "  }", "");
  }
  out.push("}");
  return out;
}

export function renderJsModule(module: SourceModule, seed: number): string {
  const rng = Rng.forKey(seed, module.path);
  const cjs = module.path.endsWith(".cjs");
  const calls = module.imports.flatMap((s) => [...s.named.filter((n) => n.kind === "function").map(localName)]);
  const out: string[] = [];
  if (module.template === "js-command" && module.refs?.["shebang"]) out.push("#!/usr/bin/env node");
  if (cjs) out.push('"use strict";', "", ...requireBlock(module.imports.filter((s) => !s.dynamic)), "");
  else {
    if (rng.chance(0.5)) out.push("// @ts-check");
    out.push(...renderImportBlock(module.imports, rng, false), "");
  }

  switch (module.template) {
    case "js-command": {
      const run = module.exports.find((e) => e.role === "js-run");
      const command = module.exports.find((e) => e.role === "js-command");
      if (!run || !command) throw new Error(`command without run/command exports: ${module.path}`);
      const scope = newScope(rng, { ts: false, async: true, params: ["values", "positionals", "argv"], calls });
      const dynamic = module.imports.find((s) => s.dynamic);
      out.push("/** @param {string[]} argv */", `export async function ${run.name}(argv) {`);
      out.push("  const { values, positionals } = parseArgs({", "    args: argv,", '    options: { verbose: { type: "boolean", short: "v" }, out: { type: "string" } },', "    allowPositionals: true,", "  });");
      if (dynamic && dynamic.named[0]) out.push(`  const { ${dynamic.named[0].name} } = await import(${JSON.stringify(dynamic.from)});`, `  ${dynamic.named[0].name}(positionals[0] ?? ".");`);
      out.push(...indent(statements(scope, rng.skewedInt(Math.max(2, module.units), 0.5, 1, 16))));
      out.push(`  if (values.verbose) console.log(${stringLiteral(rng)}, positionals.length);`, "  return 0;", "}", "");
      out.push(`const ${command.name} = {`, `  name: ${JSON.stringify(module.words.join("-"))},`, `  description: ${stringLiteral(rng)},`, `  run: ${run.name},`, "};", "", `export default ${command.name};`);
      break;
    }
    case "mjs-script": {
      // Top-level code: a `return` here would be a syntax error.
      const scope = newScope(rng, { ts: false, async: true, params: ["root", "process.argv"], calls, noExit: true });
      out.push('const root = new URL("..", import.meta.url);', ...statements(scope, Math.max(2, module.units)));
      for (const spec of module.imports.filter((s) => s.dynamic)) {
        const first = spec.named[0];
        if (first) out.push(`const { ${first.name} } = await import(${JSON.stringify(spec.from)});`, `await ${first.name}(root.pathname);`);
      }
      out.push(comment(rng), `console.log(${stringLiteral(rng)});`);
      break;
    }
    default: {
      const exported = !cjs;
      const parts: string[][] = [];
      for (const symbol of module.exports) {
        parts.push(symbol.kind === "class" ? jsClass(rng, symbol, exported, Math.round(module.units / 2)) : jsFunction(rng, symbol, calls, exported, module.units));
      }
      out.push(...parts.flatMap((p, i) => [...(i > 0 ? [""] : []), ...p]));
      if (cjs) out.push("", `module.exports = { ${module.exports.map((e) => e.name).join(", ")} };`);
    }
  }
  out.push("");
  return out.join("\n");
}
