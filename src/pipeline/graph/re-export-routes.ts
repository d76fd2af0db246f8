// Where a name imported from a barrel is declared. A call to `fn` imported from `@acme/core` lands on the
// package's index.ts; its re-exports lead on: `export { fn } from "./x"` by name, `export * from "./y"`
// when y (or a barrel under it) exports fn. Monorepo barrels nest (package index → folder indexes →
// files), so a star re-export is taken only when the name can be found below it: taking the first star
// whatever it held sent a third of the calls of a generated 12K-file monorepo to files that do not
// declare the name. A name found nowhere stops the search at the barrel the import points to.
// A re-export under another name renames on the way: `export { shout as yell } from "./text"` leads
// `yell` to text.ts's `shout`, `export * as ns from "./x"` leads `ns.fn` to x's `fn`, and a route that
// ends at `default` names the declaration the default export points to (`export default class Knob`).
import type { GraphInput } from "./graph-builder.js";
import type { ImportResolver } from "./import-resolver.js";
import { exportedName, forwardedName, headOf, noteMissing, type FileReExports, type Hop, type HopLookup, type ReExportEntry, type ReExporter } from "./re-export-hops.js";
import { objectArray } from "./object-array.js";

/** Re-export hops followed from the imported file to the declaring one. */
export const MAX_REEXPORT_HOPS = 5;

export { exportedName, forwardedName, headOf, type Hop, type HopLookup, type ReExporter } from "./re-export-hops.js";

const DEFAULT = "default";
/** The module object a `require()` binding stands for (`util.fn` is `=.fn` in util.js). */
const MODULE = "=";

/** An answer that waits for a missing file. */
interface Waiting<T> {
  value: T;
  missing: string;
}

/** What a module exports, once it and every module its stars lead to are known; else why not yet. */
type ExportSet = { names: ReadonlySet<string>; missing: null } | { names: null; missing: string | null };

/**
 * Routes names through re-exports over a set of files. A module's exported names are gathered once it
 * and everything below its stars are known; until then (or round a cycle of stars) the search walks the
 * modules. An instance must live no longer than its files stay as they are, but for files being added:
 * a run, or one batch of the live index.
 */
export class ReExportRoutes {
  private readonly exportSets = new Map<string, Set<string>>();
  private readonly declared = new Map<string, ReadonlySet<string>>();
  /** Each file's re-exports, resolved once (see FileReExports). */
  private readonly reExports = new Map<string, FileReExports>();
  /** Modules whose set could not be gathered, with the file missing below, while no file is added. */
  private readonly unsettled = new Map<string, string | null>();
  /** `file#name` → the hop from there; the live index asks about the same barrels again and again. */
  private readonly hops = new Map<string, Hop | null>();
  /** Call target → where the barrels lead it. */
  private readonly finals = new Map<string, string>();
  /**
   * Answers that waited for a missing file (with it), while no file is added: when a barrel arrives
   * late, the calls waiting for it are retried at once, and many ask the same questions.
   */
  private readonly waitingHops = new Map<string, Waiting<Hop | null>>();
  private readonly waitingFinals = new Map<string, Waiting<string>>();
  /** Missing file → the keys of waiting answers (and unsettled modules) that named it. */
  private readonly waitersOf = new Map<string, { map: Map<string, unknown>; key: string }[]>();
  /** Files added since the last look, as the caller told (see fileAdded). */
  private readonly arrived: string[] = [];
  private filesSeen = -1;

  constructor(
    private readonly files: Map<string, GraphInput>,
    private resolver: ImportResolver,
  ) {}

  /**
   * One hop from `file` for `name`: the module it re-exports the name from (by name, else the first star
   * re-export that exports it) with the name there, or null when the search stops at `file` (it declares
   * the name, forwards nothing for it, or is not known).
   */
  hop(file: string, name: string, lookup?: HopLookup): Hop | null {
    return this.remembered(this.hops, this.waitingHops, `${file}#${name}`, lookup, (own) => this.computeHop(file, name, own));
  }

  /**
   * Follows re-exports from `target` to the file that declares `name` (at most MAX_REEXPORT_HOPS hops):
   * the call target `file#name` there, under the name that file gives it.
   */
  follow(target: string, name: string, lookup?: HopLookup): string {
    return this.remembered(this.finals, this.waitingFinals, `${target}#${name}`, lookup, (own) => {
      let at: Hop = { file: target, name: this.moduleMember(target, name, own) };
      for (let hop = 0; hop < MAX_REEXPORT_HOPS; hop++) {
        const next = this.hop(at.file, at.name, own);
        if (next === null) break;
        at = next;
      }
      return `${at.file}#${this.declaredDefault(at, own)}`;
    });
  }

  /** An answer from memory, or computed and kept: for good when no file was missing, else until one is added. */
  private remembered<T>(settled: Map<string, T>, waiting: Map<string, Waiting<T>>, key: string, lookup: HopLookup | undefined, compute: (own: HopLookup) => T): T {
    this.freshen();
    if (settled.has(key)) return settled.get(key) as T;
    const held = waiting.get(key);
    if (held) {
      noteMissing(lookup, held.missing);
      return held.value;
    }
    const own: HopLookup = { missing: false };
    const value = compute(own);
    if (own.missing) {
      const missing = own.missingFile as string;
      noteMissing(lookup, missing);
      waiting.set(key, { value, missing });
      this.waitFor(missing, waiting, key);
    } else settled.set(key, value);
    return value;
  }

  private waitFor(missing: string, map: Map<string, unknown>, key: string): void {
    const list = this.waitersOf.get(missing);
    if (list) list.push({ map, key });
    else this.waitersOf.set(missing, [{ map, key }]);
  }

  /**
   * The caller added `file` to the files (a run's graph does, one by one). Answers that waited for
   * another file stand: a search stops at the first missing file it meets, so until that one comes its
   * answer can only be held up, not turn wrong (the caller retries when it comes, and a run's end
   * settles every call again). Without word of each file, any addition forgets every waiting answer.
   */
  fileAdded(file: string): void {
    this.arrived.push(file);
  }

  /**
   * `=` (the module object) or `=.x` as what it is in `file`: `Foo` / `Foo.x` when the module is
   * `module.exports = Foo`, else the module's own `x` (`exports.x = …`).
   */
  private moduleMember(file: string, name: string, lookup: HopLookup): string {
    if (headOf(name) !== MODULE) return name;
    const input = this.files.get(file);
    if (!input) {
      noteMissing(lookup, file);
      return name;
    }
    const declared = input.facts.moduleName;
    if (declared) return declared + name.slice(MODULE.length);
    return name.length > MODULE.length ? name.slice(MODULE.length + 1) : name;
  }

  /** `default` (or `default.x`) as the name the file declares its default export under, when it names one. */
  private declaredDefault(at: Hop, lookup: HopLookup): string {
    if (headOf(at.name) !== DEFAULT) return at.name;
    const input = this.files.get(at.file);
    if (!input) {
      noteMissing(lookup, at.file);
      return at.name;
    }
    const declared = input.facts.defaultName;
    return declared ? declared + at.name.slice(DEFAULT.length) : at.name;
  }

  private computeHop(file: string, name: string, lookup: HopLookup): Hop | null {
    const input = this.files.get(file);
    if (!input) {
      noteMissing(lookup, file);
      return null;
    }
    if (this.declaredIn(file, input).has(name)) return null;
    const head = headOf(name);
    const { byName, stars } = this.reExportsOf(file, input);
    const named = byName.get(head);
    if (named) {
      const [, target, source] = named;
      const there = target === null ? null : forwardedName(source, head, name);
      return target === null || there === null ? null : { file: target, name: there };
    }
    // `export *` forwards every name but the default export; a module object is not routed on.
    if (head === DEFAULT || head === MODULE) return null;
    // Package barrels hold hundreds of stars, mostly over modules already gathered: those answer from
    // their sets, with nothing allocated per star.
    for (const target of stars) {
      if (target === file) continue;
      const gathered = this.exportSets.get(target);
      if (gathered) {
        if (gathered.has(name) || gathered.has(head)) return { file: target, name };
        continue;
      }
      const below: HopLookup = { missing: false };
      if (this.exports(target, name, below, new Set([file]))) return { file: target, name };
      // An earlier star takes precedence: while one below it is unknown, so is the answer.
      if (below.missing) {
        noteMissing(lookup, below.missingFile as string);
        return null;
      }
    }
    return null;
  }

  /**
   * Files came or went, changed their re-exports, or now resolve them elsewhere (`resolver` is the one
   * that resolves imports now): forgets what they and every module above them export, and the hops and
   * targets that start at one of those (a route only goes down through re-exports, so one that starts
   * elsewhere never meets them). What other barrels export stands, gathered at some cost.
   */
  forgetFiles(paths: Iterable<string>, resolver: ImportResolver, reExporters: (p: string) => Iterable<{ file: string }>): void {
    this.resolver = resolver;
    const pending = [...paths];
    const seen = new Set<string>();
    for (let f = pending.pop(); f !== undefined; f = pending.pop()) {
      if (seen.has(f)) continue;
      seen.add(f);
      this.declared.delete(f);
      this.reExports.delete(f);
      this.exportSets.delete(f);
      for (const up of reExporters(f)) pending.push(up.file);
    }
    const startsIn = (key: string) => seen.has(key.slice(0, key.lastIndexOf("#")));
    for (const key of this.hops.keys()) if (startsIn(key)) this.hops.delete(key);
    for (const key of this.finals.keys()) if (startsIn(key)) this.finals.delete(key);
    this.forgetWaiting();
  }

  /**
   * A file's symbols changed (its re-exports did not, and no file came or went): forgets its own facts
   * and every answer about a changed name, and brings the export sets of the modules above it up to date
   * (`reExporters` gives a module's re-exporters, whether by `export *`, and the names they forward
   * under others: [exported, source]). Gained names are added along star re-exports; a lost one may still
   * come from elsewhere, so those sets are gathered again. Other answers stand: they route names the
   * change did not touch (under its names, or the names barrels above forward them under).
   */
  forgetSymbols(file: string, gained: ReadonlySet<string>, lost: ReadonlySet<string>, reExporters: (p: string) => Iterable<ReExporter>): void {
    this.declared.delete(file);
    const names = new Set([...gained, ...lost]);
    const heads = new Set([...names].map(headOf));
    const pending = [file];
    const seen = new Set<string>();
    for (let f = pending.pop(); f !== undefined; f = pending.pop()) {
      if (seen.has(f)) continue;
      seen.add(f);
      const set = this.exportSets.get(f);
      if (lost.size) this.exportSets.delete(f);
      else if (set) for (const n of gained) set.add(n);
      for (const up of reExporters(f)) {
        // A barrel that forwards one of the names under another: answers about that one change too.
        let renamed = false;
        for (const [exported, source] of up.renames)
          if (source === "*" || heads.has(source)) {
            names.add(exported);
            heads.add(exported);
            renamed = true;
          }
        // Names re-exported by name do not grow with the module's symbols.
        if (up.star || lost.size || renamed) pending.push(up.file);
      }
    }
    const touched = (key: string) => {
      const name = key.slice(key.lastIndexOf("#") + 1);
      // A member of a module object (`=.x`) is routed as the module's `x` from there.
      const member = name.startsWith(`${MODULE}.`) ? name.slice(MODULE.length + 1) : name;
      return names.has(name) || heads.has(headOf(name)) || names.has(member) || heads.has(headOf(member));
    };
    for (const key of this.hops.keys()) if (touched(key)) this.hops.delete(key);
    for (const key of this.finals.keys()) if (touched(key)) this.finals.delete(key);
    this.forgetWaiting();
  }

  /**
   * Files are only ever added while an instance lives: an answer that waited for a file expires when that
   * file comes (told by fileAdded), or when any file comes without word of which.
   */
  private freshen(): void {
    if (this.files.size === this.filesSeen) {
      this.arrived.length = 0;
      return;
    }
    const told = this.filesSeen >= 0 && this.arrived.length === this.files.size - this.filesSeen;
    this.filesSeen = this.files.size;
    if (told) for (const file of this.arrived) this.settleWaitersOf(file);
    else this.forgetWaiting();
    this.arrived.length = 0;
  }

  private settleWaitersOf(file: string): void {
    const waiters = this.waitersOf.get(file);
    if (!waiters) return;
    this.waitersOf.delete(file);
    for (const { map, key } of waiters) map.delete(key);
  }

  private forgetWaiting(): void {
    this.unsettled.clear();
    this.waitingHops.clear();
    this.waitingFinals.clear();
    this.waitersOf.clear();
  }

  /** Whether `file` declares `name` or re-exports it, by name or from a module below a star that does. */
  private exports(file: string, name: string, lookup: HopLookup, visiting: Set<string>): boolean {
    const head = headOf(name);
    const gathered = this.exportSet(file);
    // The set holds declared and re-exported names alike: `A.b` is found where `A` is.
    if (gathered.names) return gathered.names.has(name) || gathered.names.has(head);
    const input = this.files.get(file);
    if (!input) {
      noteMissing(lookup, file);
      return false;
    }
    if (visiting.has(file)) return false;
    const declared = this.declaredIn(file, input);
    if (declared.has(name) || declared.has(head)) return true;
    // Not all known below it (or a cycle): walk the stars; known modules answer from their sets.
    visiting.add(file);
    const below: HopLookup = { missing: false };
    let found = false;
    for (const [n, target] of this.reExportsOf(file, input).list) {
      if (n === head) found = target !== null;
      else if (n === "*") found = !!target && this.exports(target, name, below, visiting);
      if (found) break;
    }
    visiting.delete(file);
    // Missing modules matter only if nothing below found the name.
    if (!found && below.missing) noteMissing(lookup, below.missingFile as string);
    return found;
  }

  private declaredIn(file: string, input: GraphInput): ReadonlySet<string> {
    let names = this.declared.get(file);
    if (!names) this.declared.set(file, (names = new Set(input.facts.symbols.map((s) => s.name))));
    return names;
  }

  private reExportsOf(file: string, input: GraphInput): FileReExports {
    let known = this.reExports.get(file);
    if (!known) {
      // By the name they export: a call imports `b` from a barrel that says `export { a as b }`.
      const list = objectArray<ReExportEntry>();
      const byName = new Map<string, ReExportEntry>();
      const stars = objectArray<string>();
      for (const i of input.facts.imports) {
        if (!i.isReExport) continue;
        const n = exportedName(i);
        const target = this.resolver.resolve(file, i.from);
        const entry = [n, target, i.name] as const;
        list.push(entry);
        if (n !== "*") {
          if (!byName.has(n)) byName.set(n, entry);
        } else if (target) stars.push(target);
      }
      this.reExports.set(file, (known = { list, byName, stars }));
    }
    return known;
  }

  /** The names `file` exports: its symbols, its named re-exports and everything its stars lead to. */
  private exportSet(file: string, building = new Set<string>()): ExportSet {
    const done = this.exportSets.get(file);
    if (done) return { names: done, missing: null };
    if (this.unsettled.has(file)) return { names: null, missing: this.unsettled.get(file) as string | null };
    const input = this.files.get(file);
    if (!input) return { names: null, missing: file };
    // Round a cycle of stars the set would depend on itself: searched module by module instead.
    if (building.has(file)) return { names: null, missing: null };
    building.add(file);
    const named = objectArray<string>();
    const stars = objectArray<ReadonlySet<string>>();
    let blocked: ExportSet | null = null;
    // Every module below first, so a barrel still waiting for one does not gather names in vain.
    for (const [n, target] of this.reExportsOf(file, input).list) {
      if (!target) continue;
      if (n !== "*") {
        named.push(n);
        continue;
      }
      const below = this.exportSet(target, building);
      if (!below.names) {
        blocked = below;
        break;
      }
      stars.push(below.names);
    }
    building.delete(file);
    if (blocked) {
      this.unsettled.set(file, blocked.missing);
      // Round a cycle (no missing file) it stays so: files are only added while an instance lives.
      if (blocked.missing !== null) this.waitFor(blocked.missing, this.unsettled, file);
      return blocked;
    }
    const names = new Set<string>(named);
    for (const n of this.declaredIn(file, input)) names.add(n);
    for (const set of stars) for (const n of set) names.add(n);
    this.exportSets.set(file, names);
    return { names, missing: null };
  }
}
