// Which ipuaro wrote a project's index, by the schemaVersion in its config hash. An older index is
// wiped and rebuilt (its shapes are not read any more); a newer one is refused: this ipuaro would wipe
// what a newer ipuaro still uses, and that one would then wipe it back on every switch.
import { IpuaroError } from "../errors.js";

/** Bump when a stored shape changes incompatibly: older indexes are wiped and re-indexed, newer refused. */
// 4: code files carry complexity.generated (codegen output, bundles), which only a re-parse adds.
// 5: a lone CR ends a line (CR-only files were one line), which only a re-parse applies.
export const SCHEMA_VERSION = 5;

/** What a stored schemaVersion means to this ipuaro; null (not recorded) and junk count as older. */
export type StoredSchema = "current" | "older" | "newer";

export function storedSchema(stored: string | null): StoredSchema {
  if (stored === String(SCHEMA_VERSION)) return "current";
  const n = stored !== null && /^\d+$/.test(stored) ? Number(stored) : NaN;
  return n > SCHEMA_VERSION ? "newer" : "older";
}

export function newerSchemaError(project: string, stored: string): IpuaroError {
  return new IpuaroError("input", `the index of ${project} was written by a newer ipuaro (schema ${stored}, this one reads ${SCHEMA_VERSION})`, {
    recoverable: false,
    suggestion: "Upgrade ipuaro, or run `ipuaro index --force` to rebuild the index for this version (the newer ipuaro then rebuilds it again).",
  });
}
