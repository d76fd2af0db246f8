// A file's call sites resolved as far as the file's own facts allow: to a symbol it declares, to one it
// imports (under the name the module gives it), or to one a namespace around the caller declares.
// Targets that land on a barrel are moved on to the declaring file later (re-export-routes.ts).
import type { GraphFacts } from "../../workers/protocol.js";
import { mapObjects } from "./object-array.js";

export interface ResolvedCall {
  caller: string;
  callee: string;
  line: number;
  /** `path#symbol` when the callee could be resolved to a declaration in the project. */
  target?: string;
}

/**
 * The target of a call whose head is imported (`via` from importedFrom): the whole callee, so `Money.of()`
 * with Money imported is `money.ts#Money.of`, the method's own symbol; under the module's own name when
 * the import renamed it; without the namespace for `ns.fn()`. A namespace called itself targets nothing.
 */
export function importedCallTarget(via: string, callee: string, head: string): string | undefined {
  if (!via.endsWith("#*")) return `${via}${callee.slice(head.length)}`;
  return callee.length > head.length ? `${via.slice(0, -1)}${callee.slice(head.length + 1)}` : undefined;
}

export function resolveCalls(p: string, facts: GraphFacts, importedFrom: Map<string, string>): ResolvedCall[] {
  const local = new Set<string>();
  const namespaces = new Set<string>();
  for (const s of facts.symbols) {
    local.add(s.name);
    if (s.kind === "namespace") namespaces.add(s.name);
  }
  return mapObjects(facts.calls, (c) => {
    const head = c.callee.split(".")[0] as string;
    let target: string | undefined;
    if (local.has(c.callee)) target = `${p}#${c.callee}`;
    else {
      const via = importedFrom.get(head);
      if (via !== undefined) target = importedCallTarget(via, c.callee, head);
      else if (namespaces.size) target = inNamespaceOf(c.caller, c.callee, namespaces, local, p);
    }
    // `target` is always present (undefined is left out of the JSON) and set at creation, so every call
    // has one shape (a field that starts undefined and turns string changes it, and deopts its readers).
    return { caller: c.caller, callee: c.callee, line: c.line, target };
  });
}

/**
 * A call made inside `namespace util { … }` to a name the namespace (or one around it) declares:
 * `assertEqual()` from `util.check` is `util.assertEqual`, the innermost namespace first.
 */
function inNamespaceOf(caller: string, callee: string, namespaces: ReadonlySet<string>, local: ReadonlySet<string>, p: string): string | undefined {
  for (let dot = caller.lastIndexOf("."); dot > 0; dot = caller.lastIndexOf(".", dot - 1)) {
    const scope = caller.slice(0, dot);
    if (namespaces.has(scope) && local.has(`${scope}.${callee}`)) return `${p}#${scope}.${callee}`;
  }
  return undefined;
}

/**
 * A call with its final target, as a new object of the same shape: writing `target` into the old one
 * made V8 change the class of every call (a field written after it was set is no longer constant) and
 * throw away the optimised code that read them.
 */
export function callTo(c: ResolvedCall, target: string | undefined): ResolvedCall {
  return { caller: c.caller, callee: c.callee, line: c.line, target };
}

/** A `file#name` call target split at its last `#`. */
export const splitTarget = (target: string) => {
  const hash = target.lastIndexOf("#");
  return { file: target.slice(0, hash), name: target.slice(hash + 1) };
};
