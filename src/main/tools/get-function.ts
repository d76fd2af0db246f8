// get_function: one function (or `Class.method`) of a file, numbered, by the index's line range.
import { z } from "zod";
import { findDeclarations, loadCodeFile, notFoundMessage, renderDeclarations } from "./declaration-lookup.js";
import { defineTool } from "./define-tool.js";
import { parseSymbolName } from "./symbol-name.js";

export const getFunction = defineTool({
  name: "get_function",
  category: "read",
  description:
    'Read one function of a file, with numbered lines. For a method use "Class.method" (e.g. "Money.add"). A method name alone works when it is unambiguous. Paths are relative to the project root.',
  parameters: z
    .object({
      path: z.string().min(1).describe("File path relative to the project root"),
      name: z.string().min(1).describe('Function name, or "Class.method" for a method'),
    })
    .strict(),
  requiresConfirmation: false,
  title: (a) => `get_function ${a.path} ${a.name}`,
  async execute(args, ctx) {
    const name = parseSymbolName(args.name);
    if (!name.ok) return name;
    const file = await loadCodeFile(ctx, args.path);
    if (!file.ok) return file;
    const found = findDeclarations(file.ast, name.name, "function");
    if (!found.length) return { ok: false, code: "NOT_FOUND", message: await notFoundMessage(ctx, file, name.name, "function") };
    return renderDeclarations(ctx, file, found);
  },
});
