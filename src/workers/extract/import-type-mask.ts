// tree-sitter-typescript 0.23 has no rule for type arguments on an import type, nor for an array of one:
// `x: import("./t").Task<string>` and `import("./t").Item[]` (tsc writes both into .d.ts files). It ends
// the type before `<` or `[` and recovers badly: in a parameter list the following parameters, the
// return type and sometimes the rest of a class body are lost, and the file is marked as broken.
//
// The parser is given a copy of the source where each such `import("…")` is blanked to underscores of
// the same length, which it reads as a qualified type name (`______.Task<string>`). Offsets and lines
// are unchanged, and the extractor reads names and types from the real source, so nothing shows the mask.
// The masked imports are handed back: they are type-only imports of the file like any other import type.

/** `import("x")` with at least one `.Name` after it, followed by `<` or `[`. */
const IMPORT_TYPE = /import\(\s*(["'])[^"'\n]*\1\s*\)(?:\s*\.\s*[\p{L}_$][\p{L}\p{N}_$]*)+(?=\s*[<[])/gu;
const PREFIX = /^import\(\s*(["'])([^"'\n]*)\1\s*\)/u;
/** How far a type argument list is searched for its closing `>`. */
const MAX_ARGUMENTS = 2000;

/** Index just past the `>` closing the type arguments opened at `open`, or -1 (not type arguments). */
function closeOfTypeArguments(source: string, open: number): number {
  let depth = 0;
  const end = Math.min(source.length, open + MAX_ARGUMENTS);
  for (let i = open; i < end; i++) {
    const c = source[i];
    if (c === "<") depth++;
    else if (c === ">" && source[i - 1] !== "=") {
      depth--;
      if (depth === 0) return i + 1;
    } else if (c === ";" || c === "{" || c === "}") return -1;
  }
  return -1;
}

/** True when what follows the import type at `at` makes it a type with arguments or an array of one. */
function isTypeSuffix(source: string, at: number): boolean {
  let i = at;
  while (source[i] === " " || source[i] === "\t") i++;
  if (source[i] === "[") return /^\[\s*\]/.test(source.slice(i, i + 16));
  const close = closeOfTypeArguments(source, i);
  if (close === -1) return false;
  // `import("./m").then<T>(…)` is a call on a dynamic import: code, left as it is.
  let j = close;
  while (source[j] === " " || source[j] === "\t") j++;
  return source[j] !== "(";
}

export interface MaskedSource {
  /** The source with every import type the grammar cannot read blanked out (the same string when none). */
  source: string;
  /** The blanked import types: specifier and offset. */
  importTypes: { from: string; at: number }[];
}

export function maskImportTypes(source: string): MaskedSource {
  const importTypes: MaskedSource["importTypes"] = [];
  if (source.indexOf("import(") === -1) return { source, importTypes };
  let out = source;
  for (const match of source.matchAll(IMPORT_TYPE)) {
    const start = match.index;
    if (!isTypeSuffix(source, start + match[0].length)) continue;
    const [prefix, , from] = PREFIX.exec(match[0])!;
    if (prefix.includes("\n")) continue;
    out = out.slice(0, start) + "_".repeat(prefix.length) + out.slice(start + prefix.length);
    importTypes.push({ from: from as string, at: start });
  }
  return { source: out, importTypes };
}
