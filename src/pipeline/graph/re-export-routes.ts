// Where a name imported from a barrel is declared. A call to `fn` imported from `@acme/core` lands on the
// package's index.ts; its re-exports lead on: `export { fn } from "./x"` by name, `export * from "./y"`
// when y (or a barrel under it) exports fn. Monorepo barrels nest (package index → folder indexes →
// files), so a star re-export is taken only when the name can be found below it: taking the first star
// whatever it held sent a third of the calls of a generated 12K-file monorepo to files that do not
// declare the name. A name found nowhere stops the search at the barrel the import points to.
import type { GraphInput } from "./graph-builder.js";
import type { ImportResolver } from "./import-resolver.js";

/** Re-export hops followed from the imported file to the declaring one. */
export const MAX_REEXPORT_HOPS = 5;

/** Set when a search looked up a file the map does not hold (yet): its answer may change when it comes. */
export interface HopLookup {
  missing: boolean;
  /** The first file looked up and not found. */
  missingFile?: string;
}

function noteMissing(lookup: HopLookup | undefined, file: string): void {
  if (!lookup) return;
  lookup.missing = true;
  lookup.missingFile ??= file;
}

export const headOf = (name: string): string => name.split(".")[0] as string;

/**
 * Routes names through re-exports over a set of files. Answers are memoised when no file was missing on
 * the way, so an instance must live no longer than its files stay as they are (a run, where files are
 * only added, or one batch of the live index).
 */
export class ReExportRoutes {
  private readonly declared = new Map<string, ReadonlySet<string>>();
  /** `file#name` → whether the file exports the name (settled answers only). */
  private readonly exported = new Map<string, boolean>();
  /** Call target → where the barrels lead it (settled answers only). */
  private readonly finals = new Map<string, string>();

  constructor(
    private readonly files: Map<string, GraphInput>,
    private readonly resolver: ImportResolver,
  ) {}

  /**
   * One hop from `file` for `name`: the module it re-exports the name from (by name, else the first star
   * re-export that exports it), or null when the search stops at `file` (it declares the name, forwards
   * nothing for it, or is not known).
   */
  hop(file: string, name: string, lookup?: HopLookup): string | null {
    const input = this.files.get(file);
    if (!input) {
      noteMissing(lookup, file);
      return null;
    }
    if (this.declares(file, input, name)) return null;
    const head = headOf(name);
    for (const i of input.facts.imports) if (i.isReExport && i.name === head) return this.resolver.resolve(file, i.from);
    for (const i of input.facts.imports) {
      if (!i.isReExport || i.name !== "*") continue;
      const target = this.resolver.resolve(file, i.from);
      if (!target) continue;
      const below: HopLookup = { missing: false };
      if (this.exports(target, name, below, new Set([file])).found) return target;
      // An earlier star takes precedence: while one below it is unknown, so is the answer.
      if (below.missing) {
        noteMissing(lookup, below.missingFile as string);
        return null;
      }
    }
    return null;
  }

  /** Follows re-exports from `target` to the file that declares `name` (at most MAX_REEXPORT_HOPS hops). */
  follow(target: string, name: string, lookup?: HopLookup): string {
    const key = `${target}#${name}`;
    const known = this.finals.get(key);
    if (known !== undefined) return known;
    const own: HopLookup = { missing: false };
    let file = target;
    for (let hop = 0; hop < MAX_REEXPORT_HOPS; hop++) {
      const next = this.hop(file, name, own);
      if (next === null) break;
      file = next;
    }
    if (own.missing) {
      if (lookup) noteMissing(lookup, own.missingFile as string);
    } else this.finals.set(key, file);
    return file;
  }

  /**
   * Whether `file` declares `name` or re-exports it from a module that does, searching the whole tree
   * of star re-exports below it. Settled answers are memoised: found, or not found with every module
   * below known and no cycle cut short (a module already being searched higher up answers "not here").
   */
  private exports(file: string, name: string, lookup: HopLookup, visiting: Set<string>): { found: boolean; settled: boolean } {
    const key = `${file}#${name}`;
    const known = this.exported.get(key);
    if (known !== undefined) return { found: known, settled: true };
    const input = this.files.get(file);
    if (!input) {
      noteMissing(lookup, file);
      return { found: false, settled: false };
    }
    if (visiting.has(file)) return { found: false, settled: false };
    let found = this.declares(file, input, name);
    let settled = true;
    if (!found) {
      visiting.add(file);
      // Missing modules matter only if nothing below finds the name.
      const below: HopLookup = { missing: false };
      const head = headOf(name);
      for (const i of input.facts.imports) {
        if (!i.isReExport || (i.name !== head && i.name !== "*")) continue;
        const target = this.resolver.resolve(file, i.from);
        if (i.name === head) {
          found = target !== null;
          break;
        }
        if (!target) continue;
        const result = this.exports(target, name, below, visiting);
        settled &&= result.settled;
        if (result.found) {
          found = true;
          break;
        }
      }
      visiting.delete(file);
      if (!found && below.missing) noteMissing(lookup, below.missingFile as string);
    }
    if (found || settled) this.exported.set(key, found);
    return { found, settled: found || settled };
  }

  private declares(file: string, input: GraphInput, name: string): boolean {
    let names = this.declared.get(file);
    if (!names) this.declared.set(file, (names = new Set(input.facts.symbols.map((s) => s.name))));
    return names.has(name);
  }
}
