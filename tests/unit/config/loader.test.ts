import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig, settingSource } from "../../../src/main/config/loader.js";
import { FatalError } from "../../../src/main/errors.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";

let dir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  dir = makeTempDir();
  env = { XDG_CONFIG_HOME: path.join(dir, "xdg") };
});
afterEach(() => removeDir(dir));

describe("loadConfig", () => {
  it("loads the shipped defaults from seed 000", () => {
    const { config } = loadConfig({ env });
    expect(config.llm.model).toBe("qwen2.5-coder:7b-instruct");
    expect(config.llm.contextWindow).toBe(128000);
    // The seed's second "llm" block is merged, not lost.
    expect(config.llm.toolFormat).toBe("xml");
    expect(config.watchdog.debounceMs).toBe(500);
    expect(config.limits.maxFilesWarning).toBe(10000);
    expect(config.project.ignorePatterns).toContain("node_modules");
  });

  it("applies default → user → project → env in that order", () => {
    writeTree(dir, {
      "xdg/ipuaro/config.json": JSON.stringify({ llm: { temperature: 0.5, model: "user-model" }, watchdog: { debounceMs: 100 } }),
      "proj/.ipuaro.json": JSON.stringify({ llm: { temperature: 0.2 }, project: { ignorePatterns: ["vendor"] } }),
    });
    const { config, sources } = loadConfig({
      projectRoot: path.join(dir, "proj"),
      env: { ...env, IPUARO_REDIS_URL: "redis://127.0.0.1:6390/2", OLLAMA_HOST: "0.0.0.0:11500" },
    });
    expect(config.llm.model).toBe("user-model");
    expect(config.llm.temperature).toBe(0.2);
    expect(config.watchdog.debounceMs).toBe(100);
    // A project's ignorePatterns add to the defaults (node_modules, dist… stay ignored).
    expect(config.project.ignorePatterns).toEqual(["node_modules", "dist", "build", ".git", "*.min.js", "vendor"]);
    expect(config.redis.url).toBe("redis://127.0.0.1:6390/2");
    expect(config.llm.host).toBe("http://127.0.0.1:11500");
    expect(sources).toHaveLength(4);
  });

  it("names the bad key and the file that introduced it", () => {
    writeTree(dir, { "proj/.ipuaro.json": JSON.stringify({ llm: { temperature: 7 }, watchdog: { debounceMs: "soon" } }) });
    let err: unknown;
    try {
      loadConfig({ projectRoot: path.join(dir, "proj"), env });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FatalError);
    const msg = (err as Error).message;
    expect(msg).toContain(path.join(dir, "proj", ".ipuaro.json"));
    expect(msg).toContain("llm.temperature");
    expect(msg).toContain("watchdog.debounceMs");
  });

  it("checks redis.url and llm.host as the connections will read them, naming the file or variable", () => {
    writeTree(dir, { "proj/.ipuaro.json": JSON.stringify({ redis: { url: "htp://localhost" } }) });
    expect(() => loadConfig({ projectRoot: path.join(dir, "proj"), env })).toThrow(/\.ipuaro\.json:\n {2}redis\.url: Unsupported Redis URL scheme "htp:"/);
    expect(() => loadConfig({ env: { ...env, IPUARO_REDIS_URL: "redis://localhost:99999" } })).toThrow(/environment \(IPUARO_REDIS_URL[^:]*:\n {2}redis\.url: Invalid Redis URL/);
    writeTree(dir, { "proj/.ipuaro.json": JSON.stringify({ llm: { host: "ftp://x" } }) });
    expect(() => loadConfig({ projectRoot: path.join(dir, "proj"), env })).toThrow(/llm\.host: "ftp:\/\/x" uses ftp:/);
    // host:port, as OLLAMA_HOST takes it, is fine in a file too.
    writeTree(dir, { "proj/.ipuaro.json": JSON.stringify({ llm: { host: "127.0.0.1:11500" } }) });
    expect(loadConfig({ projectRoot: path.join(dir, "proj"), env }).config.llm.host).toBe("127.0.0.1:11500");
  });

  it("says that llm.cache and another systemPromptLanguage are not supported instead of ignoring them", () => {
    writeTree(dir, { "proj/.ipuaro.json": JSON.stringify({ llm: { cache: true, systemPromptLanguage: "ru" } }) });
    expect(() => loadConfig({ projectRoot: path.join(dir, "proj"), env })).toThrow(/llm\.systemPromptLanguage: only "en"[\s\S]*llm\.cache: answers are not cached/);
  });

  it("rejects unknown keys instead of ignoring a typo", () => {
    writeTree(dir, { "xdg/ipuaro/config.json": JSON.stringify({ watchdog: { debounceMS: 10 } }) });
    expect(() => loadConfig({ env })).toThrow(/watchdog/);
  });

  it("reports invalid JSON with the file name", () => {
    writeTree(dir, { "xdg/ipuaro/config.json": "{ not json" });
    expect(() => loadConfig({ env })).toThrow(/config\.json is not valid JSON/);
  });

  it("reads a file saved with a BOM", () => {
    writeTree(dir, { "xdg/ipuaro/config.json": `\uFEFF${JSON.stringify({ llm: { temperature: 0.3 } })}` });
    expect(loadConfig({ env }).config.llm.temperature).toBe(0.3);
  });

  it("ignores a missing user or project file", () => {
    expect(() => loadConfig({ projectRoot: path.join(dir, "nowhere"), env })).not.toThrow();
    expect(fs.existsSync(path.join(dir, "xdg"))).toBe(false);
  });
});

describe("settingSource", () => {
  it("tells a shipped default from a value the user set, and names where it was set", () => {
    const defaults = loadConfig({ env }).config;
    expect(defaults.llm.contextWindow).toBe(128000);
    expect(settingSource(defaults, "llm.contextWindow")).toBeNull();
    // The same value as the default, set by the user, is the user's.
    writeTree(dir, {
      "xdg/ipuaro/config.json": JSON.stringify({ llm: { contextWindow: 128000 } }),
      "proj/.ipuaro.json": JSON.stringify({ llm: { temperature: 0.2 } }),
    });
    const user = loadConfig({ projectRoot: path.join(dir, "proj"), env }).config;
    expect(settingSource(user, "llm.contextWindow")).toBe(path.join(dir, "xdg", "ipuaro", "config.json"));
    expect(settingSource(user, "llm.temperature")).toBe(path.join(dir, "proj", ".ipuaro.json"));
    expect(settingSource(user, "llm.model")).toBeNull();
    // The project's file overrides the user's.
    writeTree(dir, { "proj/.ipuaro.json": JSON.stringify({ llm: { contextWindow: 65536 } }) });
    expect(settingSource(loadConfig({ projectRoot: path.join(dir, "proj"), env }).config, "llm.contextWindow")).toBe(path.join(dir, "proj", ".ipuaro.json"));
  });
});
