// Tab completion of the word before the cursor: slash commands at the start of the prompt, `@file`
// mentions (by path or file name), otherwise project paths (one folder level at a time, like a shell)
// and symbol names from the Redis index.

export interface CompletionSource {
  commands(): readonly string[];
  paths(): Promise<readonly string[]>;
  symbols(): Promise<readonly string[]>;
}

export interface Completion {
  text: string;
  cursor: number;
  /** Every match when more than one remains (shown as a hint). */
  candidates: string[];
}

/** Characters that end the word being completed. */
const WORD_BREAK = /[\s"'`()[\]{}<>,;]/;
const MAX_CANDIDATES = 200;

export function tokenBefore(text: string, cursor: number): { start: number; token: string } {
  let start = cursor;
  while (start > 0 && !WORD_BREAK.test(text[start - 1]!)) start--;
  return { start, token: text.slice(start, cursor) };
}

export function commonPrefix(items: readonly string[]): string {
  if (items.length === 0) return "";
  let prefix = items[0]!;
  for (const s of items) {
    let i = 0;
    while (i < prefix.length && i < s.length && prefix[i] === s[i]) i++;
    prefix = prefix.slice(0, i);
  }
  return prefix;
}

/** Paths matching the token, cut after the next `/` so a folder completes before its files. */
export function pathMatches(token: string, paths: readonly string[]): string[] {
  const out = new Set<string>();
  const clean = token.replace(/^\.\//, "");
  const lower = clean.toLowerCase();
  const exact = paths.some((p) => p.startsWith(clean));
  for (const p of paths) {
    if (exact ? !p.startsWith(clean) : !p.toLowerCase().startsWith(lower)) continue;
    const slash = p.indexOf("/", clean.length);
    out.add(slash === -1 ? p : p.slice(0, slash + 1));
    if (out.size >= MAX_CANDIDATES) break;
  }
  return [...out].sort();
}

export function nameMatches(token: string, names: readonly string[]): string[] {
  const exact = names.filter((n) => n.startsWith(token));
  const pool = exact.length ? exact : names.filter((n) => n.toLowerCase().startsWith(token.toLowerCase()));
  return [...new Set(pool)].sort().slice(0, MAX_CANDIDATES);
}

export async function complete(text: string, cursor: number, source: CompletionSource): Promise<Completion | null> {
  const { start, token } = tokenBefore(text, cursor);
  if (!token) return null;
  let matches: string[];
  if (start === 0 && token.startsWith("/")) {
    matches = nameMatches(token, source.commands());
  } else if (token.startsWith("@")) {
    // `@money` or `@packages/co`: a file, by path or by its name, kept with the @ as other agents do.
    const rest = token.slice(1);
    const paths = await source.paths();
    let found = pathMatches(rest, paths);
    if (!found.length && rest && !rest.includes("/")) {
      const lower = rest.toLowerCase();
      found = paths.filter((p) => p.slice(p.lastIndexOf("/") + 1).toLowerCase().startsWith(lower)).sort().slice(0, MAX_CANDIDATES);
    }
    matches = found.map((p) => `@${p}`);
  } else {
    const looksLikePath = token.includes("/") || token.includes(".");
    const paths = pathMatches(token, await source.paths());
    const symbols = looksLikePath && paths.length ? [] : nameMatches(token, await source.symbols());
    matches = [...new Set([...paths, ...symbols])];
  }
  if (matches.length === 0) return null;
  const single = matches.length === 1 ? matches[0]! : null;
  let insert = single ?? commonPrefix(matches);
  if (insert.length < token.length) insert = token; // case-insensitive matches that disagree: keep what was typed
  if (single && !single.endsWith("/")) insert += " ";
  const next = text.slice(0, start) + insert + text.slice(cursor);
  return { text: next, cursor: start + insert.length, candidates: single ? [] : matches };
}
