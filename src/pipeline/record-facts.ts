// A parsed file's graph facts as a worker sent them or the store kept them. Workers pack them only as
// the JSON bound for `project:{name}:facts` (they cross the thread once, not twice), so the graph side
// parses that JSON, here, in one way.
import type { IndexedRecord } from "../workers/protocol.js";
import type { GraphInput } from "./graph/graph-builder.js";
import { mapObjects, objectsOr } from "./graph/object-array.js";

const utf8 = new TextDecoder();

type ImportFact = GraphInput["facts"]["imports"][number];

/**
 * Stored import facts leave out false flags to stay small, so JSON.parse gives them up to eight
 * shapes; the graph code then runs on polymorphic objects and V8 throws its optimised code away again
 * and again ("wrong map"). Rebuilt with every field in one order they share a single shape.
 */
function uniformImport(i: ImportFact): ImportFact {
  return { from: i.from, name: i.name, isTypeOnly: i.isTypeOnly === true, isReExport: i.isReExport === true, isDynamic: i.isDynamic === true, as: typeof i.as === "string" ? i.as : "", imported: typeof i.imported === "string" ? i.imported : "" };
}

/**
 * Parses stored facts JSON (throws on malformed JSON, as JSON.parse does, or when facts or complexity
 * are missing). The objects are rebuilt from one literal per level for the same reason as the imports:
 * JSON.parse's objects change hidden class as their fields' types widen from file to file, and the
 * graph code optimised for one class was thrown away on meeting the next.
 */
export function parseGraphInput(json: string): GraphInput {
  const raw = JSON.parse(json) as Partial<GraphInput>;
  const facts = raw.facts;
  if (!facts || typeof facts !== "object" || !raw.complexity) throw new Error("damaged graph facts");
  return {
    facts: {
      imports: mapObjects(objectsOr(facts.imports), uniformImport),
      exports: objectsOr(facts.exports),
      symbols: objectsOr(facts.symbols),
      calls: objectsOr(facts.calls),
      defaultName: typeof facts.defaultName === "string" ? facts.defaultName : "",
      moduleName: typeof facts.moduleName === "string" ? facts.moduleName : "",
    },
    complexity: raw.complexity,
  };
}

export function factsOf(r: Extract<IndexedRecord, { kind: "text" }>): GraphInput {
  if (r.facts) return { facts: r.facts, complexity: r.complexity };
  return parseGraphInput(typeof r.factsJson === "string" ? r.factsJson : utf8.decode(r.factsJson));
}
