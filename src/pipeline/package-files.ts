// Files of ipuaro's own package (the index worker's script, the baseline's child process, config/,
// package.json). The code runs from its TypeScript sources (tests, tsx), from dist/ as tsc leaves it,
// or bundled into dist/cli/ (what bin/ipuaro.js loads): each at its own depth below the package root,
// so paths are found from the root, not from the module's own place.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** True under tsx (tests, `npm run bench:*`): the worker and the child process then start from sources too. */
export const RUNNING_FROM_SOURCE = import.meta.url.endsWith(".ts");

let root: string | null = null;

/** The folder holding ipuaro's package.json, found by walking up from this module. */
export function packageRoot(): string {
  if (root !== null) return root;
  const here = fileURLToPath(import.meta.url);
  for (let dir = path.dirname(here); ; dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: unknown };
      if (manifest.name === "ipuaro") return (root = dir);
    } catch {
      // no package.json here (or another package's being written): keep walking up
    }
    if (path.dirname(dir) === dir) throw new Error(`ipuaro's package.json was not found above ${here}`);
  }
}

/** A path inside the package: `packageFile("config")`, `packageFile("dist", "workers", "index.worker.js")`. */
export function packageFile(...parts: string[]): string {
  return path.join(packageRoot(), ...parts);
}
