// Start-up checks for commands that talk to the model (seed 000 onboarding): Ollama reachable, the
// model installed (offer `ollama pull` with a progress bar on a terminal), the context window capped.
import { FatalError, IpuaroError } from "../errors.js";
import { modelConfigError, settingSource } from "../config/loader.js";
import type { IpuaroConfig } from "../config/schema.js";
import { OllamaClient, type LlmClient, type ModelCheck } from "../llm/ollama-client.js";
import { DeferredModelCheck, type ReadyCheck } from "../llm/deferred-model-check.js";
import { isOllamaNotRunning } from "../llm/llm-errors.js";
import { installedModelsText, missingModelAdvice } from "../llm/missing-model.js";
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
    // The notice of the check that passes later follows the same rule as one made now (windowNotice).
    const onReady = (c: ReadyCheck) => {
      const { notice: _, ...rest } = c;
      const notice = windowNotice(config, c);
      defer.onReady(notice ? { ...rest, notice } : rest);
    };
    return { llm: new DeferredModelCheck(llm, onReady), estimator, notRunning: err as IpuaroError };
  }
  if (check.status === "missing") {
    const what = `model ${check.model} is not installed in Ollama at ${check.host}`;
    // Which models are there and how to choose one, besides pulling this one.
    const missing = new FatalError(`${what}. ${missingModelAdvice(check.model, check.installed, `\`ollama pull ${check.model}\``)}`, 3);
    if (!opts.interactive) throw missing;
    const answer = await askChoice(`${what}. ${installedModelsText(check.installed)}`, { y: `pull it now (ollama pull ${check.model})`, n: "quit" });
    if (answer === "n") throw missing;
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
  const notice = windowNotice(config, check);
  if (notice) opts.log(`ipuaro: ${notice}`);
  return { llm, estimator };
}

/**
 * What to say about the window the model gave: only when a window the user set (their config, the
 * project's, the command line) is more than the model supports. The shipped default (128K) is cut to
 * the model's size quietly — said on every start in every project, a warning no one could avoid without
 * editing their config was noise; /status and `ipuaro doctor` show the window in use.
 */
export function windowNotice(config: IpuaroConfig, check: ReadyCheck): string | null {
  const source = settingSource(config, "llm.contextWindow");
  const max = check.modelContextLength;
  if (source === null || max === null || config.llm.contextWindow <= max) return null;
  return `llm.contextWindow is ${config.llm.contextWindow} tokens (set in ${source}) but ${check.model} supports ${max}; using ${max}.`;
}
