// `ipuaro tool`'s arguments, checked against the tool's JSON schema before anything is opened or
// indexed: a missing "path" or a string where a number goes used to cost a whole index run (of the
// current folder, when no path was given) before the tool itself said so. Only the shallow shape is
// checked here (object, required keys, types, enums, simple bounds); the tool's own zod schema still
// has the last word when it runs.
import { coerceArgs, type RegisteredTool } from "../../tools/define-tool.js";

type JsonSchema = Record<string, unknown>;

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function matchesType(value: unknown, type: unknown): boolean {
  if (typeof type !== "string") return true;
  const actual = typeOf(value);
  return actual === type || (type === "number" && actual === "integer");
}

/** The first thing wrong with `value` against `schema` (one property's), or null. */
function problemWith(value: unknown, schema: JsonSchema): string | null {
  if (!matchesType(value, schema.type)) return `expected ${String(schema.type)}, got ${typeOf(value)}`;
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return `expected one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  if (typeof value === "string" && typeof schema.minLength === "number" && value.length < schema.minLength) return schema.minLength === 1 ? "must not be empty" : `must be at least ${schema.minLength} characters`;
  if (typeof value === "number" && typeof schema.minimum === "number" && value < schema.minimum) return `must be at least ${schema.minimum}`;
  if (Array.isArray(value) && schema.items && typeof schema.items === "object") {
    for (const [i, item] of value.entries()) {
      const p = problemWith(item, schema.items as JsonSchema);
      if (p) return `item ${i}: ${p}`;
    }
  }
  return null;
}

/** The call's expected form, as the tool's own validation message gives it: `get_lines(path: string, start?: integer)`. */
export function expectedForm(tool: RegisteredTool): string {
  const { properties, required } = tool.jsonSchema;
  const params = Object.entries(properties).map(([k, p]) => `${k}${required?.includes(k) ? "" : "?"}: ${String(p.type ?? "value")}`);
  return `${tool.name}(${params.join(", ")})`;
}

/** What is wrong with `args` for `tool`, one clause per problem; null when the shape is right. */
export function toolArgsProblem(tool: RegisteredTool, args: unknown): string | null {
  if (typeOf(args) !== "object") return `the arguments must be a JSON object, got ${typeOf(args)}. Expected ${expectedForm(tool)}.`;
  // The model's calls are coerced the same way ("12" for an integer), so a person's are too.
  const given = coerceArgs(args, tool.jsonSchema) as Record<string, unknown>;
  const { properties, required = [] } = tool.jsonSchema;
  const problems: string[] = [];
  for (const key of required) if (given[key] === undefined) problems.push(`"${key}" is required`);
  for (const [key, value] of Object.entries(given)) {
    const schema = properties[key];
    if (!schema) {
      problems.push(`"${key}" is not a parameter of ${tool.name}`);
      continue;
    }
    const p = value === undefined ? null : problemWith(value, schema);
    if (p) problems.push(`"${key}": ${p}`);
  }
  return problems.length ? `invalid arguments for ${tool.name}: ${problems.join("; ")}. Expected ${expectedForm(tool)}.` : null;
}
