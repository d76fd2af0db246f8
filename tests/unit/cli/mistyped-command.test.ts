import { describe, expect, it } from "vitest";
import { mistypedCommand } from "../../../src/main/cli/commands/tui-command.js";
import { runIpuaro } from "../../helpers/cli.js";

const COMMANDS = ["tui", "index", "run", "sessions", "rewind", "undo", "tool", "doctor", "analyze"];

describe("a bare word that is no folder, given where the project path goes", () => {
  it("names the command it most likely meant", () => {
    expect(mistypedCommand("indx", COMMANDS)).toBe('unknown command "indx"; did you mean `ipuaro index`? (`ipuaro --help` lists the commands)');
    expect(mistypedCommand("sesions", COMMANDS)).toContain("did you mean `ipuaro sessions`?");
    expect(mistypedCommand("Rewnd", COMMANDS)).toContain("did you mean `ipuaro rewind`?");
  });

  it("says it is neither when nothing is close (one edit allowed in short words)", () => {
    expect(mistypedCommand("foo", COMMANDS)).toBe('"foo" is neither a command nor a folder here (`ipuaro --help` lists the commands; `ipuaro [path]` opens the UI on a project)');
  });

  it("leaves paths and existing folders to the UI", () => {
    expect(mistypedCommand("src", COMMANDS)).toBeNull(); // a folder of this repository (the tests' cwd)
    expect(mistypedCommand("./indx", COMMANDS)).toBeNull();
    expect(mistypedCommand("some/indx", COMMANDS)).toBeNull();
  });

  it("is what `ipuaro indx` prints, with exit code 2, before anything else happens", async () => {
    const r = await runIpuaro(["indx"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('ipuaro: unknown command "indx"; did you mean `ipuaro index`? (`ipuaro --help` lists the commands)\n');
  });
});
