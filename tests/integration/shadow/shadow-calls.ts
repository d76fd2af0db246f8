// Calls a shadow tool the way the agent loop does (through defineTool's run) and reads its JSON back.
import { expect } from "vitest";
import type { RegisteredTool } from "../../../src/main/tools/define-tool.js";
import type { ToolContext } from "../../../src/main/tools/tool-types.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- results are checked field by field
export type Json = any;

export async function call(tool: RegisteredTool, args: unknown, ctx: ToolContext): Promise<Json> {
  const r = await tool.run("t1", args, ctx);
  expect(r.error, `${tool.name} ${JSON.stringify(args)}`).toBeUndefined();
  expect(r.success).toBe(true);
  return JSON.parse(r.data!);
}

/** Runs a call that must fail with the given SHADOW_ERR_ code; returns the parsed envelope. */
export async function fails(tool: RegisteredTool, args: unknown, ctx: ToolContext, code: string): Promise<Json> {
  const r = await tool.run("t1", args, ctx);
  expect(r.success, `${tool.name} ${JSON.stringify(args)} should fail with ${code}; got ${r.data?.slice(0, 200)}`).toBe(false);
  const envelope = JSON.parse(r.error!);
  expect(envelope.code, r.error).toBe(code);
  expect(envelope.error).toBe(true);
  expect(typeof envelope.message).toBe("string");
  expect(typeof envelope.details.retryable).toBe("boolean");
  return envelope;
}
