// The symbol index as the graph is streamed: a symbol's locations are sent the moment its first file
// arrives; a symbol that a later file declares too is rebuilt from the files' kept symbols, gathered as
// the files arrive, and sent whole at the end (sendGrown).
import type { GraphFacts } from "../../workers/protocol.js";
import { INDEX_FIELD, type FieldChunker } from "./graph-serialiser.js";

/** A file with at most this many symbols is scanned for a shared name instead of indexed by name. */
const SCANNED_SYMBOLS = 64;

type FileSymbols = GraphFacts["symbols"];

/** The text JSON.stringify({ path, line, kind }) gives, without an object per symbol (~75K of them). */
function locationJson(pathJson: string, s: { line: number; kind: string }): string {
  return `{"path":${pathJson},"line":${s.line},"kind":${JSON.stringify(s.kind)}}`;
}

export class StreamedSymbols {
  /**
   * The files that declare each symbol, in arrival order. A symbol's JSON is sent when first
   * seen and rebuilt from the files' kept symbols only if it gains a location; keeping the sent JSON
   * instead held ~20 MB on a 12K-file index, all of it copied and marked by the GC while workers parse.
   */
  private readonly symbolFiles = new Map<string, string | string[]>();
  /**
   * Symbols that gained a location after they were sent: every location's JSON, file by file in arrival
   * order, gathered as the files arrive so the run's serial end only joins them (≈ 2.5K names, 20 ms).
   */
  private readonly grownSymbols = new Map<string, string[]>();
  /** A large file's kept symbols by name, made when a name it declares is first shared (locationsIn). */
  private readonly symbolsByName = new Map<string, Map<string, FileSymbols>>();

  /** `symbolsOf`: a file's kept symbols, for every file added so far. */
  constructor(
    private readonly out: FieldChunker,
    private readonly symbolsOf: (p: string) => FileSymbols,
  ) {}

  /** A file's symbols as it arrives (symbolsOf must know it already). */
  fileAdded(p: string, symbols: FileSymbols): void {
    const pathJson = JSON.stringify(p);
    for (const s of symbols) {
      const seen = this.symbolFiles.get(s.name);
      if (seen === undefined) {
        this.symbolFiles.set(s.name, p);
        this.out.index(INDEX_FIELD.symbol(s.name), `[${locationJson(pathJson, s)}]`);
        continue;
      }
      // A file that declares a name twice (overloads) is listed once, with all its declarations in order.
      let locations = this.grownSymbols.get(s.name);
      if (!locations) {
        const first = typeof seen === "string" ? seen : (seen[0] as string);
        this.grownSymbols.set(s.name, (locations = this.locationsIn(first, first === p ? pathJson : JSON.stringify(first), s.name)));
        if (first === p) continue;
      } else if (seen === p || (typeof seen !== "string" && seen[seen.length - 1] === p)) continue;
      locations.push(...this.locationsIn(p, pathJson, s.name));
      if (typeof seen === "string") this.symbolFiles.set(s.name, [seen, p]);
      else seen.push(p);
    }
  }

  /** At the end of the run: the symbols that gained locations, each with all of them. */
  sendGrown(): void {
    for (const [name, locations] of this.grownSymbols) this.out.index(INDEX_FIELD.symbol(name), `[${locations.join(",")}]`);
  }

  /** The JSON of each declaration of `name` in a file (from its kept symbols), in order. */
  private locationsIn(p: string, pathJson: string, name: string): string[] {
    const symbols = this.symbolsOf(p);
    const out: string[] = [];
    if (symbols.length <= SCANNED_SYMBOLS) {
      for (const s of symbols) if (s.name === name) out.push(locationJson(pathJson, s));
      return out;
    }
    // Two copies of a generated file share every name: a scan per shared name was quadratic (85K
    // functions each: minutes of a main thread that read no signals and no Redis replies).
    let byName = this.symbolsByName.get(p);
    if (!byName) {
      byName = new Map();
      for (const s of symbols) {
        const list = byName.get(s.name);
        if (list) list.push(s);
        else byName.set(s.name, [s]);
      }
      this.symbolsByName.set(p, byName);
    }
    for (const s of byName.get(name) ?? []) out.push(locationJson(pathJson, s));
    return out;
  }
}
