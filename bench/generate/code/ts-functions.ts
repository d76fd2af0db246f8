// Function-level exports: helpers of many shapes, guards, factories, constants, namespaces.

import { FIELD_NAMES, NOUNS, STATUS_VALUES, camel } from "../names.js";
import type { ExportedSymbol } from "../model.js";
import { expression, newScope, statements } from "./statements.js";
import { doc, typeExpr, type TypeContext } from "./ts-types.js";

export interface FunctionContext extends TypeContext {
  /** Imported functions callable from bodies. */
  calls: string[];
}

function indent(lines: string[]): string[] {
  return lines.map((line) => (line === "" ? line : `  ${line}`));
}

function block(ctx: FunctionContext, params: string[], isAsync: boolean, count: number, returns: boolean): string[] {
  const scope = newScope(ctx.rng, { ts: true, async: isAsync, params, calls: ctx.calls });
  const lines = statements(scope, count);
  if (returns) lines.push(`return ${expression(scope)};`);
  return indent(lines);
}

/** Helper roles: "fn-arrow", "fn-overload", "fn-generic", "fn-io", "fn-generator", "fn-lodash", "fn-plain". */
export function emitHelper(ctx: FunctionContext, symbol: ExportedSymbol, size: number): string[] {
  const { rng } = ctx;
  const arg = rng.pick(NOUNS);
  const out = doc(rng, `${symbol.name} helper`);
  const head = symbol.isDefault ? "export default function" : "export function";
  const count = rng.skewedInt(Math.max(2, size), 0.5, 1, 14);
  switch (symbol.role) {
    case "fn-arrow":
      if (rng.chance(0.5)) {
        out.push(`export const ${symbol.name} = (${arg}: ${typeExpr(ctx)}, fallback = ${rng.int(0, 99)}): number =>`);
        out.push(`  Number.isFinite(Number(${arg})) ? Number(${arg}) : fallback;`);
      } else {
        out.push(`export const ${symbol.name} = async (${arg}: ${typeExpr(ctx)}): Promise<string> => {`);
        out.push(...block(ctx, [arg], true, count, true));
        out.push("};");
      }
      return out;
    case "fn-overload":
      out.push(
        `export function ${symbol.name}(${arg}: string): string;`,
        `export function ${symbol.name}(${arg}: number, digits?: number): string;`,
        `export function ${symbol.name}(${arg}: readonly string[]): string[];`,
        `export function ${symbol.name}(${arg}: string | number | readonly string[], digits = 2): string | string[] {`,
        `  if (Array.isArray(${arg})) return ${arg}.map((entry) => String(entry));`,
        `  if (typeof ${arg} === "number") return ${arg}.toFixed(digits);`,
        ...block(ctx, [arg, "digits"], false, Math.min(count, 4), false),
        `  return String(${arg}).normalize("NFC");`,
        "}",
      );
      return out;
    case "fn-generic":
      out.push(
        `${head} ${symbol.name}<T, K extends PropertyKey>(items: readonly T[], key: (item: T) => K): Record<K, T[]> {`,
        "  const groups = {} as Record<K, T[]>;",
        "  for (const item of items) {",
        "    const bucket = key(item);",
        "    (groups[bucket] ??= []).push(item);",
        "  }",
        ...block(ctx, ["items", "groups"], false, Math.min(count, 3), false),
        "  return groups;",
        "}",
      );
      return out;
    case "fn-io":
      out.push(
        `export async function ${symbol.name}(file: string, encoding: BufferEncoding = "utf8"): Promise<string[]> {`,
        "  const full = path.resolve(process.cwd(), file);",
        "  const raw = await readFile(full, encoding);",
        ...block(ctx, ["full", "raw", "file"], true, count, false),
        `  return raw.split(/\\r?\\n/).filter((line) => line.length > 0);`,
        "}",
      );
      return out;
    case "fn-generator":
      out.push(
        `export function* ${symbol.name}(total: number, step = 1): Generator<number, void, undefined> {`,
        "  for (let index = 0; index < total; index += step) {",
        "    yield index;",
        "  }",
        "}",
      );
      return out;
    case "fn-lodash":
      out.push(
        `export const ${symbol.name} = debounce((${arg}: ${typeExpr(ctx)}) => {`,
        ...block(ctx, [arg], false, Math.min(count, 5), false),
        `}, ${rng.int(50, 500)});`,
      );
      return out;
    default:
      out.push(`${head} ${symbol.name}(${arg}: ${typeExpr(ctx)}, options: { strict?: boolean } = {}): ${typeExpr(ctx)} {`);
      out.push(...block(ctx, [arg, "options"], false, count, true));
      out.push("}");
      return out;
  }
}

export function emitGuard(ctx: FunctionContext, symbol: ExportedSymbol, target: string | undefined): string[] {
  const typeName = target ?? "Record<string, unknown>";
  return [
    ...doc(ctx.rng, `Narrows unknown input to ${typeName}`),
    `export function ${symbol.name}(value: unknown): value is ${typeName} {`,
    `  return typeof value === "object" && value !== null && "id" in value && typeof (value as { id: unknown }).id === "string";`,
    "}",
  ];
}

export function emitFactory(ctx: FunctionContext, symbol: ExportedSymbol, className: string, optionsType: string | undefined): string[] {
  const param = optionsType ? `options: Partial<${optionsType}> = {}` : "";
  const args = optionsType ? "options" : "";
  return [
    ...doc(ctx.rng, `Creates the ${className}`),
    `export function ${symbol.name}(${param}): ${className} {`,
    `  return new ${className}(${args});`,
    "}",
  ];
}

export function emitConstant(ctx: FunctionContext, symbol: ExportedSymbol, size: number): string[] {
  const { rng } = ctx;
  const out = doc(rng, `${symbol.name} constant`);
  switch (rng.int(0, 3)) {
    case 0: {
      out.push(`export const ${symbol.name} = {`);
      for (const field of rng.sample(FIELD_NAMES, Math.min(FIELD_NAMES.length, 2 + size))) {
        out.push(`  ${field}: ${rng.chance(0.5) ? rng.int(0, 10_000) : JSON.stringify(rng.pick(STATUS_VALUES))},`);
      }
      out.push("} as const;");
      return out;
    }
    case 1:
      out.push(
        `export const ${symbol.name} = [${rng.sample(NOUNS, 3 + size).map((n) => JSON.stringify(`/${n}`)).join(", ")}] as const satisfies readonly string[];`,
      );
      return out;
    case 2:
      out.push(`export const ${symbol.name}: ReadonlyMap<string, number> = new Map([`);
      for (const noun of rng.sample(NOUNS, 2 + size)) out.push(`  [${JSON.stringify(noun)}, ${rng.int(1, 999)}],`);
      out.push("]);");
      return out;
    default:
      out.push(`export const ${symbol.name} = Object.freeze({`);
      out.push(`  timeoutMs: ${rng.int(1, 60)}_000,`, `  retries: ${rng.int(0, 5)},`, `  label: ${JSON.stringify(camel([rng.pick(NOUNS)]))},`);
      out.push("});");
      return out;
  }
}

export function emitNamespace(ctx: FunctionContext, symbol: ExportedSymbol): string[] {
  const { rng } = ctx;
  const out = [`export namespace ${symbol.name} {`];
  for (const noun of rng.sample(NOUNS, rng.int(2, 4))) {
    out.push(`  export const ${camel([noun, "key"])} = ${JSON.stringify(`${symbol.name.toLowerCase()}.${noun}`)};`);
  }
  out.push(`  export function describe(key: string): string {`, "    return `event ${key}`;", "  }", "}");
  return out;
}
