// Source files under a directory for the AST benches: JS/TS only; node_modules, dist and .git skipped.
import { readdirSync } from "node:fs";
import { join } from "node:path";

const SKIPPED_DIRS = new Set(["node_modules", "dist", ".git"]);
const SOURCE_FILE = /\.(?:ts|tsx|js|jsx|mts|cts|mjs|cjs)$/;

/** Sorted for stable output. The root itself may be inside node_modules (e.g. a package's own dist). */
export function collectSourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(path);
      } else if (entry.isFile() && SOURCE_FILE.test(entry.name)) {
        out.push(path);
      }
    }
  };
  walk(root);
  return out.sort();
}
