import { describe, expect, it } from "vitest";
import { largestFitting, truncateToBudget } from "../../../src/main/context/budget-fit.js";

const byChars = (text: string) => Math.ceil(text.length / 4);

describe("largestFitting", () => {
  const items = Array.from({ length: 100 }, (_, i) => `item number ${i}`);
  const render = (k: number) => items.slice(0, k).join("\n");

  it("finds the largest count that fits and returns its text", () => {
    const fit = largestFitting(items.length, 100, render, byChars);
    expect(byChars(render(fit.k))).toBeLessThanOrEqual(100);
    expect(byChars(render(fit.k + 1))).toBeGreaterThan(100);
    expect(fit.text).toBe(render(fit.k));
    expect(fit.tokens).toBe(byChars(fit.text));
  });

  it("returns everything when it fits and -1 when not even k = 0 fits", () => {
    expect(largestFitting(items.length, 10_000, render, byChars).k).toBe(100);
    expect(largestFitting(3, 1, () => "always too long for one token", byChars).k).toBe(-1);
  });

  it("calls render O(log n) times", () => {
    let calls = 0;
    largestFitting(1_000_000, 5000, (k) => (calls++, "x".repeat(k)), byChars);
    expect(calls).toBeLessThanOrEqual(22);
  });
});

describe("truncateToBudget", () => {
  const note = (shown: number, total: number) => `[${shown} of ${total} lines]`;

  it("keeps text that fits", () => {
    expect(truncateToBudget("a\nb", 10, byChars, note)).toEqual({ text: "a\nb", tokens: 1, truncated: false });
  });

  it("cuts at whole lines and appends the note", () => {
    const text = Array.from({ length: 200 }, (_, i) => `line ${i} of the instructions`).join("\n");
    const cut = truncateToBudget(text, 120, byChars, note);
    expect(cut.truncated).toBe(true);
    expect(cut.tokens).toBeLessThanOrEqual(120);
    expect(cut.text).toMatch(/^line 0 of the instructions\n/);
    expect(cut.text).toMatch(/\n\[\d+ of 200 lines\]$/);
  });

  it("cuts an overlong single line by characters", () => {
    const cut = truncateToBudget("x".repeat(10_000), 50, byChars, note);
    expect(cut.tokens).toBeLessThanOrEqual(50);
    expect(cut.text).toMatch(/^x+…\n\[0 of 1 lines\]$/);
  });
});
