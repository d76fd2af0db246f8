import { describe, expect, it } from "vitest";
import { DEFAULT_UNITS_PER_TOKEN, MESSAGE_OVERHEAD_TOKENS, TokenEstimator, textUnits } from "../../../src/main/llm/token-estimator.js";

const code = "export function add(a: number, b: number): number {\n  return a + b;\n}\n".repeat(40);

describe("TokenEstimator", () => {
  it("uses ~3.7 characters per token before any calibration", () => {
    const est = new TokenEstimator();
    expect(est.unitsPerToken).toBeCloseTo(DEFAULT_UNITS_PER_TOKEN);
    expect(est.estimate("")).toBe(0);
    expect(est.estimate("x".repeat(370))).toBe(100);
  });

  it("counts Cyrillic and CJK as more tokens per character than ASCII", () => {
    const est = new TokenEstimator();
    const ascii = est.estimate("a".repeat(100));
    const cyrillic = est.estimate("ж".repeat(100));
    const cjk = est.estimate("语".repeat(100));
    expect(cyrillic).toBeGreaterThan(ascii);
    expect(cjk).toBeGreaterThan(cyrillic);
    expect(textUnits("😀")).toBeGreaterThan(1); // one code point, not two UTF-16 units of ASCII weight
  });

  it("adds the chat template's per-message overhead", () => {
    const est = new TokenEstimator();
    const messages = [{ content: "x".repeat(37) }, { content: "y".repeat(37) }];
    expect(est.estimateMessages(messages)).toBe(2 * (10 + MESSAGE_OVERHEAD_TOKENS));
  });

  it("moves toward the server's ratio with each count, weighting big samples more", () => {
    const est = new TokenEstimator();
    // The server says this code is 2.5 chars/token (plus the per-message overhead).
    const tokens = Math.round(code.length / 2.5) + MESSAGE_OVERHEAD_TOKENS;
    expect(est.calibrate({ messages: [{ content: code }], promptTokens: tokens })).toBe(true);
    const afterOne = est.unitsPerToken;
    expect(afterOne).toBeLessThan(DEFAULT_UNITS_PER_TOKEN);
    expect(afterOne).toBeGreaterThan(2.5);
    for (let i = 0; i < 5; i++) est.calibrate({ messages: [{ content: code }], promptTokens: tokens });
    expect(est.unitsPerToken).toBeCloseTo(2.5, 1);
    expect(est.calibrationSamples).toBe(6);
    const estimate = est.estimate(code);
    expect(Math.abs(estimate - code.length / 2.5) / (code.length / 2.5)).toBeLessThan(0.03);
  });

  it("a tiny sample barely moves the ratio", () => {
    const est = new TokenEstimator();
    est.calibrate({ text: "hi there", promptTokens: 4 });
    expect(est.unitsPerToken).toBeGreaterThan(3.6);
  });

  it("follows a change in what is sent (older samples fade)", () => {
    const est = new TokenEstimator();
    for (let i = 0; i < 5; i++) est.calibrate({ text: code, promptTokens: Math.round(code.length / 4.5) });
    for (let i = 0; i < 8; i++) est.calibrate({ text: code, promptTokens: Math.round(code.length / 3) });
    expect(est.unitsPerToken).toBeLessThan(3.15);
  });

  it.each([
    ["a missing count", { text: code, promptTokens: null }],
    ["a zero count", { text: code, promptTokens: 0 }],
    ["a count that filled the window (the server truncated)", { text: code, promptTokens: 4090, contextWindow: 4096 }],
    ["an implausible ratio (a cached or cut prompt)", { text: code, promptTokens: 3 }],
    ["nothing sent", { text: "", promptTokens: 100 }],
  ])("ignores %s", (_label, sample) => {
    const est = new TokenEstimator();
    expect(est.calibrate(sample)).toBe(false);
    expect(est.unitsPerToken).toBeCloseTo(DEFAULT_UNITS_PER_TOKEN);
    expect(est.calibrationSamples).toBe(0);
  });

  it("subtracts known extra tokens (e.g. a tools array) before learning", () => {
    const a = new TokenEstimator();
    const b = new TokenEstimator();
    const tokens = Math.round(code.length / 3);
    a.calibrate({ text: code, promptTokens: tokens + 300, extraTokens: 300 });
    b.calibrate({ text: code, promptTokens: tokens });
    expect(a.unitsPerToken).toBeCloseTo(b.unitsPerToken, 5);
  });

  it("rejects a nonsensical default", () => {
    expect(() => new TokenEstimator(0)).toThrow(RangeError);
  });
});
