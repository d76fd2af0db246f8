// ipuaro run bounds commands when the user set no commands.timeout: nobody is there to stop a dev server.
import { describe, expect, it } from "vitest";
import { HEADLESS_COMMAND_TIMEOUT_MS, headlessConfig } from "../../../src/main/cli/commands/run-action.js";
import { loadConfig } from "../../../src/main/config/loader.js";

describe("headlessConfig", () => {
  const base = loadConfig({ env: { XDG_CONFIG_HOME: "/nonexistent-ipuaro-config" } }).config;

  it("gives commands a timeout when none is set, and keeps the user's own", () => {
    expect(base.commands.timeout).toBeNull();
    expect(headlessConfig(base).commands.timeout).toBe(HEADLESS_COMMAND_TIMEOUT_MS);
    const own = { ...base, commands: { ...base.commands, timeout: 5_000 } };
    expect(headlessConfig(own)).toBe(own);
    // The rest of the config is the user's.
    expect(headlessConfig(base).llm).toBe(base.llm);
  });
});
