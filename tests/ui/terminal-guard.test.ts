// The guard's reading of a terminal that went away: tmux kill-session or a closed window make writes
// fail with EIO, often before the SIGHUP is handled. That is a hang-up (the session saved, Redis
// stopped, exit 129), not a crash that exits at once and leaves the managed redis-server running.
import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { installTerminalGuard, type TerminalGuard } from "../../src/ui/terminal-guard.js";

let guard: TerminalGuard | null = null;
afterEach(() => {
  guard?.uninstall();
  guard = null;
});

function setup() {
  const output = Object.assign(new EventEmitter(), { written: [] as string[], write(data: string) { output.written.push(data); return true; } });
  const seen = { signals: [] as string[], exits: [] as number[], reports: [] as string[], left: 0 };
  guard = installTerminalGuard({
    output,
    input: { isTTY: false },
    leaveScreen: () => void seen.left++,
    onSignal: async (signal) => void seen.signals.push(signal),
    report: (text) => void seen.reports.push(text),
    exit: (code) => void seen.exits.push(code),
    shutdownTimeoutMs: 200,
  });
  return { output, seen };
}

/** process.emit's typings know no uncaughtException overload with an origin. */
const emit = process.emit.bind(process) as (event: string, ...args: unknown[]) => boolean;
const eio = () => Object.assign(new Error("write EIO"), { code: "EIO" });
const settle = () => new Promise((r) => setTimeout(r, 20));

describe("a terminal that goes away", () => {
  it("an EIO on the terminal's stream closes the app as a hang-up, once, even when the SIGHUP follows", async () => {
    const { output, seen } = setup();
    output.emit("error", eio());
    output.emit("error", eio());
    emit("SIGHUP", "SIGHUP");
    await settle();
    expect(seen.signals).toEqual(["SIGHUP"]);
    expect(seen.exits).toEqual([129]);
    expect(seen.reports).toEqual([]);
    expect(seen.left).toBe(1);
  });

  it("an EIO that reaches the process as an uncaught exception is a hang-up too; any other error is a crash", async () => {
    const { seen } = setup();
    emit("uncaughtException", eio(), "uncaughtException");
    await settle();
    expect(seen.signals).toEqual(["SIGHUP"]);
    expect(seen.exits).toEqual([129]);
    guard!.uninstall();
    const other = setup();
    emit("uncaughtException", new Error("boom"), "uncaughtException");
    await settle();
    expect(other.seen.signals).toEqual([]);
    expect(other.seen.exits).toEqual([1]);
    expect(other.seen.reports[0]).toContain("ipuaro: crashed: Error: boom");
  });
});
