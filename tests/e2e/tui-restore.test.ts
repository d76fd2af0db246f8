// pty fixtures for "the terminal is always given back": after an uncaught exception, an unhandled
// rejection, SIGTERM, SIGHUP and a normal Ctrl+D exit, the shell finds the terminal in cooked mode
// (icanon), on the normal screen, with the cursor shown — checked with `stty -a` in the same pane.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { TmuxPane, hasTmux } from "./tmux-pane.js";
import { signalPid } from "../helpers/signal-pid.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const MARK = "FIXTURE-EXITED";

let pane: TmuxPane | null = null;
let pidFile = "";
afterEach(() => {
  pane?.close();
  pane = null;
  if (pidFile) fs.rmSync(pidFile, { force: true });
});

async function start(): Promise<TmuxPane> {
  pidFile = path.join(os.tmpdir(), `ipuaro-restore-${process.pid}-${Date.now()}.pid`);
  const cmd = `node --import tsx tests/e2e/fixtures/tui-restore-app.ts; code=$?; echo; echo "${MARK} code=$code $(stty -a | grep -oE -- '(^| )-?icanon' | tr -d ' ')"; sleep 600`;
  pane = new TmuxPane(cmd, { cwd: REPO, env: { PID_FILE: pidFile } });
  await pane.waitFor("[ipuaro]");
  await pane.waitFor("[project: restore-fixture]");
  return pane;
}

async function finished(p: TmuxPane): Promise<{ line: string; screen: string }> {
  const screen = await p.waitFor(MARK);
  return { line: screen.split("\n").find((l) => l.includes(MARK))!, screen };
}

describe.skipIf(!hasTmux())("the terminal is restored", () => {
  it("after an uncaught exception (the crash is reported on the normal screen)", async () => {
    const p = await start();
    p.type("crash");
    p.send("Enter");
    const { line, screen } = await finished(p);
    expect(line).toContain("code=1");
    expect(line).toContain(" icanon");
    expect(screen).toContain("ipuaro: crashed: Error: boom from a timer");
    expect(screen).not.toContain("[ipuaro]");
  });

  it("after an unhandled rejection", async () => {
    const p = await start();
    p.type("reject");
    p.send("Enter");
    const { line, screen } = await finished(p);
    expect(line).toContain("code=1");
    expect(line).toContain(" icanon");
    expect(screen).toContain("boom from a promise");
  });

  it.each([
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const)("after %s", async (signal, code) => {
    const p = await start();
    signalPid(Number(fs.readFileSync(pidFile, "utf8")), signal);
    const { line, screen } = await finished(p);
    expect(line).toContain(`code=${code}`);
    expect(line).toContain(" icanon");
    expect(screen).not.toContain("[ipuaro]");
  });

  it("after Ctrl+D", async () => {
    const p = await start();
    p.send("C-d");
    const { line } = await finished(p);
    expect(line).toContain("code=0");
    expect(line).toContain(" icanon");
  });
});
