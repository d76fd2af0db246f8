// The ordered list of tools the model may call (seed 000, "Tools модели"). The system prompt, argument
// validation, `/help` and `ipuaro tool` are all generated from it.
import type { ToolDescriptor } from "../llm/system-prompt.js";
import type { RegisteredTool } from "./define-tool.js";
import { analyze } from "./analyze.js";
import { contextInjectTool } from "./context-inject.js";
import { createFile } from "./create-file.js";
import { decide } from "./decide.js";
import { deleteFile } from "./delete-file.js";
import { editLines } from "./edit-lines.js";
import { findDefinition } from "./find-definition.js";
import { findReferences } from "./find-references.js";
import { getClass } from "./get-class.js";
import { getComplexity } from "./get-complexity.js";
import { getDependencies } from "./get-dependencies.js";
import { getDependents } from "./get-dependents.js";
import { getFunction } from "./get-function.js";
import { getLines } from "./get-lines.js";
import { getStructure } from "./get-structure.js";
import { getTodos } from "./get-todos.js";
import { memoryNote } from "./memory-note.js";
import { memorySearchTool } from "./memory-search.js";
import { memoryWrite } from "./memory-write.js";
import { gitCommit } from "./git-commit.js";
import { gitDiff } from "./git-diff.js";
import { gitStatus } from "./git-status.js";
import { runCommand } from "./run-command.js";
import { runTests } from "./run-tests.js";

export const TOOLS: readonly RegisteredTool[] = [
  // read
  getLines,
  getFunction,
  getClass,
  // edit
  editLines,
  createFile,
  deleteFile,
  // search
  findDefinition,
  findReferences,
  getStructure,
  // analysis
  getDependencies,
  getDependents,
  getComplexity,
  getTodos,
  // git and run
  gitStatus,
  gitDiff,
  gitCommit,
  runCommand,
  runTests,
  // project memory and analytics (seed 001)
  analyze,
  memoryWrite,
  memorySearchTool,
  memoryNote,
  contextInjectTool,
  decide,
];

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
