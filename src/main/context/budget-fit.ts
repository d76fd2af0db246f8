// Fitting text to a token budget by binary search over "how many items" (aider's repo map does the
// same over tags). The estimator is the caller's: the predicate is evaluated on the real joined text,
// so no assumption that token counts add up is needed.

export type EstimateTokens = (text: string) => number;

/**
 * The largest k in 0..count whose `render(k)` fits `budget` tokens, assuming fit is monotone in k
 * (fewer items never cost more). Returns k and the rendered text and its tokens for that k.
 */
export function largestFitting(
  count: number,
  budget: number,
  render: (k: number) => string,
  estimate: EstimateTokens,
): { k: number; text: string; tokens: number } {
  let lo = 0;
  let hi = count;
  let best = { k: 0, text: render(0), tokens: 0 };
  best.tokens = estimate(best.text);
  if (best.tokens > budget) return { k: -1, text: "", tokens: 0 };
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const text = render(mid);
    const tokens = estimate(text);
    if (tokens <= budget) {
      lo = mid;
      best = { k: mid, text, tokens };
    } else hi = mid - 1;
  }
  return best;
}

/**
 * `text` cut to whole lines so that it plus `note(shown, total)` fits `budget`; a single overlong line
 * is cut by characters. Returns "" when not even the note fits.
 */
export function truncateToBudget(
  text: string,
  budget: number,
  estimate: EstimateTokens,
  note: (shownLines: number, totalLines: number) => string,
): { text: string; tokens: number; truncated: boolean } {
  const whole = estimate(text);
  if (whole <= budget) return { text, tokens: whole, truncated: false };
  const lines = text.split("\n");
  const render = (k: number) => [...lines.slice(0, k), note(k, lines.length)].join("\n");
  const byLines = largestFitting(lines.length, budget, render, estimate);
  if (byLines.k > 0) return { text: byLines.text, tokens: byLines.tokens, truncated: true };
  if (byLines.k < 0) return { text: "", tokens: 0, truncated: true };
  // Not even the first line fits: keep a prefix of it.
  const first = lines[0] ?? "";
  const byChars = largestFitting(first.length, budget, (k) => `${first.slice(0, k)}…\n${note(0, lines.length)}`, estimate);
  return byChars.k > 0 ? { text: byChars.text, tokens: byChars.tokens, truncated: true } : { text: byLines.text, tokens: byLines.tokens, truncated: true };
}
