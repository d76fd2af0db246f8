// OLLAMA_HOST forms, and a bad one reported as a config error (not a `TypeError: Invalid URL` stack).
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONFIG_EXIT_CODE, loadConfig } from "../../../src/main/config/loader.js";
import { FatalError, IpuaroError } from "../../../src/main/errors.js";
import { normalizeOllamaHost } from "../../../src/main/llm/ollama-host.js";
import { OllamaClient } from "../../../src/main/llm/ollama-client.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";

describe("normalizeOllamaHost", () => {
  it.each([
    ["127.0.0.1", "http://127.0.0.1:11434"],
    [":11500", "http://127.0.0.1:11500"],
    ["0.0.0.0", "http://127.0.0.1:11434"],
    ["https://gpu-box", "https://gpu-box:443"],
    ["http://gpu-box:8080/", "http://gpu-box:8080"],
  ])("%s → %s", (input, expected) => {
    expect(normalizeOllamaHost(input)).toBe(expected);
  });

  it.each([
    ["notaurl::", "is not a host:port or URL"],
    ["http://", "is not a host:port or URL"],
    ["ftp://gpu-box:11434", "uses ftp: (only http: and https: are supported)"],
  ])("%s is a config error naming the value", (input, why) => {
    let err: unknown;
    try {
      normalizeOllamaHost(input);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(IpuaroError);
    expect(err).toMatchObject({ type: "config", recoverable: false, message: `${JSON.stringify(input)} ${why}` });
  });

  it("OllamaClient names llm.host when the configured host is unusable", () => {
    expect(() => new OllamaClient({ host: "ftp://x", model: "m", contextWindow: 10, temperature: 0 })).toThrow(/^llm\.host "ftp:\/\/x" uses ftp:/);
  });
});

describe("loadConfig with a bad OLLAMA_HOST", () => {
  let dir: string;
  beforeEach(() => {
    dir = makeTempDir();
  });
  afterEach(() => removeDir(dir));

  it("is a FatalError with the config exit code, naming OLLAMA_HOST and the bad value (kept for commands that talk to the model)", () => {
    const err = loadConfig({ env: { XDG_CONFIG_HOME: path.join(dir, "xdg"), OLLAMA_HOST: "notaurl::" } }).modelError;
    expect(err).toBeInstanceOf(FatalError);
    expect((err as FatalError).exitCode).toBe(CONFIG_EXIT_CODE);
    expect((err as Error).message).toBe(
      'invalid configuration in environment variable OLLAMA_HOST:\n  OLLAMA_HOST: "notaurl::" is not a host:port or URL. ' +
        "Use host:port or a URL, e.g. 127.0.0.1:11434 or http://gpu-box:11434.",
    );
  });
});
