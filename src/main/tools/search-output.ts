// Small shared rules for the search and analysis tools' output: how a source line is quoted, and when a
// long scan stops parsing and starts estimating.

/** Quoted source lines are trimmed and cut to this many characters. */
export const MAX_LINE_TEXT = 160;

export function lineText(line: string | undefined): string {
  const t = (line ?? "").trim();
  return t.length > MAX_LINE_TEXT ? `${t.slice(0, MAX_LINE_TEXT - 1)}…` : t;
}

/** Whether a scan should stop parsing: over budget with enough results to show, or far over budget. */
export function pastBudget(elapsedMs: number, enoughShown: boolean, budgetMs: number): boolean {
  return elapsedMs > budgetMs && (enoughShown || elapsedMs > 2 * budgetMs);
}
