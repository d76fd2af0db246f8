// A file the tools read from disk by path (get_lines for a file the index does not hold, the edit
// tools' "before", git_commit's conflict check): fs/regular-file.ts refuses FIFOs, devices and files
// too large to read whole; here each refusal becomes an error the model can act on.
import { formatBytes } from "../checkpoints/blob-gc.js";
import { readRegularFile, type RegularFileRead } from "../fs/regular-file.js";
import { bomBytes, utf16Bom } from "../../workers/utf16-bom.js";
import type { ToolOutcome } from "./tool-types.js";

type ToolFailure = Extract<ToolOutcome, { ok: false }>;

/** What each tool tells the model for the cases whose fix depends on the tool. */
export interface ReadWording {
  missing: string;
  folder: string;
  /** After "is N, too large to read whole (the limit is M)". */
  tooLarge: string;
}

export function readFailure(rel: string, read: Exclude<RegularFileRead, { kind: "file" }>, wording: ReadWording): ToolFailure {
  switch (read.kind) {
    case "missing":
      return { ok: false, code: "FILE_NOT_FOUND", message: wording.missing };
    case "folder":
      return { ok: false, code: "PATH_INVALID", message: wording.folder };
    case "symlink":
      return { ok: false, code: "NOT_TEXT", message: `${rel} is a symlink; ipuaro does not read through it here` };
    case "special":
      return { ok: false, code: "NOT_TEXT", message: `${rel} is ${read.what}, not a regular file; it was not opened (reading it could wait forever)` };
    case "too_large":
      return {
        ok: false,
        code: "FILE_TOO_LARGE",
        message: `${rel} is ${formatBytes(read.size)}, too large to read whole (the limit is ${formatBytes(read.limit)}); ${wording.tooLarge}`,
      };
    case "unreadable":
      if (read.code === "EACCES" || read.code === "EPERM") return { ok: false, code: "DENIED", message: `${rel} cannot be read: permission denied` };
      return { ok: false, code: "UNAVAILABLE", message: `${rel} could not be read: ${read.reason}` };
  }
}

/** The bytes of a regular file, or why the tool cannot read it. */
export async function readToolFile(rel: string, abs: string, wording: ReadWording): Promise<{ ok: true; bytes: Buffer } | ToolFailure> {
  const read = await readRegularFile(abs);
  return read.kind === "file" ? { ok: true, bytes: read.bytes } : readFailure(rel, read, wording);
}

/**
 * Why `bytes` are not text to read as UTF-8, before decoding (null: try UTF-8). UTF-16 is named before
 * the NUL scan: its text is full of NULs. `suffix` says what the tool does with text only.
 */
export function notTextFailure(rel: string, bytes: Uint8Array, suffix: string): ToolFailure | null {
  const bom = utf16Bom(bytes);
  if (bom) return { ok: false, code: "NOT_TEXT", message: `${rel} is ${bom} text (it starts with the byte order mark ${bomBytes(bom)}), not UTF-8${suffix}` };
  if (bytes.includes(0)) return { ok: false, code: "NOT_TEXT", message: `${rel} is a binary file (${bytes.length} bytes)${suffix}` };
  return null;
}
