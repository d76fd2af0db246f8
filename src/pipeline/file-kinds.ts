// Which files the index holds, by extension.
import path from "node:path";

export const INDEXED_EXTENSIONS = new Set([".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json", ".yaml", ".yml"]);

export type FileClass = "source" | "binary" | "unsupported";

export function classifyPath(rel: string, binaryExtensions: ReadonlySet<string>): FileClass {
  const ext = path.extname(rel).toLowerCase();
  if (INDEXED_EXTENSIONS.has(ext)) return "source";
  if (binaryExtensions.has(ext)) return "binary";
  return "unsupported";
}
