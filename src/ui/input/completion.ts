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

/** A path the prompt must quote: one holding a character that ends a word (a space, a quote, …). */
const needsQuotes = (p: string) => WORD_BREAK.test(p);

/**
 * The quoted word being typed (`@"my docs/no` or `"my docs/no`): an opening quote at the start of a
 * word, with no quote after it up to the cursor. null when the cursor is not inside one.
 */
export function openQuotedToken(text: string, cursor: number): { start: number; token: string } | null {
  const line = text.lastIndexOf("\n", cursor - 1) + 1;
  let open = -1;
  for (let i = line; i < cursor; i++) if (text[i] === '"') open = open === -1 ? i : -1;
  if (open === -1) return null;
  const start = open > 0 && text[open - 1] === "@" ? open - 1 : open;
  if (start > 0 && !WORD_BREAK.test(text[start - 1]!)) return null;
  return { start, token: text.slice(start, cursor) };
}

export async function complete(text: string, cursor: number, source: CompletionSource): Promise<Completion | null> {
  // A quoted word names a path (`@"my docs/a b.ts"`): spaces in it do not end it. A quote that names no
  // path is prose ("…): the word before the cursor is completed instead.
  const quoted = openQuotedToken(text, cursor);
  return (quoted && (await completeWord(text, cursor, quoted, true, source))) || completeWord(text, cursor, tokenBefore(text, cursor), false, source);
}

async function completeWord(text: string, cursor: number, word: { start: number; token: string }, quoted: boolean, source: CompletionSource): Promise<Completion | null> {
  const { start, token } = word;
  if (!token) return null;
  const at = token.startsWith("@");
  const typed = quoted ? token.slice(at ? 2 : 1) : token.slice(at ? 1 : 0);
  let matches: string[];
  if (!quoted && start === 0 && token.startsWith("/")) {
    matches = nameMatches(token, source.commands());
  } else if (at || quoted) {
    // `@money` or `@packages/co`: a file, by path or by its name, kept with the @ as other agents do.
    const paths = await source.paths();
    matches = pathMatches(typed, paths);
    if (!matches.length && typed && !typed.includes("/")) {
      const lower = typed.toLowerCase();
      matches = paths.filter((p) => p.slice(p.lastIndexOf("/") + 1).toLowerCase().startsWith(lower)).sort().slice(0, MAX_CANDIDATES);
    }
  } else {
    const looksLikePath = token.includes("/") || token.includes(".");
    const paths = pathMatches(token, await source.paths());
    const symbols = looksLikePath && paths.length ? [] : nameMatches(token, await source.symbols());
    matches = [...new Set([...paths, ...symbols])];
  }
  if (matches.length === 0) return null;
  const isPath = at || quoted || !matches.every((m) => !m.includes("/") && !m.includes("."));
  // Quoted once any candidate needs it: typed on unquoted, the space would end the word.
  const quote = quoted || (isPath && matches.some(needsQuotes));
  // A name holding `"` goes in backquotes, which mentions read too: in "…" it could not be read back.
  const mark = !quoted && matches.length === 1 && matches[0]!.includes('"') ? "`" : '"';
  const lead = `${at ? "@" : ""}${quote ? mark : ""}`;
  const single = matches.length === 1 ? matches[0]! : null;
  let body = single ?? commonPrefix(matches);
  if (body.length < typed.length) body = typed; // case-insensitive matches that disagree: keep what was typed
  let insert = lead + body;
  // A space already after the cursor (completing mid-line) is not doubled.
  if (single && !single.endsWith("/")) insert += (quote ? mark : "") + (text[cursor] === " " ? "" : " ");
  const next = text.slice(0, start) + insert + text.slice(cursor);
  const shown = (m: string) => `${at ? "@" : ""}${quote && needsQuotes(m) ? `"${m}"` : m}`;
  return { text: next, cursor: start + insert.length, candidates: single ? [] : matches.map(shown) };
}
