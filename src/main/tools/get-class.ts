// get_class: one class (or interface, type alias, enum) of a file, numbered, by the index's line range.
import { z } from "zod";
import { findDeclarations, loadCodeFile, notFoundMessage, renderDeclarations } from "./declaration-lookup.js";
import { defineTool } from "./define-tool.js";
import { parseSymbolName } from "./symbol-name.js";

export const getClass = defineTool({
  name: "get_class",
  category: "read",
  description:
    "Read one class of a file (interfaces, type aliases and enums too), with numbered lines. A class longer than 400 lines comes with its method outline; read single methods with get_function and \"Class.method\". Paths are relative to the project root.",
  parameters: z
    .object({
      path: z.string().min(1).describe("File path relative to the project root"),
      name: z.string().min(1).describe("Class (or interface/type/enum) name"),
    })
    .strict(),
  requiresConfirmation: false,
  title: (a) => `get_class ${a.path} ${a.name}`,
  async execute(args, ctx) {
    const name = parseSymbolName(args.name);
    if (!name.ok) return name;
    const file = await loadCodeFile(ctx, args.path);
    if (!file.ok) return file;
    const found = findDeclarations(file.ast, name.name, "class");
    if (!found.length) return { ok: false, code: "NOT_FOUND", message: await notFoundMessage(ctx, file, name.name, "class") };
    return renderDeclarations(ctx, file, found);
  },
});
