// UTF-16 text is full of NUL bytes (every ASCII character has one), so a NUL scan alone calls it
// binary. A file that starts with a UTF-16 byte order mark is text in an encoding ipuaro does not read:
// "not UTF-8", as the index counts it and the read tools say. Two byte compares: this runs on every
// file the index worker reads, before its NUL scan.

export type Utf16Bom = "UTF-16LE" | "UTF-16BE";

/** The UTF-16 byte order mark `bytes` start with (FF FE little-endian, FE FF big-endian), or null. */
export function utf16Bom(bytes: Uint8Array): Utf16Bom | null {
  const first = bytes[0];
  if (first === 0xff) return bytes[1] === 0xfe ? "UTF-16LE" : null;
  if (first === 0xfe) return bytes[1] === 0xff ? "UTF-16BE" : null;
  return null;
}

/** The mark's bytes as hex, for messages: "FF FE". */
export function bomBytes(bom: Utf16Bom): string {
  return bom === "UTF-16LE" ? "FF FE" : "FE FF";
}
