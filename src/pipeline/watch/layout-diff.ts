// Whether a tsconfig/package.json change altered what import resolution depends on (a version bump in a
// package.json does not), and which specifiers a layout types as internal.
import type { IndexTask } from "../../workers/protocol.js";
import type { ProjectLayout } from "../graph/project-layout.js";

/** Order-independent serialisation of the parts of the layout the resolver reads. */
export function layoutFingerprint(layout: ProjectLayout): string {
  const scopes = [...layout.scopes.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const packages = [...layout.packages.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify({ scopes, packages });
}

/** The worker's rule for typing a non-relative specifier internal (src/workers/index.worker.ts). */
export function specifierMatcher(internal: NonNullable<IndexTask["internalSpecifiers"]>): (spec: string) => boolean {
  const exact = new Set(internal.exact);
  return (spec) => exact.has(spec) || internal.prefixes.some((p) => spec.startsWith(p));
}
