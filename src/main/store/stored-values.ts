// Value shapes inside the project hashes, and their tolerant parsing. Writers (the index workers) send
// JSON strings; readers get typed unions back.
import type { FileAST, FileData, FileMeta } from "../../workers/ast-types.js";
import { IpuaroError } from "../errors.js";

/** `files` hash values, as read back. Binary files keep metadata only; symlinks keep their target. */
export type StoredFile =
  | ({ kind: "text" } & FileData)
  | { kind: "binary"; hash: string; size: number; lastModified: number; nonUtf8?: boolean }
  | { kind: "symlink"; target: string };

/** JSON for a binary (or non-UTF-8) file's `files` entry; same shape the index worker writes. */
export function binaryFileJson(meta: { hash: string; size: number; lastModified: number; nonUtf8?: boolean }): string {
  return JSON.stringify({ binary: true, hash: meta.hash, size: meta.size, lastModified: meta.lastModified, ...(meta.nonUtf8 ? { nonUtf8: true } : {}) });
}

export function symlinkFileJson(target: string): string {
  return JSON.stringify({ symlink: true, target });
}

// The `stat` value format belongs to the index pipeline's port; re-exported for the store's readers.
export { decodeStat, encodeStat } from "../../pipeline/index-store-port.js";

export function corruptEntry(key: string, field: string, why: string): IpuaroError {
  return new IpuaroError("redis", `Corrupt index entry ${key} → ${field}: ${why}`, {
    suggestion: "Re-index the project (ipuaro index --force) to rebuild it.",
  });
}

function parseObject(key: string, field: string, raw: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw corruptEntry(key, field, "not valid JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw corruptEntry(key, field, "not a JSON object");
  return value as Record<string, unknown>;
}

const num = (v: unknown): number => (typeof v === "number" ? v : 0);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

export function parseStoredFile(key: string, field: string, raw: string): StoredFile {
  const o = parseObject(key, field, raw);
  if (Array.isArray(o.lines)) {
    return { kind: "text", lines: o.lines as string[], hash: str(o.hash), size: num(o.size), lastModified: num(o.lastModified) };
  }
  if (o.symlink === true || (typeof o.target === "string" && o.binary !== true)) {
    return { kind: "symlink", target: str(o.target) };
  }
  if (o.binary === true) {
    const file: StoredFile = { kind: "binary", hash: str(o.hash), size: num(o.size), lastModified: num(o.lastModified) };
    if (o.nonUtf8 === true) file.nonUtf8 = true;
    return file;
  }
  throw corruptEntry(key, field, "neither text, binary nor symlink");
}

export function parseAst(key: string, field: string, raw: string): FileAST {
  const o = parseObject(key, field, raw);
  if (!Array.isArray(o.imports) || !Array.isArray(o.functions)) throw corruptEntry(key, field, "not a FileAST");
  return o as unknown as FileAST;
}

export function parseMeta(key: string, field: string, raw: string): FileMeta {
  const o = parseObject(key, field, raw);
  if (!Array.isArray(o.dependencies)) throw corruptEntry(key, field, "not a FileMeta");
  return o as unknown as FileMeta;
}
