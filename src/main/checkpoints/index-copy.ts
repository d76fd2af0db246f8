// The exact bytes of a file as the index last saw it, rebuilt from the copy Redis keeps. The index
// stores lines without their terminators, without the BOM and without saying whether the file ended
// with a newline, but it also stores the size and the xxhash of the raw bytes: each candidate (LF,
// CRLF or CR, final newline or not, BOM or not) is checked against both, so what comes back is byte-exact or
// nothing (a file mixing LF and CRLF cannot be rebuilt this way).
import { hashContent } from "../../pipeline/watch/content-hash.js";
import type { ProjectStore } from "../store/project-store.js";

const BOM = "\uFEFF";

export interface IndexedVersion {
  size: number;
  /** The index's content hash (xxhash64 hex). */
  hash: string;
}

/** Candidate byte strings for stored lines, most common shapes first. */
function candidates(lines: readonly string[]): Buffer[] {
  const out: Buffer[] = [];
  for (const bom of [false, true]) {
    for (const eol of ["\n", "\r\n", "\r"]) {
      const body = lines.join(eol);
      for (const trailing of [true, false]) out.push(Buffer.from(`${bom ? BOM : ""}${body}${trailing ? eol : ""}`, "utf8"));
    }
  }
  return out;
}

/** Rebuilds the bytes of `lines` that have exactly this size and hash; null when none does. */
export async function bytesFromLines(lines: readonly string[], version: IndexedVersion): Promise<Buffer | null> {
  for (const bytes of candidates(lines)) {
    if (bytes.length !== version.size) continue;
    if ((await hashContent(bytes)) === version.hash) return bytes;
  }
  return null;
}

/** The index's copy of `rel` at `version` (null: not held as text, another version, or not rebuildable). */
export async function indexedBytes(store: Pick<ProjectStore, "getFile">, rel: string, version: IndexedVersion): Promise<Buffer | null> {
  const file = await store.getFile(rel);
  if (!file || file.kind !== "text" || file.hash !== version.hash) return null;
  return bytesFromLines(file.lines, version);
}
