// Files and symbols the conversation talks about, found in the raw text of recent messages: path-like
// tokens matched against the indexed file list, identifiers matched against the symbol index. Anything
// that does not exist in the index is dropped, so prose words cost nothing.

/** Identifiers looked up per build: bounds the HMGET on the symbol index. */
export const MAX_MENTION_IDENTIFIERS = 400;
/** A path token matching more files than this (`index.ts`) says nothing about which one is meant. */
export const MAX_FILES_PER_PATH_TOKEN = 5;
/** A mentioned folder with more files than this (`src`) is too broad to lean the ranking. */
export const MAX_FILES_PER_FOLDER_TOKEN = 500;
const MIN_IDENTIFIER_LENGTH = 3;

// Words every TS message contains; as symbols they would pull random files up.
const STOP_WORDS = new Set([
  "const", "let", "var", "function", "return", "import", "export", "from", "this", "true", "false", "null",
  "undefined", "async", "await", "class", "interface", "type", "string", "number", "boolean", "void", "new",
  "default", "extends", "implements", "public", "private", "protected", "static", "readonly", "the", "and",
  "for", "not", "with", "file", "files", "code",
]);

// Paths in any script (`src/компоненты/Кнопка.tsx`); identifiers stay ASCII, or every word of a
// Russian message would be a symbol lookup.
const PATH_TOKEN = /[\p{L}\p{M}\p{N}_@~$.\-/]+/gu;
/** A quoted path, which may hold spaces: `@"docs/my notes.md"`, "src/my file.ts", `src/a b.ts`. */
const QUOTED_TOKEN = /@?"([^"\n]{1,300}?)"|@?`([^`\n]{1,300}?)`/g;
const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*/g;

export interface MentionTokens {
  /** Tokens that look like paths or file names (`src/a.ts`, `money.ts`, `order.service`). */
  paths: string[];
  /** Identifiers worth a symbol-index lookup, newest message first; `A.b` pairs included. */
  identifiers: string[];
}

function cleanPathToken(raw: string): string {
  // `@src/money.ts` (a mention typed as in other agents) names the file; `@acme/core` matches no file.
  return raw.replace(/^@(?=[^/]+\/|[^/]*\.)/, "").replace(/^\.\//, "").replace(/^\/+/, "").replace(/[.\-/]+$/, "");
}

/** Tokens of `texts` (oldest first, as a conversation is stored). Deterministic. */
export function extractMentionTokens(texts: readonly string[]): MentionTokens {
  const paths = new Set<string>();
  const identifiers = new Set<string>();
  const addIdentifier = (name: string) => {
    if (identifiers.size >= MAX_MENTION_IDENTIFIERS) return;
    if (name.length < MIN_IDENTIFIER_LENGTH || STOP_WORDS.has(name)) return;
    identifiers.add(name);
  };
  const addPath = (raw: string) => {
    const token = cleanPathToken(raw);
    if (token.includes("/") || /\.[A-Za-z][\w-]*$/.test(token)) paths.add(token);
  };
  for (let i = texts.length - 1; i >= 0; i--) {
    const text = texts[i] ?? "";
    for (const match of text.matchAll(QUOTED_TOKEN)) {
      // Quoted only when it has to be (a space, or a quote of the other kind): the rest PATH_TOKEN finds.
      const quoted = match[1] ?? match[2]!;
      if (/[\s"`]/.test(quoted)) addPath(quoted.trim());
    }
    for (const match of text.matchAll(PATH_TOKEN)) addPath(match[0]);
    for (const match of text.matchAll(IDENTIFIER)) {
      const parts = match[0].split(".");
      for (let j = 0; j < parts.length; j++) {
        addIdentifier(parts[j]!);
        // `Money.add` is how the symbol index names a method.
        if (j + 1 < parts.length) addIdentifier(`${parts[j]}.${parts[j + 1]}`);
      }
    }
  }
  return { paths: [...paths], identifiers: [...identifiers] };
}

function stripExtension(p: string): string {
  const slash = p.lastIndexOf("/");
  const dot = p.lastIndexOf(".");
  return dot > slash + 1 ? p.slice(0, dot) : p;
}

/** Lookup tables over the indexed paths, built once per context build. */
export class PathMatcher {
  private readonly exact: Set<string>;
  private readonly byBase = new Map<string, string[]>();

  constructor(private readonly paths: readonly string[]) {
    this.exact = new Set(paths);
    for (const p of paths) {
      const base = p.slice(p.lastIndexOf("/") + 1);
      for (const key of new Set([base, stripExtension(base)])) {
        const list = this.byBase.get(key);
        if (list) list.push(p);
        else this.byBase.set(key, [p]);
      }
    }
  }

  /** Files one token names: exact path, a path suffix (with or without extension), or a file name. */
  match(token: string): string[] {
    if (this.exact.has(token)) return [token];
    let hits: string[];
    if (token.includes("/")) {
      const suffix = `/${token}`;
      hits = this.paths.filter((p) => p.endsWith(suffix) || stripExtension(p).endsWith(suffix) || stripExtension(p) === token);
    } else hits = this.byBase.get(token) ?? [];
    return hits.length <= MAX_FILES_PER_PATH_TOKEN ? [...hits].sort() : [];
  }

  /** Files under a folder the token names (`apps/web/src/pages`, or its trailing part `src/pages`). */
  matchFolder(token: string): string[] {
    if (!token.includes("/") || this.exact.has(token)) return [];
    const prefix = `${token}/`;
    const inner = `/${token}/`;
    const hits = this.paths.filter((p) => p.startsWith(prefix) || p.includes(inner));
    return hits.length <= MAX_FILES_PER_FOLDER_TOKEN ? hits : [];
  }

  /** Every file the tokens name, deduplicated, in token order. */
  matchAll(tokens: readonly string[]): string[] {
    const out = new Set<string>();
    for (const t of tokens) for (const p of this.match(t)) out.add(p);
    return [...out];
  }
}
