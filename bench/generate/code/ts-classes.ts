// Class declarations: services, abstract bases and their subclasses, errors.

import { NOUNS, VERBS, camel } from "../names.js";
import type { Rng } from "../prng.js";
import type { ExportedSymbol } from "../model.js";
import { comment, expression, newScope, statements } from "./statements.js";
import { doc, typeExpr, type TypeContext } from "./ts-types.js";

export interface ClassSpec {
  symbol: ExportedSymbol;
  abstract?: boolean;
  extendsName?: string;
  implementsNames?: string[];
  /** Options interface taken by the constructor. */
  optionsType?: string;
  /** Lines placed above the class (decorators). */
  decorators?: string[];
  /** Extra constructor parameters (parameter properties), written as is. */
  ctorParams?: string[];
  /** Abstract method names the subclass must implement (with `override`). */
  overrides?: string[];
  methodCount: number;
  /** Imported functions callable from method bodies. */
  calls: string[];
}

export interface ClassResult {
  lines: string[];
  /** Abstract method names declared (for subclasses). */
  abstractMethods: string[];
}

function methodName(rng: Rng, taken: Set<string>): string {
  let name = camel([rng.pick(VERBS), rng.pick(NOUNS)]);
  while (taken.has(name)) name = camel([rng.pick(VERBS), rng.pick(NOUNS), rng.pick(NOUNS)]);
  taken.add(name);
  return name;
}

function indent(lines: string[], by = "  "): string[] {
  return lines.map((line) => (line === "" ? line : by + line));
}

function body(ctx: TypeContext, scopeLocals: string[], params: string[], calls: string[], isAsync: boolean, count: number, returns: boolean): string[] {
  const scope = newScope(ctx.rng, { ts: true, async: isAsync, params: [...params, ...scopeLocals], calls, noExit: !returns });
  const lines = statements(scope, count);
  if (returns) lines.push(`return ${expression(scope)};`);
  return lines;
}

export function emitClass(ctx: TypeContext, spec: ClassSpec): ClassResult {
  const { rng } = ctx;
  const { symbol } = spec;
  const out: string[] = [...doc(rng, `${symbol.name}`), ...(spec.decorators ?? [])];
  const generic = !spec.extendsName && !spec.abstract && rng.chance(0.3);
  const typeParams = generic ? "<TItem extends { id: string } = { id: string }>" : spec.abstract ? "<TInput = unknown, TOutput = void>" : "";
  const heritage =
    (spec.extendsName ? ` extends ${spec.extendsName}` : "") +
    (spec.implementsNames && spec.implementsNames.length > 0 ? ` implements ${spec.implementsNames.join(", ")}` : "");
  const exportWord = symbol.isDefault ? "export default" : "export";
  out.push(`${exportWord} ${spec.abstract ? "abstract " : ""}class ${symbol.name}${typeParams}${heritage} {`);

  const members: string[][] = [];
  const locals: string[] = [];
  const taken = new Set<string>();
  const itemType = generic ? "TItem" : "unknown";
  const field = rng.pick(NOUNS);
  const store = `this.#${field}Index`;

  const fields: string[] = [];
  if (rng.chance(0.4)) fields.push(`static readonly VERSION = "${rng.int(0, 4)}.${rng.int(0, 20)}.${rng.int(0, 9)}";`);
  if (spec.overrides && spec.overrides.length > 0) fields.push(`protected readonly kind = ${JSON.stringify(camel([field]))};`);
  fields.push(`#${field}Index = new Map<string, ${itemType}>();`);
  locals.push(store);
  fields.push(`#limit = ${rng.int(10, 500)};`);
  if (spec.optionsType) {
    fields.push(`private readonly options: ${spec.optionsType};`);
    locals.push("this.options");
  }
  if (rng.chance(0.5)) {
    fields.push(`protected ${field}Count = 0;`);
    locals.push(`this.${field}Count`);
  }
  if (spec.abstract) fields.push("protected abstract readonly kind: string;");
  members.push(fields);

  // Constructor
  const ctorParams: string[] = [];
  if (spec.optionsType) ctorParams.push(`options: Partial<${spec.optionsType}> = {}`);
  ctorParams.push(...(spec.ctorParams ?? []));
  if (spec.extendsName === "Error") ctorParams.unshift("message: string", "readonly code: string");
  if (ctorParams.length > 0 || spec.extendsName) {
    const ctor = [`constructor(${ctorParams.join(", ")}) {`];
    if (spec.extendsName === "Error") ctor.push(`  super(message);`, `  this.name = ${JSON.stringify(symbol.name)};`);
    else if (spec.extendsName) ctor.push("  super();");
    if (spec.optionsType) ctor.push(`  this.options = { ...options } as ${spec.optionsType};`);
    if (rng.chance(0.3)) ctor.push(...indent(body(ctx, locals, [], spec.calls, false, 1, false)));
    ctor.push("}");
    members.push(ctor);
  }

  // Accessors
  if (rng.chance(0.7)) {
    members.push([`get size(): number {`, `  return ${store}.size;`, "}"]);
    members.push([`set limit(value: number) {`, "  this.#limit = Math.max(0, Math.floor(value));", "}"]);
    members.push([`get limit(): number {`, "  return this.#limit;", "}"]);
  }

  if (!spec.abstract && rng.chance(0.35)) {
    const factory = methodName(rng, taken);
    const args = spec.extendsName === "Error" ? `"${factory}", "E_${factory.toUpperCase()}"` : "";
    members.push([`static ${factory}(): ${symbol.name} {`, `  return new ${symbol.name}(${args});`, "}"]);
  }

  const abstractMethods: string[] = [];
  if (spec.abstract) {
    for (let i = 0; i < rng.int(1, 3); i++) {
      const name = methodName(rng, taken);
      abstractMethods.push(name);
      members.push([`abstract ${name}(input: TInput): Promise<TOutput>;`]);
    }
  }
  for (const name of spec.overrides ?? []) {
    taken.add(name);
    members.push([
      `override async ${name}(input: unknown): Promise<void> {`,
      ...indent(body(ctx, locals, ["input"], spec.calls, true, rng.int(1, 4), false)),
      "}",
    ]);
  }

  for (let i = 0; i < spec.methodCount; i++) members.push(emitMethod(ctx, spec, taken, locals, itemType, store));

  out.push(...members.flatMap((member, index) => [...(index > 0 ? [""] : []), ...indent(member)]));
  out.push("}");
  return { lines: out, abstractMethods };
}

function emitMethod(
  ctx: TypeContext,
  spec: ClassSpec,
  taken: Set<string>,
  locals: string[],
  itemType: string,
  store: string,
): string[] {
  const { rng } = ctx;
  const name = methodName(rng, taken);
  const arg = rng.pick(NOUNS);
  const statementsCount = rng.skewedInt(3, 0.6, 1, 12);
  const lead = rng.chance(0.12) ? [comment(rng)] : [];
  const access = rng.weighted<string>([["", 6], ["private ", 1], ["protected ", 1], ["public ", 0.5]]);
  switch (rng.weighted<string>([["async", 4], ["sync", 4], ["overload", 1], ["generic", 1.2], ["private", 1.2], ["arrow", 0.8], ["generator", 0.4], ["static", 0.6]])) {
    case "async":
      return [
        ...lead,
        `${access}async ${name}(${arg}: ${typeExpr(ctx)}, signal?: AbortSignal): Promise<${itemType} | undefined> {`,
        ...indent(body(ctx, locals, [arg, "signal"], spec.calls, true, statementsCount, true)),
        "}",
      ];
    case "sync":
      return [
        ...lead,
        `${access}${name}(${arg}: ${typeExpr(ctx)}, limit = this.#limit): ${typeExpr(ctx)} {`,
        ...indent(body(ctx, locals, [arg, "limit"], spec.calls, false, statementsCount, true)),
        "}",
      ];
    case "overload":
      return [
        ...lead,
        `${name}(${arg}: string): string;`,
        `${name}(${arg}: number, digits?: number): string;`,
        `${name}(${arg}: string | number, digits = 2): string {`,
        `  if (typeof ${arg} === "number") return ${arg}.toFixed(digits);`,
        ...indent(body(ctx, locals, [arg, "digits"], spec.calls, false, Math.min(statementsCount, 3), false)),
        `  return ${arg}.trim();`,
        "}",
      ];
    case "generic":
      return [
        ...lead,
        `${name}<R, K extends keyof R = keyof R>(mapper: (value: ${itemType}, index: number) => R, key?: K): R[] {`,
        `  const mapped = [...${store}.values()].map(mapper);`,
        `  return key === undefined ? mapped : mapped.filter((entry) => entry[key] !== undefined);`,
        "}",
      ];
    case "private":
      return [
        ...lead,
        `#${name}(${arg}: unknown): boolean {`,
        ...indent(body(ctx, locals, [arg], spec.calls, false, Math.min(statementsCount, 4), true)),
        "}",
      ];
    case "arrow":
      return [...lead, `readonly ${name} = (${arg}: string): string => ${arg}.trim().toLowerCase();`];
    case "generator":
      return [
        ...lead,
        `*${name}(): IterableIterator<[string, ${itemType}]> {`,
        `  for (const entry of ${store}) {`,
        "    yield entry;",
        "  }",
        "}",
      ];
    default:
      return [
        ...lead,
        `static ${name}(${arg}: ${typeExpr(ctx)}): string {`,
        ...indent(body(ctx, [], [arg], spec.calls, false, Math.min(statementsCount, 4), false)),
        `  return String(${arg});`,
        "}",
      ];
  }
}
