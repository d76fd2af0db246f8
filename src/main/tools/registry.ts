// The ordered list of tools the model may call. The system prompt, argument validation, `/help` and
// `ipuaro tool` are all generated from it.
import type { ToolDescriptor } from "../llm/system-prompt.js";
import type { RegisteredTool } from "./define-tool.js";
import { getLines } from "./get-lines.js";
import { getStructure } from "./get-structure.js";

export const TOOLS: readonly RegisteredTool[] = [getLines, getStructure];

export class ToolRegistry {
  private readonly byName: Map<string, RegisteredTool>;

  constructor(readonly tools: readonly RegisteredTool[] = TOOLS) {
    this.byName = new Map(tools.map((t) => [t.name, t]));
  }

  get(name: string): RegisteredTool | undefined {
    return this.byName.get(name);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  names(): string[] {
    return this.tools.map((t) => t.name);
  }

  descriptors(): ToolDescriptor[] {
    return this.tools.map((t) => ({
      name: t.name,
      description: t.description,
      parameters: t.jsonSchema as ToolDescriptor["parameters"],
      requiresConfirmation: t.requiresConfirmation,
    }));
  }
}
