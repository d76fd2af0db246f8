// Which files' imports could change when a file appears or disappears. The resolver probes
// `<base><ext>` and `<base>/index<ext>`, so a specifier can only resolve to a file whose stem (or, for an
// index file, whose folder name) equals the specifier's last segment. Indexing importers by that key lets
// a created file re-resolve a handful of importers instead of the whole project.
import path from "node:path";
import type { ProjectLayout } from "../graph/project-layout.js";

const posix = path.posix;
/** Longest first, so `x.d.ts` loses `.d.ts`, not just `.ts`. */
const STRIPPED_EXTENSIONS = [".d.ts", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json"];

function stripExtension(name: string): string {
  for (const ext of STRIPPED_EXTENSIONS) if (name.endsWith(ext) && name.length > ext.length) return name.slice(0, -ext.length);
  return name;
}

function dirOf(p: string): string {
  const d = posix.dirname(p);
  return d === "." ? "" : d;
}

/** Key of one import specifier written in `fromFile`; null for specifiers that never name a project file. */
export function specifierKey(fromFile: string, spec: string): string | null {
  if (!spec || spec.startsWith("node:") || spec.startsWith("/")) return null;
  if (spec.startsWith(".")) {
    const joined = posix.normalize(posix.join(dirOf(fromFile), spec));
    if (joined === "." || joined === "") return "";
    if (joined.startsWith("..")) return null;
    return stripExtension(posix.basename(joined));
  }
  return stripExtension(spec.slice(spec.lastIndexOf("/") + 1));
}

/** Keys under which importers of `file` are found: its stem, and its folder's name for index files. */
export function fileKeys(file: string): string[] {
  const stem = stripExtension(posix.basename(file));
  if (stem !== "index") return [stem];
  const dir = dirOf(file);
  return [stem, dir === "" ? "" : posix.basename(dir)];
}

/**
 * Specifiers whose target the layout picks rather than the name: a workspace package's root (its
 * package.json entries), a subpath export, an exact tsconfig alias. Their importers are re-checked after
 * any file is created or deleted.
 */
export function layoutBoundMatcher(layout: ProjectLayout): (spec: string) => boolean {
  const exactAliases = new Set<string>();
  for (const scope of layout.scopes.values()) for (const a of scope.aliases) if (!a.wildcard) exactAliases.add(a.pattern);
  return (spec) => {
    if (spec.startsWith(".") || spec.startsWith("/") || spec.startsWith("node:")) return false;
    if (exactAliases.has(spec)) return true;
    const slash = spec.indexOf("/", spec.startsWith("@") ? spec.indexOf("/") + 1 : 0);
    const name = slash === -1 ? spec : spec.slice(0, slash);
    const pkg = layout.packages.get(name);
    if (!pkg) return false;
    if (name === spec) return true;
    for (const _ in pkg.subpaths) return true;
    return false;
  };
}
