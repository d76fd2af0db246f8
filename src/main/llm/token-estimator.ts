// Estimates tokens for text not yet sent, calibrated from the server's own counts (prompt_eval_count).
// Text is first weighed in "ASCII-equivalent units" (Cyrillic and CJK cost more tokens per character
// than code/English in BPE vocabularies such as Qwen's), then divided by a ratio learnt from the server.

/** Units per token before any calibration: Qwen2.5's tokenizer gives roughly 3.5–4 chars/token on code. */
export const DEFAULT_UNITS_PER_TOKEN = 3.7;
/** Chat-template overhead per message (`<|im_start|>role\n … <|im_end|>\n`). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Per-character weight relative to ASCII. Rough, but the calibration absorbs the mix of a session. */
const CYRILLIC_WEIGHT = 1.6;
const CJK_WEIGHT = 2.8;
const OTHER_NON_ASCII_WEIGHT = 1.5;
/** How much the default counts as evidence, in tokens: one real request of this size mostly overrides it. */
const PRIOR_TOKENS = 500;
/** Older samples fade so the ratio follows what a session actually sends (prose first, code later). */
const SAMPLE_DECAY = 0.7;
/** A sample whose ratio falls outside this range is a cache/truncation artefact, not tokenizer evidence. */
const PLAUSIBLE_UNITS_PER_TOKEN: readonly [number, number] = [1, 12];
/** A request that used (nearly) the whole window was probably cut by the server; its count says nothing. */
const TRUNCATION_SUSPECT_FILL = 0.98;

export interface EstimatorMessage {
  content: string;
  /** Native calls the message carries: their arguments are sent too (a whole file for create_file). */
  toolCalls?: readonly { name: string; arguments: Record<string, unknown> }[];
}

export interface CalibrationSample {
  /** What was sent: the messages (their content and count) or raw text. */
  messages?: readonly EstimatorMessage[];
  text?: string;
  /** The server's prompt_eval_count for it; null/undefined when the server left it out. */
  promptTokens: number | null | undefined;
  /** The num_ctx the request was sent with, to ignore samples the server truncated. */
  contextWindow?: number;
  /** Tokens the prompt carries beyond the messages (e.g. a `tools` array), if known. */
  extraTokens?: number;
}

/** Weighs text in ASCII-equivalent units. */
export function textUnits(text: string): number {
  let units = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) units += 1;
    else if (cp >= 0x0400 && cp <= 0x052f) units += CYRILLIC_WEIGHT;
    else if (isCjk(cp)) units += CJK_WEIGHT;
    else units += OTHER_NON_ASCII_WEIGHT;
  }
  return units;
}

function isCjk(cp: number): boolean {
  return (
    (cp >= 0x3040 && cp <= 0x30ff) || // kana
    (cp >= 0x3400 && cp <= 0x9fff) || // CJK ideographs (ext A + unified)
    (cp >= 0xac00 && cp <= 0xd7af) || // hangul
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x20000 && cp <= 0x2ffff)
  );
}

export class TokenEstimator {
  private unitsSum: number;
  private tokensSum: number;
  private samples = 0;

  constructor(defaultUnitsPerToken = DEFAULT_UNITS_PER_TOKEN) {
    if (!(defaultUnitsPerToken > 0)) throw new RangeError(`units per token must be > 0, got ${defaultUnitsPerToken}`);
    this.tokensSum = PRIOR_TOKENS;
    this.unitsSum = PRIOR_TOKENS * defaultUnitsPerToken;
  }

  /** The current ratio (ASCII-equivalent characters per token). */
  get unitsPerToken(): number {
    return this.unitsSum / this.tokensSum;
  }

  /** How many server counts the ratio has learnt from. */
  get calibrationSamples(): number {
    return this.samples;
  }

  estimate(text: string): number {
    if (text.length === 0) return 0;
    return Math.ceil(textUnits(text) / this.unitsPerToken);
  }

  /** Tokens a list of chat messages will take once the chat template wraps them. */
  estimateMessages(messages: readonly EstimatorMessage[]): number {
    let total = 0;
    for (const m of messages) {
      total += this.estimate(m.content) + MESSAGE_OVERHEAD_TOKENS;
      if (m.toolCalls?.length) total += this.estimate(JSON.stringify(m.toolCalls));
    }
    return total;
  }

  /** Learns from one server count. Returns false when the sample was unusable and ignored. */
  calibrate(sample: CalibrationSample): boolean {
    const { promptTokens, contextWindow } = sample;
    if (typeof promptTokens !== "number" || !Number.isFinite(promptTokens) || promptTokens <= 0) return false;
    if (contextWindow !== undefined && promptTokens >= contextWindow * TRUNCATION_SUSPECT_FILL) return false;
    const messages = sample.messages ?? [];
    let units = sample.text !== undefined ? textUnits(sample.text) : 0;
    for (const m of messages) units += textUnits(m.content);
    const contentTokens = promptTokens - messages.length * MESSAGE_OVERHEAD_TOKENS - (sample.extraTokens ?? 0);
    if (units <= 0 || contentTokens <= 0) return false;
    const ratio = units / contentTokens;
    if (ratio < PLAUSIBLE_UNITS_PER_TOKEN[0] || ratio > PLAUSIBLE_UNITS_PER_TOKEN[1]) return false;
    this.unitsSum = this.unitsSum * SAMPLE_DECAY + units;
    this.tokensSum = this.tokensSum * SAMPLE_DECAY + contentTokens;
    this.samples++;
    return true;
  }
}
