// Library modules inside packages/<name>/src: which symbols a template exports, and how it is written.

import { QUALIFIERS, SERVICE_SUFFIXES, VERBS, INTL_STRINGS, PROSE, camel, constantCase, pascal, type NameRegistry } from "../names.js";
import { Rng } from "../prng.js";
import type { ExportedSymbol, ImportSpec, SourceModule, SymbolKind } from "../model.js";
import { emitClass } from "./ts-classes.js";
import { emitConstant, emitFactory, emitGuard, emitHelper, emitNamespace, type FunctionContext } from "./ts-functions.js";
import { emitEnum, emitInterface, emitTypeAlias, emitZodSchema } from "./ts-types.js";
import { importedCalls, importedTypeNames, renderImportBlock } from "./imports.js";

export const PACKAGE_TEMPLATES = [
  ["service", 26],
  ["model", 20],
  ["utils", 20],
  ["abstract", 7],
  ["errors", 5],
  ["constants", 7],
  ["repository", 10],
  ["events", 5],
] as const satisfies readonly (readonly [string, number])[];

const HELPER_ROLES = [
  ["fn-plain", 4],
  ["fn-arrow", 3],
  ["fn-overload", 1],
  ["fn-generic", 1.5],
  ["fn-io", 1],
  ["fn-generator", 0.6],
  ["fn-lodash", 0.8],
] as const satisfies readonly (readonly [string, number])[];

function sym(names: NameRegistry, name: string, kind: SymbolKind, role: string, isDefault = false): ExportedSymbol {
  return { name: names.claim(name), kind, role, isDefault };
}

/** Decides a module's exports up front, so other modules can import them before it is rendered. */
export function planPackageExports(template: string, words: string[], units: number, names: NameRegistry, rng: Rng): ExportedSymbol[] {
  const P = pascal(words);
  const out: ExportedSymbol[] = [];
  switch (template) {
    case "service": {
      if (rng.chance(0.8)) out.push(sym(names, `${P}Options`, "interface", "options"));
      if (rng.chance(0.5)) out.push(sym(names, `${P}Result`, "type", "result"));
      const suffix = rng.pick(SERVICE_SUFFIXES);
      const cls = sym(names, `${P}${suffix}`, "class", "service", rng.chance(0.15));
      out.push(cls);
      if (rng.chance(0.5)) out.push(sym(names, `create${cls.name}`, "function", "factory"));
      break;
    }
    case "model": {
      if (rng.chance(0.7)) out.push(sym(names, `${P}Status`, "enum", "enum"));
      out.push(sym(names, P, "interface", "entity"));
      if (rng.chance(0.5)) out.push(sym(names, `${P}Summary`, "interface", "summary"));
      for (let i = 0; i < rng.int(1, 3); i++) out.push(sym(names, `${P}${rng.pick(["Patch", "Key", "View", "Draft", "Ref", "Update"])}`, "type", "alias"));
      if (rng.chance(0.6)) {
        out.push(sym(names, `${camel(words)}Schema`, "const", "schema"));
        out.push(sym(names, `${P}Input`, "type", "schema-type"));
      }
      out.push(sym(names, `is${P}`, "function", "guard"));
      break;
    }
    case "utils": {
      const count = Math.max(2, Math.round(units * 0.9));
      for (let i = 0; i < count; i++) {
        const role = rng.weighted(HELPER_ROLES);
        const isDefault = i === 0 && (role === "fn-plain" || role === "fn-generic") && rng.chance(0.15);
        out.push(sym(names, camel([rng.pick(VERBS), ...words]), "function", role, isDefault));
      }
      break;
    }
    case "abstract": {
      out.push(sym(names, `Base${P}Handler`, "abstractClass", "abstract"));
      for (let i = 0; i < rng.int(1, 3); i++) out.push(sym(names, `${pascal([rng.pick(QUALIFIERS)])}${P}Handler`, "class", "subclass"));
      break;
    }
    case "errors": {
      out.push(sym(names, `${P}ErrorCode`, "type", "alias"));
      out.push(sym(names, `${P}Error`, "class", "error"));
      for (let i = 0; i < rng.int(1, 3); i++) out.push(sym(names, `${P}${pascal([rng.pick(QUALIFIERS)])}Error`, "class", "error-sub"));
      out.push(sym(names, `is${P}Error`, "function", "guard"));
      break;
    }
    case "constants": {
      for (let i = 0; i < Math.max(2, Math.round(units * 0.7)); i++) out.push(sym(names, constantCase([...words, rng.pick(["limits", "defaults", "routes", "weights", "config", "keys"])]), "const", "constant"));
      if (rng.chance(0.5)) out.push(sym(names, `${P}Setting`, "type", "alias"));
      break;
    }
    case "repository": {
      out.push(sym(names, `${P}Repository`, "interface", "repo-interface"));
      out.push(sym(names, `InMemory${P}Repository`, "class", "repo-class", rng.chance(0.1)));
      if (rng.chance(0.5)) out.push(sym(names, `${P}Query`, "type", "alias"));
      break;
    }
    default: {
      out.push(sym(names, `${P}EventMap`, "type", "alias"));
      out.push(sym(names, `${P}Events`, "class", "emitter"));
      if (rng.chance(0.6)) out.push(sym(names, `${P}Topics`, "namespace", "namespace"));
    }
  }
  return out;
}

/** External and builtin imports a module's own declarations rely on. */
export function externalImportsFor(exports: readonly ExportedSymbol[], rng: Rng): ImportSpec[] {
  const roles = new Set(exports.map((e) => e.role));
  const specs: ImportSpec[] = [];
  if (roles.has("schema")) specs.push({ from: "zod", named: [{ name: "z", kind: "const" }] });
  if (roles.has("fn-io")) {
    specs.push({ from: rng.chance(0.7) ? "node:path" : "path", named: [], defaultName: "path" });
    specs.push({ from: "node:fs/promises", named: [{ name: "readFile", kind: "function" }] });
  }
  if (roles.has("fn-lodash")) specs.push({ from: "lodash", named: [{ name: "debounce", kind: "function" }] });
  if (roles.has("emitter")) specs.push({ from: "node:events", named: [{ name: "EventEmitter", kind: "class" }] });
  if (roles.has("service") && rng.chance(0.3)) specs.push({ from: "node:crypto", named: [{ name: "randomUUID", kind: "function" }] });
  return specs;
}

export function renderPackageModule(module: SourceModule, seed: number): string {
  const rng = Rng.forKey(seed, module.path);
  const imported = importedTypeNames(module.imports);
  const localTypes = module.exports.filter((e) => e.kind === "interface" || e.kind === "enum").map((e) => e.name);
  const ctx: FunctionContext = {
    rng,
    typeNames: [...imported, ...localTypes],
    calls: importedCalls(module.imports).filter((c) => c !== "debounce" && c !== "readFile"),
  };
  const byRole = (role: string) => module.exports.find((e) => e.role === role);
  const out: string[] = [];
  if (rng.chance(0.3)) out.push("/**", ` * ${pascal(module.words)} — ${rng.pick(PROSE)}`, " */");
  const importLines = renderImportBlock(module.imports, rng, true);
  if (importLines.length > 0) out.push(...importLines, "");

  if (rng.chance(0.05)) out.push(`const MESSAGES = { failed: ${JSON.stringify(rng.pick(INTL_STRINGS))}, done: ${JSON.stringify(rng.pick(INTL_STRINGS))} } as const;`, "");
  for (const spec of module.imports.filter((s) => s.dynamic)) {
    const name = spec.named[0];
    if (!name) continue;
    out.push(`async function load${pascal([name.name])}() {`, `  const { ${name.name} } = await import(${JSON.stringify(spec.from)});`, `  return ${name.name};`, "}", "");
  }

  let abstractMethods: string[] = [];
  const entity = byRole("entity")?.name ?? byRole("repo-interface")?.name;
  for (const symbol of module.exports) {
    let lines: string[];
    switch (symbol.role) {
      case "options":
      case "entity":
      case "summary":
        lines = emitInterface(ctx, symbol, Math.max(2, Math.round(module.units * 1.2)));
        break;
      case "repo-interface":
        lines = [
          `export interface ${symbol.name}<T extends { id: string } = { id: string }> {`,
          "  findById(id: string): Promise<T | undefined>;",
          "  findMany(filter?: Partial<T>, limit?: number): Promise<T[]>;",
          "  save(entity: T): Promise<T>;",
          "  delete(id: string): Promise<boolean>;",
          "}",
        ];
        break;
      case "result":
      case "alias":
        lines = emitTypeAlias(ctx, symbol, entity);
        break;
      case "schema-type": {
        const schema = byRole("schema");
        lines = [`export type ${symbol.name} = z.infer<typeof ${schema?.name ?? "z.object({})"}>;`];
        break;
      }
      case "enum":
        lines = emitEnum(ctx, symbol);
        break;
      case "schema":
        lines = emitZodSchema(ctx, symbol, Math.max(3, module.units + 2));
        break;
      case "guard":
        lines = emitGuard(ctx, symbol, entity);
        break;
      case "service":
      case "repo-class":
        lines = emitClass(ctx, {
          symbol,
          optionsType: byRole("options")?.name,
          implementsNames: symbol.role === "repo-class" && byRole("repo-interface") ? [`${byRole("repo-interface")?.name}`] : undefined,
          methodCount: Math.max(1, module.units),
          calls: ctx.calls,
        }).lines;
        break;
      case "factory": {
        const cls = byRole("service");
        lines = emitFactory(ctx, symbol, cls?.name ?? "Object", byRole("options")?.name);
        break;
      }
      case "abstract": {
        const result = emitClass(ctx, { symbol, abstract: true, methodCount: Math.max(1, Math.round(module.units / 2)), calls: ctx.calls });
        abstractMethods = result.abstractMethods;
        lines = result.lines;
        break;
      }
      case "subclass":
        lines = emitClass(ctx, {
          symbol,
          extendsName: byRole("abstract")?.name,
          overrides: abstractMethods,
          methodCount: Math.max(0, Math.round(module.units / 3)),
          calls: ctx.calls,
        }).lines;
        break;
      case "error":
        lines = emitClass(ctx, { symbol, extendsName: "Error", methodCount: 0, calls: [] }).lines;
        break;
      case "error-sub":
        lines = emitClass(ctx, { symbol, extendsName: byRole("error")?.name, methodCount: rng.int(0, 1), calls: [] }).lines;
        break;
      case "emitter":
        lines = emitClass(ctx, { symbol, extendsName: "EventEmitter", methodCount: Math.max(1, module.units - 1), calls: ctx.calls }).lines;
        break;
      case "namespace":
        lines = emitNamespace(ctx, symbol);
        break;
      case "constant":
        lines = emitConstant(ctx, symbol, module.units);
        break;
      default:
        lines = emitHelper(ctx, symbol, module.units);
    }
    out.push(...lines, "");
  }
  return out.join("\n");
}
