// An invalid OLLAMA_HOST stops only what talks to the model: loadConfig keeps the error aside, the
// model set-up (run, the TUI) throws it before any request.
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { prepareModel } from "../../../src/main/cli/model-setup.js";
import { CONFIG_EXIT_CODE, loadConfig, modelConfigError, packageDefaults } from "../../../src/main/config/loader.js";
import { FatalError } from "../../../src/main/errors.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => removeDir(dir));

const env = (host: string) => ({ XDG_CONFIG_HOME: path.join(dir, "xdg"), OLLAMA_HOST: host });

describe("loadConfig with an invalid OLLAMA_HOST", () => {
  it("returns the config without it, the error kept for the model", () => {
    const loaded = loadConfig({ env: env("notaurl::") });
    expect(loaded.config.llm.host).toBe((packageDefaults().llm as { host: string }).host);
    expect(loaded.modelError).toBeInstanceOf(FatalError);
    expect(loaded.modelError!.exitCode).toBe(CONFIG_EXIT_CODE);
    expect(loaded.modelError!.message).toMatch(/^invalid configuration in environment variable OLLAMA_HOST:\n {2}OLLAMA_HOST: "notaurl::"/);
    expect(modelConfigError(loaded.config)).toBe(loaded.modelError);
  });

  it("has no error for a valid one, which it uses", () => {
    const loaded = loadConfig({ env: env("gpu-box:11500") });
    expect(loaded.modelError).toBeNull();
    expect(modelConfigError(loaded.config)).toBeNull();
    expect(loaded.config.llm.host).toBe("http://gpu-box:11500");
  });

  it("is what the model set-up throws, before any request", async () => {
    const { config } = loadConfig({ env: env("notaurl::") });
    const err = await prepareModel(config, { interactive: false, log: () => {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FatalError);
    expect((err as FatalError).message).toContain("environment variable OLLAMA_HOST");
    // The TUI opens without a running Ollama, but not with a host that cannot be one.
    const deferred = await prepareModel(config, { interactive: false, log: () => {}, deferWhenNotRunning: { onReady: () => {} } }).catch((e: unknown) => e);
    expect(deferred).toBe(err);
  });
});
