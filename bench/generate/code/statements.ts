// Function bodies: varied but always syntactically valid statements over the names in scope.
// Types are not checked (nothing compiles the generated repo), so expressions only need to parse.

import { NOUNS, INTL_STRINGS, PROSE, TODO_NOTES, camel } from "../names.js";
import type { Rng } from "../prng.js";

export interface BodyScope {
  rng: Rng;
  /** TS syntax (type arguments, `as`) allowed; false for JS files. */
  ts: boolean;
  async: boolean;
  /** Identifiers readable in this body: parameters, fields through `this`, earlier consts. */
  locals: string[];
  /** Callables available here (imported functions, methods through `this`). */
  calls: string[];
  /** Every name declared in this function, to avoid redeclaring. */
  declared: Set<string>;
  /** Constructors and setters must not return a value. */
  noExit: boolean;
}

export function newScope(
  rng: Rng,
  options: { ts: boolean; async: boolean; params: string[]; calls?: string[]; noExit?: boolean },
): BodyScope {
  return {
    rng,
    ts: options.ts,
    async: options.async,
    locals: [...options.params],
    calls: [...(options.calls ?? [])],
    declared: new Set(options.params),
    noExit: options.noExit ?? false,
  };
}

function freshName(scope: BodyScope): string {
  const base = camel([scope.rng.pick(NOUNS), scope.rng.pick(["value", "list", "entry", "count", "key", "result", "next", "total"])]);
  let name = base;
  for (let n = 2; scope.declared.has(name); n++) name = `${base}${n}`;
  scope.declared.add(name);
  return name;
}

function local(scope: BodyScope): string {
  return scope.locals.length > 0 ? scope.rng.pick(scope.locals) : "undefined";
}

export function comment(rng: Rng): string {
  return `// ${rng.chance(0.45) ? rng.pick(TODO_NOTES) : rng.pick(PROSE)}`;
}

export function stringLiteral(rng: Rng): string {
  if (rng.chance(0.08)) return JSON.stringify(rng.pick(INTL_STRINGS));
  return JSON.stringify(`${rng.pick(NOUNS)}:${rng.pick(NOUNS)}`);
}

export function expression(scope: BodyScope): string {
  const { rng } = scope;
  const v = local(scope);
  const n = rng.int(1, 500);
  switch (rng.int(0, 13)) {
    case 0: return `String(${v}).trim()`;
    case 1: return `Number(${v}) * ${n}`;
    case 2: return `JSON.stringify(${v})`;
    case 3: return `Array.isArray(${v}) ? ${v}.length : 0`;
    case 4: return "`" + `${rng.pick(NOUNS)}:\${String(${v})}` + "`";
    case 5: return `Math.max(${n}, Number(${v}) || 0)`;
    case 6: return `Object.keys(${v} ?? {}).length`;
    case 7: return scope.calls.length > 0 ? `${rng.pick(scope.calls)}(${v})` : `Boolean(${v})`;
    case 8: return scope.ts ? `new Map<string, number>()` : "new Map()";
    case 9: return `[${v}, ${local(scope)}].filter(Boolean)`;
    case 10: return scope.ts ? `(${v} as { ${rng.pick(NOUNS)}?: string })` : `{ ...${v} }`;
    case 11: return `${v} ?? ${stringLiteral(rng)}`;
    case 12: return `[...String(${v})].map((char) => char.charCodeAt(0)).reduce((sum, code) => sum + code, ${n})`;
    default: return stringLiteral(rng);
  }
}

export function condition(scope: BodyScope): string {
  const { rng } = scope;
  const v = local(scope);
  switch (rng.int(0, 5)) {
    case 0: return `${v} == null`;
    case 1: return `!${v}`;
    case 2: return `typeof ${v} === "string"`;
    case 3: return `String(${v}).length > ${rng.int(1, 64)}`;
    case 4: return `${v} instanceof Error || ${local(scope)} === undefined`;
    default: return `Number(${v}) >= ${rng.int(0, 1000)} && Number(${v}) < ${rng.int(1000, 9000)}`;
  }
}

function indent(lines: string[]): string[] {
  return lines.map((line) => (line === "" ? line : `  ${line}`));
}

/** Statements of a nested block: names declared inside do not leak to the enclosing block. */
function nested(scope: BodyScope, count: number, depth: number): string[] {
  const visible = scope.locals.length;
  const lines = statements(scope, count, depth);
  scope.locals.length = visible;
  return indent(lines);
}

/** `count` statements; nested blocks shrink with depth so bodies stay readable. */
export function statements(scope: BodyScope, count: number, depth = 0): string[] {
  const { rng } = scope;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const kind = rng.weighted<string>([
      ["const", 5],
      ["if", depth < 2 ? 3 : 0],
      ["for", depth < 2 ? 1.5 : 0],
      ["try", depth < 1 ? 1 : 0],
      ["comment", 1],
      ["await", scope.async ? 2 : 0],
      ["call", scope.calls.length > 0 ? 1.5 : 0],
      ["switch", depth < 1 && !scope.noExit ? 0.6 : 0],
      ["let", 0.8],
    ]);
    switch (kind) {
      case "const": {
        const value = expression(scope);
        const name = freshName(scope);
        out.push(`const ${name} = ${value};`);
        scope.locals.push(name);
        break;
      }
      case "let": {
        const name = freshName(scope);
        out.push(`let ${name} = ${rng.int(0, 10)};`);
        out.push(`${name} += Number(${local(scope)}) || 1;`);
        scope.locals.push(name);
        break;
      }
      case "if": {
        out.push(`if (${condition(scope)}) {`);
        out.push(...nested(scope, rng.int(1, 2), depth + 1));
        if (!scope.noExit && rng.chance(0.35)) out.push(...indent([exitStatement(scope)]));
        if (rng.chance(0.3)) {
          out.push("} else {");
          out.push(...nested(scope, 1, depth + 1));
        }
        out.push("}");
        break;
      }
      case "for": {
        const item = freshName(scope);
        out.push(`for (const ${item} of Object.values(${local(scope)} ?? {})) {`);
        scope.locals.push(item);
        out.push(...nested(scope, rng.int(1, 2), depth + 1));
        out.push("}");
        scope.locals.pop();
        break;
      }
      case "try": {
        out.push("try {");
        out.push(...nested(scope, rng.int(1, 3), depth + 1));
        out.push("} catch (error) {");
        out.push(`  console.warn(${stringLiteral(rng)}, error);`);
        out.push("}");
        break;
      }
      case "comment":
        out.push(comment(rng));
        break;
      case "await": {
        const name = freshName(scope);
        const awaited = rng.chance(0.5)
          ? `Promise.resolve(${expression(scope)})`
          : `new Promise${scope.ts ? "<void>" : ""}((resolve) => setTimeout(resolve, ${rng.int(1, 250)}))`;
        out.push(`const ${name} = await ${awaited};`);
        scope.locals.push(name);
        break;
      }
      case "call":
        out.push(`${rng.pick(scope.calls)}(${local(scope)});`);
        break;
      case "switch": {
        const v = local(scope);
        out.push(`switch (String(${v})) {`);
        for (const label of rng.sample(NOUNS, rng.int(2, 3))) {
          out.push(`  case ${JSON.stringify(label)}:`);
          out.push(`    ${exitStatement(scope)}`);
        }
        out.push("  default:", "    break;", "}");
        break;
      }
    }
  }
  return out;
}

function exitStatement(scope: BodyScope): string {
  return scope.rng.chance(0.7) ? `return ${expression(scope)};` : `throw new Error(${stringLiteral(scope.rng)});`;
}
