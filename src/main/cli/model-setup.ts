// Start-up checks for commands that talk to the model (seed 000 onboarding): Ollama reachable, the
// model installed (offer `ollama pull` with a progress bar on a terminal), the context window capped.
import { FatalError } from "../errors.js";
import { packageDefaults } from "../config/loader.js";
import type { IpuaroConfig } from "../config/schema.js";
import { OllamaClient } from "../llm/ollama-client.js";
import { TokenEstimator } from "../llm/token-estimator.js";
import { askChoice } from "./prompt.js";
import { TtyProgress } from "./progress-bar.js";

export interface ReadyModel {
  llm: OllamaClient;
  estimator: TokenEstimator;
  contextWindow: number;
}

export interface PrepareModelOptions {
  interactive: boolean;
  log: (line: string) => void;
  /**
   * Whether to say that the default llm.contextWindow is more than the model has. The TUI says it once
   * as it opens; a headless run would say it before every turn (`ipuaro doctor` shows it too).
   */
  sayDefaultWindowCut?: boolean;
}

export async function prepareModel(config: IpuaroConfig, opts: PrepareModelOptions): Promise<ReadyModel> {
  const estimator = new TokenEstimator();
  const llm = new OllamaClient({
    host: config.llm.host,
    model: config.llm.model,
    contextWindow: config.llm.contextWindow,
    temperature: config.llm.temperature,
    tokenEstimator: estimator,
  });
  let check = await llm.checkModel();
  if (check.status === "missing") {
    const what = `model ${check.model} is not installed in Ollama at ${check.host}`;
    if (!opts.interactive) throw new FatalError(`${what}. Install it with: ollama pull ${check.model}`, 3);
    const answer = await askChoice(`${what}.`, { y: `pull it now (ollama pull ${check.model})`, n: "quit" });
    if (answer === "n") throw new FatalError(`${what}. Install it with: ollama pull ${check.model}`, 3);
    const bar = new TtyProgress(process.stderr);
    await llm.pull({
      onProgress: (p) => {
        if (p.total) bar.update(p.status, p.completed ?? 0, p.total, "bytes");
        else bar.text(p.status);
      },
    });
    bar.end();
    check = await llm.checkModel();
    if (check.status !== "ready") throw new FatalError(`pulling ${config.llm.model} did not make it available`, 3);
  }
  // A window the user chose and the model cannot give is always said.
  const chosen = config.llm.contextWindow !== defaultContextWindow();
  if (check.notice && (chosen || opts.sayDefaultWindowCut !== false)) opts.log(`ipuaro: ${check.notice}`);
  return { llm, estimator, contextWindow: check.contextWindow };
}

function defaultContextWindow(): number | undefined {
  const llm = packageDefaults().llm as { contextWindow?: number } | undefined;
  return llm?.contextWindow;
}
