// Edge files: non-UTF-8 text, binaries (real PNG/ICO structure, WOFF and PDF headers, a NUL-laden .ts),
// and the contents of node_modules/ and dist/ that the indexer must skip.

import { NOUNS, VERBS, camel } from "../names.js";
import { Rng } from "../prng.js";

// ---------- non-UTF-8 text ----------

/** windows-1251 for Cyrillic, latin-1 for the rest; both put bytes ≥ 0x80 that are invalid UTF-8. */
export function encodeLegacy(text: string, encoding: "windows-1251" | "latin1"): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let byte: number;
    if (code < 0x80) byte = code;
    else if (encoding === "latin1" && code <= 0xff) byte = code;
    else if (encoding === "windows-1251" && code >= 0x0410 && code <= 0x044f) byte = code - 0x0410 + 0xc0;
    else if (encoding === "windows-1251" && code === 0x0401) byte = 0xa8;
    else if (encoding === "windows-1251" && code === 0x0451) byte = 0xb8;
    else throw new Error(`cannot encode U+${code.toString(16)} as ${encoding}`);
    bytes[i] = byte;
  }
  const valid = (() => {
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      return true;
    } catch {
      return false;
    }
  })();
  if (valid) throw new Error("legacy-encoded text happens to be valid UTF-8; use other characters");
  return bytes;
}

export function cp1251Module(): Uint8Array {
  return encodeLegacy(
    [
      "// Сообщения старого модуля: файл в кодировке windows-1251, не трогать.",
      "export const LEGACY_MESSAGES = {",
      '  saved: "Изменения сохранены",',
      '  failed: "Ошибка при сохранении",',
      '  empty: "Список пуст",',
      "} as const;",
      "",
      "export function legacyMessage(key: keyof typeof LEGACY_MESSAGES): string {",
      "  return LEGACY_MESSAGES[key];",
      "}",
      "",
    ].join("\n"),
    "windows-1251",
  );
}

export function latin1Module(): Uint8Array {
  return encodeLegacy(
    [
      "// Banner strings kept in ISO-8859-1 for the old terminal driver.",
      'export const BANNER = "Café Größe — naïve façade";',
      'export const FOOTER = "© Acme, déjà vu, señor";',
      "",
    ].join("\n").replace("—", "-"),
    "latin1",
  );
}

export function cp1251Cjs(): Uint8Array {
  return encodeLegacy(
    ['"use strict";', "// Справка для старой версии CLI", "module.exports = {", '  usage: "Использование: acme <команда> [параметры]",', '  version: "Версия",', "};", ""].join("\n"),
    "windows-1251",
  );
}

export function latin1Json(): Uint8Array {
  return encodeLegacy(`${JSON.stringify({ locale: "fr-FR", greeting: "Bonjour, ça va?", city: "Zürich" }, null, 2)}\n`, "latin1");
}

// ---------- binaries ----------

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function u32(value: number): number[] {
  return [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

function pngChunk(type: string, data: number[]): number[] {
  const typed = [...type].map((c) => c.charCodeAt(0)).concat(data);
  return [...u32(data.length), ...typed, ...u32(crc32(Uint8Array.from(typed)))];
}

/** A valid RGB PNG: zlib stream with stored (uncompressed) deflate blocks, so no zlib dependency is needed. */
export function png(seed: number, key: string, size = 16): Uint8Array {
  const rng = Rng.forKey(seed, key);
  const raw: number[] = [];
  for (let y = 0; y < size; y++) {
    raw.push(0); // filter: none
    for (let x = 0; x < size; x++) raw.push(rng.int(0, 255), rng.int(0, 255), rng.int(0, 255));
  }
  const zlib = [0x78, 0x01];
  for (let offset = 0; offset < raw.length; offset += 65535) {
    const block = raw.slice(offset, offset + 65535);
    const final = offset + 65535 >= raw.length ? 1 : 0;
    zlib.push(final, block.length & 0xff, block.length >>> 8, ~block.length & 0xff, (~block.length >>> 8) & 0xff, ...block);
  }
  let a = 1;
  let b = 0;
  for (const byte of raw) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  zlib.push(...u32(((b << 16) | a) >>> 0));
  const ihdr = [...u32(size), ...u32(size), 8, 2, 0, 0, 0];
  return Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...pngChunk("IHDR", ihdr), ...pngChunk("IDAT", zlib), ...pngChunk("IEND", [])]);
}

export function ico(seed: number, key: string): Uint8Array {
  const image = png(seed, key, 16);
  const header = [0, 0, 1, 0, 1, 0];
  const entry = [16, 16, 0, 0, 1, 0, 32, 0, image.length & 0xff, (image.length >>> 8) & 0xff, 0, 0, 22, 0, 0, 0];
  return Uint8Array.from([...header, ...entry, ...image]);
}

function noise(rng: Rng, length: number): number[] {
  return Array.from({ length }, () => rng.int(0, 255));
}

export function woff(seed: number, key: string): Uint8Array {
  const rng = Rng.forKey(seed, key);
  const body = noise(rng, 2048);
  return Uint8Array.from([..."wOFF"].map((c) => c.charCodeAt(0)).concat(u32(0x00010000), u32(44 + body.length), [0, 4, 0, 0], body));
}

export function pdf(seed: number, key: string): Uint8Array {
  const rng = Rng.forKey(seed, key);
  const head = [..."%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n1 0 obj << /Length 512 /Filter /FlateDecode >>\nstream\n"].map((c) => c.charCodeAt(0));
  const tail = [..."\nendstream\nendobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"].map((c) => c.charCodeAt(0));
  const body = noise(rng, 512);
  body[7] = 0; // a NUL for content sniffers
  return Uint8Array.from([...head, ...body, ...tail]);
}

/** A `.ts`-named file holding NUL bytes: extension says TypeScript, content says binary. */
export function nulTs(seed: number, key: string): Uint8Array {
  const rng = Rng.forKey(seed, key);
  const text = [...'export const SNAPSHOT = "'].map((c) => c.charCodeAt(0));
  return Uint8Array.from([...text, 0, 0, 1, 2, ...noise(rng, 300).map((b) => b & 0x7f), 0, 0x22, 0x3b, 0x0a]);
}

// ---------- node_modules and dist ----------

export interface ExcludedFile {
  path: string;
  content: string;
}

/** `count` files for the root node_modules/ (and one nested app-level one). */
export function nodeModulesFiles(seed: number, count: number): ExcludedFile[] {
  const rng = Rng.forKey(seed, "node_modules");
  const files: ExcludedFile[] = [
    { path: "node_modules/.package-lock.json", content: `${JSON.stringify({ name: "acme-monorepo", lockfileVersion: 3, packages: {} }, null, 2)}\n` },
    { path: "node_modules/react/package.json", content: `${JSON.stringify({ name: "react", version: "18.3.1", main: "index.js" }, null, 2)}\n` },
    { path: "node_modules/react/index.js", content: "'use strict';\n\nif (process.env.NODE_ENV === 'production') {\n  module.exports = require('./cjs/react.production.min.js');\n} else {\n  module.exports = require('./cjs/react.development.js');\n}\n" },
    { path: "node_modules/react/cjs/react.production.min.js", content: `"use strict";var l=Symbol.for("react.element");exports.version="18.3.1";${"exports.x=function(a){return a};".repeat(40)}\n` },
    { path: "node_modules/zod/package.json", content: `${JSON.stringify({ name: "zod", version: "4.1.9", types: "index.d.ts" }, null, 2)}\n` },
    { path: "node_modules/zod/index.d.ts", content: "export * from './v4/index.js';\nexport { z as default } from './v4/index.js';\n" },
    { path: "node_modules/lodash/package.json", content: `${JSON.stringify({ name: "lodash", version: "4.17.21" }, null, 2)}\n` },
    { path: "apps/web/node_modules/.vite/deps/react.js", content: "export default {};\n//# sourceMappingURL=react.js.map\n" },
  ];
  for (let i = 0; files.length < count; i++) {
    const name = camel([rng.pick(VERBS), rng.pick(NOUNS)]);
    files.push({
      path: `node_modules/lodash/${name}${i}.js`,
      content: `var baseIteratee = require('./_baseIteratee');\n\n/**\n * Lodash helper ${name}.\n */\nfunction ${name}(collection, iteratee) {\n  return baseIteratee(iteratee, ${rng.int(1, 9)})(collection);\n}\n\nmodule.exports = ${name};\n`,
    });
  }
  return files.slice(0, count);
}

/** Build output of the packages: `count` files spread over `<pkg>/dist/`. */
export function distFiles(seed: number, packageDirs: readonly string[], count: number): ExcludedFile[] {
  const rng = Rng.forKey(seed, "dist");
  const files: ExcludedFile[] = [];
  for (let i = 0; files.length < count; i++) {
    const dir = packageDirs[i % packageDirs.length] as string;
    const round = Math.floor(i / packageDirs.length);
    const base = round === 0 ? "index" : `${camel([rng.pick(NOUNS)])}-${round}`;
    files.push({ path: `${dir}/dist/${base}.js`, content: `export * from "./${rng.pick(NOUNS)}.js";\n//# sourceMappingURL=${base}.js.map\n` });
    if (files.length < count) files.push({ path: `${dir}/dist/${base}.d.ts`, content: `export declare function ${camel([rng.pick(VERBS), rng.pick(NOUNS)])}(input: string): string;\n` });
  }
  return files;
}
