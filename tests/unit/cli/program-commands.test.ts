// `ipuaro` loads only the modules a command line can reach: a named subcommand alone, nothing for
// --version, every command where help is printed or a path (or a mistyped name) reaches the default one.
import { describe, expect, it } from "vitest";
import { buildProgram, commandsFor } from "../../../src/main/cli/program.js";

const argv = (...args: string[]) => ["node", "ipuaro", ...args];
const ALL = ["index", "run", "tool", "check-command", "sessions", "undo", "rewind", "doctor", "analyze", "memory", "decisions", "tui"];

describe("the commands a command line loads", () => {
  it("a named subcommand loads alone; --version loads none", () => {
    expect(commandsFor(argv("index", ".", "--bench"))).toEqual(["index"]);
    expect(commandsFor(argv("check-command", "--", "ls"))).toEqual(["check-command"]);
    expect(commandsFor(argv("--version"))).toEqual([]);
    expect(commandsFor(argv("-v"))).toEqual([]);
  });

  it("help, the default command, a path and a mistyped name load them all", () => {
    for (const line of [argv(), argv("--help"), argv("help", "index"), argv("."), argv("/some/project"), argv("indx"), argv("tui", "indx")]) {
      expect(commandsFor(line)).toEqual(ALL);
    }
  });

  it("builds a program with exactly those commands, and help still lists every one", async () => {
    expect((await buildProgram(argv("doctor"))).commands.map((c) => c.name())).toEqual(["doctor"]);
    const all = await buildProgram(argv("--help"));
    expect(all.commands.map((c) => c.name())).toEqual(ALL);
    const help = all.helpInformation();
    for (const name of ALL) expect(help).toContain(name);
  });
});
