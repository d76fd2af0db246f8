// One wrapper around every tool: argument coercion and validation, error mapping, output capping.
// Tools stay small because none of that is theirs to repeat.
import { z } from "zod";
import { IpuaroError } from "../errors.js";
import type { ToolCategory, ToolContext, ToolErrorCode, ToolResult, ToolSpec } from "./tool-types.js";

/** Tools that answer from the index (read tools check the disk themselves: fresh-file.ts). */
const INDEX_CATEGORIES: ReadonlySet<ToolCategory> = new Set(["search", "analysis"]);

/** The model's copy of a result is capped; the UI keeps the whole text in display.details. */
export const MAX_TOOL_OUTPUT_CHARS = 24_000;
/** A call's one-line title (`[get_lines src/a.ts 1-40]`) is cut here. */
export const MAX_TITLE_CHARS = 160;

export interface RegisteredTool {
  readonly name: string;
  readonly category: ToolSpec<z.ZodObject>["category"];
  readonly description: string;
  readonly requiresConfirmation: boolean;
  /** JSON schema of the parameters (for the system prompt, /help and snapshots). */
  readonly jsonSchema: { type: "object"; properties: Record<string, Record<string, unknown>>; required?: string[] };
  run(callId: string, rawArgs: unknown, ctx: ToolContext): Promise<ToolResult>;
  titleFor(rawArgs: unknown): string;
}

type JsonSchemaObject = RegisteredTool["jsonSchema"];

/** XML tool calls carry every value as a string: turn them into what the schema expects first. */
export function coerceArgs(raw: unknown, schema: JsonSchemaObject): unknown {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return raw;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const prop = schema.properties[key];
    const type = prop?.type;
    if (typeof value !== "string" || !prop) {
      out[key] = value;
      continue;
    }
    const trimmed = value.trim();
    if ((type === "integer" || type === "number") && trimmed !== "" && Number.isFinite(Number(trimmed))) out[key] = Number(trimmed);
    else if (type === "boolean" && /^(true|false)$/i.test(trimmed)) out[key] = trimmed.toLowerCase() === "true";
    else if (type === "array" && trimmed.startsWith("[")) {
      try {
        out[key] = JSON.parse(trimmed);
      } catch {
        out[key] = value;
      }
    } else out[key] = value;
  }
  return out;
}

/** One sentence per problem, naming the parameter and what was expected, plus the call's expected form. */
export function describeValidationError(tool: string, error: z.ZodError, schema: JsonSchemaObject): string {
  const problems = error.issues.map((i) => {
    const where = i.path.length ? `"${i.path.map(String).join(".")}"` : "the arguments";
    return `${where}: ${i.message}`;
  });
  const params = Object.entries(schema.properties)
    .map(([k, p]) => `${k}${schema.required?.includes(k) ? "" : "?"}: ${String(p.type ?? "value")}`)
    .join(", ");
  return `Invalid arguments for ${tool}: ${problems.join("; ")}. Expected ${tool}(${params}).`;
}

function errorCodeFor(err: unknown): ToolErrorCode {
  if (err instanceof IpuaroError && err.type === "file") return "FILE_NOT_FOUND";
  if ((err as Error)?.name === "AbortError") return "CANCELLED";
  return "INTERNAL";
}

export function defineTool<S extends z.ZodObject>(spec: ToolSpec<S>): RegisteredTool {
  const generated = z.toJSONSchema(spec.parameters) as Record<string, unknown>;
  const jsonSchema: JsonSchemaObject = {
    type: "object",
    properties: (generated.properties ?? {}) as JsonSchemaObject["properties"],
    ...(Array.isArray(generated.required) && generated.required.length ? { required: generated.required as string[] } : {}),
  };
  for (const p of Object.values(jsonSchema.properties)) delete p.maximum; // zod's int bound is noise for the model

  const parse = (rawArgs: unknown) => spec.parameters.safeParse(coerceArgs(rawArgs ?? {}, jsonSchema));

  return {
    name: spec.name,
    category: spec.category,
    description: spec.description,
    requiresConfirmation: spec.requiresConfirmation,
    jsonSchema,
    titleFor(rawArgs) {
      const parsed = parse(rawArgs);
      const title = parsed.success ? spec.title(parsed.data) : spec.name;
      // A title is one line in the chat or on stderr, whatever the model put in a path.
      return title.length > MAX_TITLE_CHARS ? `${title.slice(0, MAX_TITLE_CHARS - 1)}…` : title;
    },
    async run(callId, rawArgs, ctx) {
      const started = performance.now();
      const base = { callId, name: spec.name, truncated: false };
      const finish = (r: Omit<ToolResult, "callId" | "name" | "durationMs" | "truncated"> & { truncated?: boolean }): ToolResult => ({
        ...base,
        ...r,
        truncated: r.truncated ?? false,
        durationMs: performance.now() - started,
      });
      const parsed = parse(rawArgs);
      if (!parsed.success) {
        const message = describeValidationError(spec.name, parsed.error, jsonSchema);
        return finish({ success: false, error: message, code: "INVALID_ARGS", display: { title: spec.name, summary: message } });
      }
      const title = spec.title(parsed.data);
      try {
        // Answers from the index wait for a large change on disk (a branch switch) to be taken in.
        const index = INDEX_CATEGORIES.has(spec.category) ? await ctx.services.indexSettled?.() : undefined;
        const outcome = await spec.execute(parsed.data, ctx);
        if (!outcome.ok) return finish({ success: false, error: outcome.message, code: outcome.code, display: { title, summary: outcome.message } });
        const lagging = index && !index.settled ? `\n\n(The index is still taking in ${index.backlog.toLocaleString("en-US")} changed files, as after a branch switch: this answer may be out of date. Ask again in a few seconds.)` : "";
        const full = outcome.llm + lagging;
        const truncated = full.length > MAX_TOOL_OUTPUT_CHARS;
        const data = truncated
          ? `${full.slice(0, MAX_TOOL_OUTPUT_CHARS)}\n… [output truncated at ${MAX_TOOL_OUTPUT_CHARS} of ${full.length} characters; narrow the request]`
          : full;
        return finish({
          success: true,
          data,
          truncated: truncated || outcome.truncated === true,
          display: { title, ...outcome.display, ...(truncated && !outcome.display?.details ? { details: full } : {}) },
        });
      } catch (err) {
        // Redis or a cancelled signal: not the model's fault, but the loop still gets a well-formed result.
        if (err instanceof IpuaroError && err.type === "redis") throw err;
        const message = err instanceof Error ? err.message : String(err);
        return finish({ success: false, error: message, code: errorCodeFor(err), display: { title, summary: message } });
      }
    },
  };
}
