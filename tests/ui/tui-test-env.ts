// Environment for running the real TUI in-process: a test Redis, the fake Ollama, and homes inside the
// project so nothing touches the real user's config or data.
import path from "node:path";
import { vi } from "vitest";

export function stubTuiEnv(opts: { redisUrl: string; ollamaUrl: string; root: string }): void {
  vi.stubEnv("IPUARO_REDIS_URL", opts.redisUrl);
  vi.stubEnv("OLLAMA_HOST", opts.ollamaUrl);
  vi.stubEnv("XDG_CONFIG_HOME", path.join(opts.root, ".xdg"));
  vi.stubEnv("IPUARO_HOME", path.join(opts.root, ".home"));
  vi.stubEnv("NO_COLOR", "");
  vi.stubEnv("EDITOR", "");
}
