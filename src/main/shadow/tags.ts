// Tags pulled out of a memory or decision text (seed 001, Appendix B): paths, technologies, versions;
// and the content hash that makes "the same fact" one memory.
import { createHash } from "node:crypto";

export const MAX_TAGS = 10;

const PATH = /(?:^|[\s"'`(])((?:src|packages|apps|lib|libs|app|tests?|docs|config|scripts)\/[\w/.-]*[\w/])/gi;
const TECH =
  /\b(react|next\.?js|vue|angular|svelte|express|fastify|nest(?:js)?|prisma|drizzle|zod|typebox|typescript|javascript|node(?:\.?js)?|python|rust|golang|docker|kubernetes|postgres(?:ql)?|mysql|redis|sqlite|mongodb|graphql|rest|grpc|vitest|jest|mocha|webpack|vite|esm|commonjs|tree-sitter|ollama)\b/gi;
const VERSION = /(?:>=?|<=?|~|\^)?\bv?\d+\.\d+\.\d+\b/g;
const HASHTAG = /(?:^|\s)#([A-Za-z][\w-]{1,30})\b/g;

/** Up to MAX_TAGS tags: `path:…`, `tech:…`, `version:…`, plus #hashtags as written. */
export function extractTags(content: string): string[] {
  const tags = new Set<string>();
  for (const m of content.matchAll(PATH)) tags.add(`path:${m[1]!.replace(/[.,;:]+$/, "")}`);
  for (const m of content.matchAll(TECH)) tags.add(`tech:${m[1]!.toLowerCase().replace(".", "")}`);
  for (const m of content.matchAll(VERSION)) tags.add(`version:${m[0]}`);
  for (const m of content.matchAll(HASHTAG)) tags.add(m[1]!.toLowerCase());
  return [...tags].slice(0, MAX_TAGS);
}

/** Whitespace and case do not make a different fact. */
export function normaliseContent(content: string): string {
  return content.trim().replace(/\s+/g, " ").toLowerCase();
}

export function contentHash(content: string): string {
  return createHash("sha256").update(normaliseContent(content)).digest("hex").slice(0, 12);
}

/** Project paths a tag list mentions (`path:` tags). */
export function taggedPaths(tags: readonly string[]): string[] {
  return tags.filter((t) => t.startsWith("path:")).map((t) => t.slice(5));
}
