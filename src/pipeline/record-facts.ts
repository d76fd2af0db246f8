// A parsed file's graph facts as a worker sent them: as an object, or, when the task packed its values,
// only as the JSON bytes bound for `project:{name}:facts` (they cross the thread once, not twice).
import type { IndexedRecord } from "../workers/protocol.js";
import type { GraphInput } from "./graph/graph-builder.js";

const utf8 = new TextDecoder();

export function factsOf(r: Extract<IndexedRecord, { kind: "text" }>): GraphInput {
  if (r.facts) return { facts: r.facts, complexity: r.complexity };
  return JSON.parse(typeof r.factsJson === "string" ? r.factsJson : utf8.decode(r.factsJson)) as GraphInput;
}
