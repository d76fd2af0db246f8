// What to say when Ollama answers but does not have the configured model: which models it does have (the
// model check has just listed them), how to choose one of them, and how to download the one configured.
import path from "node:path";
import { PROJECT_CONFIG_FILE, userConfigDir } from "../config/paths.js";

/** How many installed models are named before "and N more". */
export const NAMED_MODELS = 5;

/** `Installed there: llama3:8b, mistral:7b.`, the first few; or that there are none. */
export function installedModelsText(installed: readonly string[]): string {
  if (installed.length === 0) return "No model is installed there yet.";
  const named = installed.slice(0, NAMED_MODELS).join(", ");
  const more = installed.length > NAMED_MODELS ? ` and ${installed.length - NAMED_MODELS} more (\`ollama list\`)` : "";
  return `Installed there: ${named}${more}.`;
}

/** How to use another model: the config key, and the files it goes in (yours, or the project's). */
export function chooseModelText(installed: readonly string[], env: NodeJS.ProcessEnv = process.env): string {
  const example = installed[0] ?? "NAME";
  const file = path.join(userConfigDir(env), "config.json");
  return `To use ${installed.length === 1 ? "it" : "one of them"}, set llm.model — {"llm": {"model": "${example}"}} — in ${file} (or in the project's ${PROJECT_CONFIG_FILE}).`;
}

/**
 * The whole advice for a missing model: the models there are and how to pick one (when there are any),
 * and how to download the configured one. `pull` says where the download is run.
 */
export function missingModelAdvice(model: string, installed: readonly string[], pull = "`ollama pull " + model + "`"): string {
  if (installed.length === 0) return `No model is installed there yet: download ${model} with ${pull}.`;
  return `${installedModelsText(installed)} ${chooseModelText(installed)} Or download ${model} with ${pull}.`;
}
