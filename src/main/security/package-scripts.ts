// Which names are package.json scripts in the project. `pnpm build` and `yarn build` run the script
// `build` when there is one, and a program called `build` when there is none, so the policy needs to
// know. The root's scripts count, and so do those of its workspace packages (pnpm-workspace.yaml,
// package.json "workspaces", found as the index's layout finds them): `pnpm -r build` and `yarn
// workspace web build` run a member's. Read lazily, once per judged line, never through a symlink: what
// is not found is judged as a program, the stricter reading.
// The scripts' bodies are read too, for what they write through links (script-writes.ts).
import fs from "node:fs";
import path from "node:path";
import { workspaceFolders } from "../../pipeline/graph/project-layout.js";
import type { PeelContext } from "./peeling.js";

/** A JSON file's object, or null when it is missing, unreadable or no JSON object. */
export function readJson(file: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function scriptsOf(manifest: Record<string, unknown> | null): Record<string, unknown> {
  const scripts = manifest?.scripts;
  return scripts !== null && typeof scripts === "object" && !Array.isArray(scripts) ? (scripts as Record<string, unknown>) : {};
}

/** A peel context whose scripts are read from `root` the first time a name is asked about. */
export function projectScripts(root: string): PeelContext {
  let names: Set<string> | null = null;
  return {
    isScript(name) {
      names ??= new Set(scriptTable(path.resolve(root)).keys());
      return names.has(name);
    },
  };
}

/** A package.json script: the folder of its package (relative to the root, "." for the root's) and its body. */
export interface ScriptBody {
  folder: string;
  body: string;
}

/** Every script of the project at `root` by name: the root package's and its workspace members'. */
export function scriptTable(root: string): Map<string, ScriptBody[]> {
  const table = new Map<string, ScriptBody[]>();
  for (const folder of [".", ...workspaceFolders(root)]) {
    for (const [name, body] of Object.entries(scriptsOf(readJson(path.join(root, folder, "package.json"))))) {
      if (typeof body !== "string") continue;
      const bodies = table.get(name) ?? [];
      bodies.push({ folder, body });
      table.set(name, bodies);
    }
  }
  return table;
}
