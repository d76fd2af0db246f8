// Start-up checks for commands that talk to the model (seed 000 onboarding): Ollama reachable, the
// model installed (offer `ollama pull` with a progress bar on a terminal), the context window capped.
import { FatalError, IpuaroError } from "../errors.js";
import { modelConfigError, packageDefaults } from "../config/loader.js";
import type { IpuaroConfig } from "../config/schema.js";
import { OllamaClient, type LlmClient, type ModelCheck } from "../llm/ollama-client.js";
import { DeferredModelCheck, type ReadyCheck } from "../llm/deferred-model-check.js";
import { isOllamaNotRunning } from "../llm/llm-errors.js";
import { TokenEstimator } from "../llm/token-estimator.js";
import { askChoice } from "./prompt.js";
import { TtyProgress } from "./progress-bar.js";

export interface ReadyModel {
  llm: LlmClient;
  estimator: TokenEstimator;
  /**
   * Set when Ollama did not answer and `deferWhenNotRunning` was given: the client checks the model
   * before its first request instead (see DeferredModelCheck), and this says why it could not yet.
   */
  notRunning?: IpuaroError;
}

export interface PrepareModelOptions {
  interactive: boolean;
  log: (line: string) => void;
  /**
   * Whether to say that the default llm.contextWindow is more than the model has. The TUI says it once
   * as it opens; a headless run would say it before every turn (`ipuaro doctor` shows it too).
   */
  sayDefaultWindowCut?: boolean;
  /**
   * The full-screen UI opens without a running Ollama: given this, a server that does not answer is not
   * an error here, and `onReady` hears the check that passes later (before a request).
   */
  deferWhenNotRunning?: { onReady(check: ReadyCheck): void };
  /** Ctrl+C: the check (or a model download) stops at once with an LlmCancelledError. */
  signal?: AbortSignal;
}

export async function prepareModel(config: IpuaroConfig, opts: PrepareModelOptions): Promise<ReadyModel> {
  // An invalid OLLAMA_HOST stops only commands that talk to the model (loader.ts keeps it for them).
  const badHost = modelConfigError(config);
  if (badHost) throw badHost;
  const estimator = new TokenEstimator();
  const llm = new OllamaClient({
    host: config.llm.host,
    model: config.llm.model,
    contextWindow: config.llm.contextWindow,
    temperature: config.llm.temperature,
    tokenEstimator: estimator,
  });
  let check: ModelCheck;
  try {
    check = await llm.checkModel(opts.signal);
  } catch (err) {
    const defer = opts.deferWhenNotRunning;
    if (!defer || !isOllamaNotRunning(err)) throw err;
    return { llm: new DeferredModelCheck(llm, (c) => defer.onReady(c)), estimator, notRunning: err as IpuaroError };
  }
  if (check.status === "missing") {
    const what = `model ${check.model} is not installed in Ollama at ${check.host}`;
    if (!opts.interactive) throw new FatalError(`${what}. Install it with: ollama pull ${check.model}`, 3);
    const answer = await askChoice(`${what}.`, { y: `pull it now (ollama pull ${check.model})`, n: "quit" });
    if (answer === "n") throw new FatalError(`${what}. Install it with: ollama pull ${check.model}`, 3);
    const bar = new TtyProgress(process.stderr);
    try {
      await llm.pull({
        ...(opts.signal ? { signal: opts.signal } : {}),
        onProgress: (p) => {
          if (p.total) bar.update(p.status, p.completed ?? 0, p.total, "bytes");
          else bar.text(p.status);
        },
      });
    } finally {
      // A download stopped by Ctrl+C or a failure leaves the line for what is said next.
      bar.end();
    }
    check = await llm.checkModel(opts.signal);
    if (check.status !== "ready") throw new FatalError(`pulling ${config.llm.model} did not make it available`, 3);
  }
  // A window the user chose and the model cannot give is always said.
  const chosen = config.llm.contextWindow !== defaultContextWindow();
  if (check.notice && (chosen || opts.sayDefaultWindowCut !== false)) opts.log(`ipuaro: ${check.notice}`);
  return { llm, estimator };
}

function defaultContextWindow(): number | undefined {
  const llm = packageDefaults().llm as { contextWindow?: number } | undefined;
  return llm?.contextWindow;
}
