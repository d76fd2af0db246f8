// Project instruction files (AGENTS.md at the root, .ipuaro/instructions.md) go into the fixed part of
// the context as their own section, so compression can keep them. They get a share of the budget; a
// huge file is cut at a line boundary with a note saying so.
import fs from "node:fs";
import path from "node:path";
import { truncateToBudget, type EstimateTokens } from "./budget-fit.js";

export const DEFAULT_INSTRUCTION_FILES = ["AGENTS.md", ".ipuaro/instructions.md"] as const;
/** Bytes read per file at most: more could never fit a context share anyway. */
const MAX_READ_BYTES = 512 * 1024;

export interface InstructionsSection {
  /** The section as it goes into the context (heading per file). */
  text: string;
  tokens: number;
  /** Root-relative paths of the files included, in order. */
  files: string[];
  /** Files cut to fit the budget (or left out entirely when nothing fit). */
  truncated: string[];
}

/** Root-relative, inside the root: instruction paths come from config and must not escape it. */
function resolveInside(root: string, rel: string): string {
  if (path.isAbsolute(rel) || rel.split(/[\\/]/).includes("..")) {
    throw new Error(`instruction file "${rel}" must be a path relative to the project root, without ".."`);
  }
  return path.join(root, rel);
}

function readText(file: string): { text: string; cut: boolean } | null {
  let fd: number;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return null;
    fd = fs.openSync(file, "r");
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(MAX_READ_BYTES + 1);
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    const cut = read > MAX_READ_BYTES;
    let text = buffer.subarray(0, Math.min(read, MAX_READ_BYTES)).toString("utf8");
    // A cut in the middle of a UTF-8 sequence leaves a replacement character at the end.
    if (cut) text = text.replace(/\uFFFD+$/, "");
    return { text: text.replace(/\r\n/g, "\n").trimEnd(), cut };
  } finally {
    fs.closeSync(fd);
  }
}

const heading = (rel: string) => `## Project instructions (${rel})`;

/**
 * Reads the instruction files present under `root` and fits them into `budgetTokens` (whole section,
 * headings included). Returns null when none exists or is non-empty.
 */
export function readInstructions(
  root: string,
  budgetTokens: number,
  estimate: EstimateTokens,
  files: readonly string[] = DEFAULT_INSTRUCTION_FILES,
): InstructionsSection | null {
  const found: { rel: string; text: string; cut: boolean }[] = [];
  for (const rel of files) {
    const content = readText(resolveInside(root, rel));
    if (content && content.text.trim()) found.push({ rel, ...content });
  }
  if (!found.length) return null;
  // Water-filling: small files get all they need, big ones share what is left equally, so a huge
  // AGENTS.md cannot crowd out a short .ipuaro/instructions.md.
  const separators = estimate("\n\n") * (found.length - 1);
  const needs = found.map((f) => estimate(`${heading(f.rel)}\n${f.text}`));
  const allowance = new Array<number>(found.length).fill(0);
  let remaining = budgetTokens - separators;
  const bySize = found.map((_, i) => i).sort((a, b) => needs[a]! - needs[b]! || a - b);
  bySize.forEach((i, n) => {
    allowance[i] = Math.max(0, Math.min(needs[i]!, Math.floor(remaining / (bySize.length - n))));
    remaining -= allowance[i]!;
  });
  const parts: string[] = [];
  const included: string[] = [];
  const truncated: string[] = [];
  found.forEach(({ rel, text, cut }, i) => {
    const left = allowance[i]!;
    const note = (shown: number, total: number) =>
      `[${rel} truncated to fit the context: ${shown} of ${cut ? "more than " : ""}${total} lines shown; read the file for the rest]`;
    const lineCount = text.split("\n").length;
    // The heading is line 1 of what is fitted, so the note counts one line less on both sides.
    const fitted = truncateToBudget(`${heading(rel)}\n${text}`, left, estimate, (shown, total) => note(Math.max(0, shown - 1), total - 1));
    if (!fitted.text.startsWith(`${heading(rel)}\n`)) {
      truncated.push(rel);
      return;
    }
    if (cut && !fitted.truncated) {
      const withNote = `${fitted.text}\n${note(lineCount, lineCount)}`;
      if (estimate(withNote) > left) {
        truncated.push(rel);
        return;
      }
      fitted.text = withNote;
    }
    if (fitted.truncated || cut) truncated.push(rel);
    parts.push(fitted.text);
    included.push(rel);
  });
  if (!parts.length) return { text: "", tokens: 0, files: [], truncated };
  let text = parts.join("\n\n");
  if (estimate(text) > budgetTokens) {
    // The estimator counts the joined text above its parts: cut the whole, still on a line boundary.
    text = truncateToBudget(text, budgetTokens, estimate, () => "[instructions truncated to fit the context]").text;
  }
  return { text, tokens: estimate(text), files: included, truncated };
}
