// `⏱ 3.2s │ 1,247 tokens │ 1 tool call` after each answer (seed 000 "Статистика ответа").
import type { TurnStatsShown } from "../session/session-types.js";

export function formatTurnStats(stats: TurnStatsShown): string {
  const calls = `${stats.toolCalls} tool call${stats.toolCalls === 1 ? "" : "s"}`;
  return `⏱ ${(stats.timeMs / 1000).toFixed(1)}s │ ${stats.tokens.toLocaleString("en-US")} tokens │ ${calls}`;
}
