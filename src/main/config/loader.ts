// Loads configuration in layers: package default → user → project → environment. After each layer the
// merged result is validated, so an error names both the bad key and the file that introduced it.
import fs from "node:fs";
import path from "node:path";
import { FatalError, IpuaroError } from "../errors.js";
import { normalizeOllamaHost } from "../llm/ollama-host.js";
import { ConfigSchema, type IpuaroConfig } from "./schema.js";
import { CONFIG_EXIT_CODE, ipuaroHome, packageConfigDir, PROJECT_CONFIG_FILE, userConfigDir } from "./paths.js";

export { CONFIG_EXIT_CODE };

type Json = Record<string, unknown>;

function isPlainObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Objects merge key by key; arrays and scalars replace (additive lists aside, see addLists). */
export function deepMerge(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over)) {
    out[k] = isPlainObject(v) && isPlainObject(out[k]) ? deepMerge(out[k] as Json, v) : v;
  }
  return out;
}

/**
 * Lists each layer adds to instead of replacing: a project that ignores `secrets` still ignores
 * node_modules and dist (and the watcher, which never watches node_modules, agrees with the index). A
 * default can be taken back in gitignore syntax: `!build`.
 */
const ADDITIVE_LISTS: ReadonlyArray<readonly [string, string]> = [["project", "ignorePatterns"]];

function addLists(merged: Json, layer: Json): Json {
  let out = layer;
  for (const [section, key] of ADDITIVE_LISTS) {
    const mine = (layer[section] as Json | undefined)?.[key];
    const before = (merged[section] as Json | undefined)?.[key];
    if (!Array.isArray(mine) || !Array.isArray(before)) continue;
    const combined = [...before, ...mine.filter((p) => !before.includes(p))];
    out = { ...out, [section]: { ...(out[section] as Json), [key]: combined } };
  }
  return out;
}

function readJsonLayer(file: string): Json | null {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new FatalError(`cannot read config ${file}: ${(err as Error).message}`, CONFIG_EXIT_CODE);
  }
  let parsed: unknown;
  try {
    // A BOM (Windows editors add one) is no JSON error.
    parsed = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (err) {
    throw new FatalError(`config ${file} is not valid JSON: ${(err as Error).message}`, CONFIG_EXIT_CODE);
  }
  if (!isPlainObject(parsed)) throw new FatalError(`config ${file} must be a JSON object`, CONFIG_EXIT_CODE);
  return parsed;
}

/**
 * A bad OLLAMA_HOST only matters to commands that talk to the model: it is left out of the config and
 * kept as `modelError` (see modelConfigError), so `ipuaro index`, `doctor` or `sessions` still run.
 */
function envLayer(env: NodeJS.ProcessEnv): { layer: Json; modelError: FatalError | null } {
  const layer: Json = {};
  let modelError: FatalError | null = null;
  // Not a layer of the schema, but every command's data folder: a relative one is refused up front.
  if (env.IPUARO_HOME) ipuaroHome(env);
  if (env.IPUARO_REDIS_URL) layer.redis = { url: env.IPUARO_REDIS_URL };
  if (env.OLLAMA_HOST) {
    const host = ollamaHostFromEnv(env.OLLAMA_HOST);
    if (host instanceof FatalError) modelError = host;
    else layer.llm = { host };
  }
  return { layer, modelError };
}

/** A bad OLLAMA_HOST is a config error like any other bad value, not a `TypeError: Invalid URL` stack. */
function ollamaHostFromEnv(value: string): string | FatalError {
  try {
    return normalizeOllamaHost(value);
  } catch (err) {
    const why = err instanceof IpuaroError ? `${err.message}${err.suggestion ? `. ${err.suggestion}` : ""}` : `${JSON.stringify(value)} is not valid`;
    return new FatalError(`invalid configuration in environment variable OLLAMA_HOST:\n  OLLAMA_HOST: ${why}`, CONFIG_EXIT_CODE);
  }
}

/** Configs whose model settings are unusable, with why; only loadConfig adds to it. */
const modelErrors = new WeakMap<IpuaroConfig, FatalError>();
/** The layers above ipuaro's defaults each config (as loadConfig returned it) was merged from. */
const ownLayers = new WeakMap<IpuaroConfig, readonly ConfigSource[]>();

/**
 * Where the user set `key` (dotted: "llm.contextWindow"): the name of the last layer above ipuaro's
 * defaults that has it (the user's or the project's file, the environment, command-line options), or
 * null when the value is the shipped default — a default the model cannot honour is adjusted quietly,
 * a value the user chose is worth a word. Also null for a config loadConfig did not make.
 */
export function settingSource(config: IpuaroConfig, key: string): string | null {
  const parts = key.split(".");
  const layers = ownLayers.get(config) ?? [];
  for (let i = layers.length - 1; i >= 0; i--) {
    let node: unknown = layers[i]!.layer;
    for (const part of parts) node = isPlainObject(node) ? node[part] : undefined;
    if (node !== undefined) return layers[i]!.name;
  }
  return null;
}

/**
 * Why this config (as loadConfig returned it) cannot reach the model, or null: commands that talk to the
 * model (run, the TUI) throw it before their first request; `ipuaro doctor` reports it.
 */
export function modelConfigError(config: IpuaroConfig): FatalError | null {
  return modelErrors.get(config) ?? null;
}

function formatIssues(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return error.issues
    .map((i) => `  ${i.path.length ? i.path.map(String).join(".") : "(root)"}: ${i.message}`)
    .join("\n");
}

export interface ConfigSource {
  name: string;
  layer: Json;
}

export interface LoadConfigOptions {
  projectRoot?: string;
  env?: NodeJS.ProcessEnv;
  /** Extra layer applied last (CLI flags). */
  overrides?: Json;
}

export interface LoadedConfig {
  config: IpuaroConfig;
  sources: string[];
  /** Set when OLLAMA_HOST is invalid: it was ignored, and talking to the model is refused (modelConfigError). */
  modelError: FatalError | null;
}

/** ipuaro's own defaults (config/default.json), before any user, project or env layer. */
export function packageDefaults(): Json {
  const file = path.join(packageConfigDir(), "default.json");
  const base = readJsonLayer(file);
  if (!base) throw new FatalError(`ipuaro's default config is missing: ${file}`, CONFIG_EXIT_CODE);
  return base;
}

export function loadConfig(opts: LoadConfigOptions = {}): LoadedConfig {
  const env = opts.env ?? process.env;
  const layers: ConfigSource[] = [];
  layers.push({ name: path.join(packageConfigDir(), "default.json"), layer: packageDefaults() });
  const userFile = path.join(userConfigDir(env), "config.json");
  const user = readJsonLayer(userFile);
  if (user) layers.push({ name: userFile, layer: user });
  if (opts.projectRoot) {
    const projectFile = path.join(opts.projectRoot, PROJECT_CONFIG_FILE);
    const project = readJsonLayer(projectFile);
    if (project) layers.push({ name: projectFile, layer: project });
  }
  const { layer: fromEnv, modelError } = envLayer(env);
  if (Object.keys(fromEnv).length) layers.push({ name: "environment (IPUARO_REDIS_URL / OLLAMA_HOST)", layer: fromEnv });
  if (opts.overrides && Object.keys(opts.overrides).length) layers.push({ name: "command-line options", layer: opts.overrides });

  let merged: Json = {};
  for (const { name, layer } of layers) {
    merged = deepMerge(merged, addLists(merged, layer));
    const result = ConfigSchema.safeParse(merged);
    if (!result.success) {
      throw new FatalError(`invalid configuration in ${name}:\n${formatIssues(result.error)}`, CONFIG_EXIT_CODE);
    }
  }
  const config = ConfigSchema.parse(merged);
  if (modelError) modelErrors.set(config, modelError);
  ownLayers.set(config, layers.slice(1));
  return { config, sources: layers.map((l) => l.name), modelError };
}
