// Type-level declarations: interfaces, type aliases, enums, zod schemas.

import { FIELD_NAMES, NOUNS, PROSE, STATUS_VALUES, camel, pascal } from "../names.js";
import type { Rng } from "../prng.js";
import type { ExportedSymbol } from "../model.js";

export interface TypeContext {
  rng: Rng;
  /** Type names usable in annotations here (imported or declared in this file). */
  typeNames: string[];
}

export function typeExpr(ctx: TypeContext): string {
  const { rng } = ctx;
  const named = ctx.typeNames.length > 0 ? rng.pick(ctx.typeNames) : "unknown";
  switch (rng.int(0, 12)) {
    case 0: case 1: return "string";
    case 2: return "number";
    case 3: return "boolean";
    case 4: return "readonly string[]";
    case 5: return "Record<string, number>";
    case 6: return "Date";
    case 7: return named;
    case 8: return `${named} | null`;
    case 9: return `Array<${named}>`;
    case 10: return `Map<string, ${named}>`;
    case 11: return rng.sample(STATUS_VALUES, 3).map((v) => JSON.stringify(v)).join(" | ");
    default: return `{ ${rng.pick(NOUNS)}: string; ${rng.pick(FIELD_NAMES)}?: number }`;
  }
}

export function doc(rng: Rng, subject: string, indent = ""): string[] {
  if (rng.chance(0.4)) return [];
  if (rng.chance(0.5)) return [`${indent}/** ${subject}. ${rng.pick(PROSE)} */`];
  return [`${indent}/**`, `${indent} * ${subject}.`, `${indent} *`, `${indent} * ${rng.pick(PROSE)}`, `${indent} */`];
}

export function emitInterface(ctx: TypeContext, symbol: ExportedSymbol, fieldCount: number, extendsName?: string): string[] {
  const { rng } = ctx;
  const out = doc(rng, `Shape of ${symbol.name}`);
  const heritage = extendsName ? ` extends ${extendsName}` : "";
  const generic = rng.chance(0.15) ? "<TMeta = Record<string, unknown>>" : "";
  out.push(`${symbol.isDefault ? "export default " : "export "}interface ${symbol.name}${generic}${heritage} {`);
  const used = new Set<string>();
  for (let i = 0; i < fieldCount; i++) {
    let field = i === 0 ? "id" : rng.chance(0.6) ? rng.pick(FIELD_NAMES) : camel([rng.pick(NOUNS), rng.pick(["id", "count", "at", "ref", "label"])]);
    if (used.has(field)) field = `${field}${i}`;
    used.add(field);
    if (rng.chance(0.15)) out.push(`  /** ${rng.pick(PROSE)} */`);
    const modifier = rng.chance(0.25) ? "readonly " : "";
    const optional = i > 0 && rng.chance(0.3) ? "?" : "";
    out.push(`  ${modifier}${field}${optional}: ${i === 0 ? "string" : typeExpr(ctx)};`);
  }
  if (generic) out.push("  meta?: TMeta;");
  if (rng.chance(0.3)) out.push(`  ${camel([rng.pick(["to", "describe", "validate"]), "self"])}(${rng.pick(NOUNS)}: string): ${typeExpr(ctx)};`);
  if (rng.chance(0.1)) out.push("  [extra: string]: unknown;");
  out.push("}");
  return out;
}

/** Type aliases of several shapes; `target` is the interface the alias is about, when the module has one. */
export function emitTypeAlias(ctx: TypeContext, symbol: ExportedSymbol, target: string | undefined): string[] {
  const { rng } = ctx;
  const base = target ?? (ctx.typeNames.length > 0 ? rng.pick(ctx.typeNames) : "Record<string, unknown>");
  const head = `export type ${symbol.name}`;
  const out = doc(rng, `${symbol.name} alias`);
  switch (symbol.role === "result" ? 0 : rng.int(1, 7)) {
    case 0:
      out.push(`${head}<T = ${base}> =`, "  | { ok: true; value: T }", "  | { ok: false; error: string; retryable?: boolean };");
      break;
    case 1:
      out.push(`${head} = Partial<Omit<${base}, "id">>;`);
      break;
    case 2:
      out.push(`${head} = keyof ${base};`);
      break;
    case 3:
      out.push(`${head}<T> = T extends Promise<infer U> ? U : T extends ReadonlyArray<infer V> ? V : T;`);
      break;
    case 4:
      out.push(`${head} = {`, `  readonly [K in keyof ${base}]?: ${base}[K] | null;`, "};");
      break;
    case 5: {
      const events = rng.sample(NOUNS, 3).map((n) => JSON.stringify(n)).join(" | ");
      out.push(`${head} = \`${rng.pick(NOUNS)}:\${${events}}\`;`);
      break;
    }
    case 6:
      out.push(`${head} = (${rng.pick(NOUNS)}: ${base}, options?: { signal?: AbortSignal }) => Promise<void>;`);
      break;
    default:
      out.push(`${head} = ${rng.sample(STATUS_VALUES, rng.int(2, 5)).map((v) => JSON.stringify(v)).join(" | ")};`);
  }
  return out;
}

export function emitEnum(ctx: TypeContext, symbol: ExportedSymbol): string[] {
  const { rng } = ctx;
  const out = doc(rng, `${symbol.name} values`);
  const members = rng.sample(STATUS_VALUES, rng.int(3, 7));
  if (rng.chance(0.3)) {
    out.push(`export ${rng.chance(0.5) ? "const " : ""}enum ${symbol.name} {`);
    members.forEach((m, i) => out.push(`  ${pascal([m])} = ${i === 0 ? 0 : `1 << ${i - 1}`},`));
  } else {
    out.push(`export enum ${symbol.name} {`);
    for (const m of members) out.push(`  ${pascal([m])} = ${JSON.stringify(m)},`);
  }
  out.push("}");
  return out;
}

export function emitZodSchema(ctx: TypeContext, symbol: ExportedSymbol, fieldCount: number): string[] {
  const { rng } = ctx;
  const out = doc(rng, `Runtime validation for ${symbol.name}`);
  out.push(`export const ${symbol.name} = z`, "  .object({", "    id: z.string().uuid(),");
  const used = new Set(["id"]);
  for (let i = 1; i < fieldCount; i++) {
    const field = rng.pick(FIELD_NAMES);
    if (used.has(field)) continue;
    used.add(field);
    const zodType = rng.pick([
      "z.string().min(1).max(200)",
      "z.number().int().nonnegative()",
      "z.boolean().default(false)",
      "z.array(z.string()).default([])",
      `z.enum([${rng.sample(STATUS_VALUES, 3).map((v) => JSON.stringify(v)).join(", ")}])`,
      "z.record(z.string(), z.unknown()).optional()",
      "z.coerce.date()",
      "z.string().email().optional()",
    ]);
    out.push(`    ${field}: ${zodType},`);
  }
  out.push("  })", `  .strict();`);
  return out;
}
