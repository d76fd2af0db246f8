// Processes a command starts must not outlive it, even when they leave its process group (setsid, a
// detached child) or when ipuaro itself is stopped by Ctrl+C with nobody handling the signal (`ipuaro
// tool run_command …`). Real processes throughout; Linux /proc is what tells a live process from a zombie.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { groupAlive, runInProcessGroup } from "../../../src/main/exec/process-group.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const PROCESS_GROUP_MODULE = path.join(REPO, "src", "main", "exec", "process-group.ts");
const dirs: string[] = [];
const leftovers: number[] = [];

afterEach(() => {
  for (const pid of leftovers.splice(0)) {
    // 0 and -1 are no leftover: kill(0) signals this test runner's own process group (vitest, npm and
    // whatever started them: a CI run died silently of it), kill(-1) every process there is.
    if (!Number.isInteger(pid) || Math.abs(pid) <= 1) continue;
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone, as it should be
    }
  }
  for (const dir of dirs.splice(0)) removeDir(dir);
});

/** Running and not a zombie (an orphan may be reaped late). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

function tempDir(): string {
  const dir = makeTempDir("ipuaro-escapes-");
  dirs.push(dir);
  return dir;
}

describe.skipIf(process.platform !== "linux")("run_command processes that leave the group", () => {
  it("stops a setsid daemon that holds the output, without waiting out the grace period", async () => {
    const r = await runInProcessGroup({ command: "setsid sleep 57 & echo $!", cwd: tempDir(), killGraceMs: 2_000 });
    const pid = Number(r.output.trim());
    leftovers.push(pid);
    expect(pid).toBeGreaterThan(0);
    expect(r.exitCode).toBe(0);
    expect(r.killedLeftovers).toBe(true);
    expect(alive(pid)).toBe(false);
    expect(r.durationMs).toBeLessThan(1_900);
  });

  it("stops a detached child that closed its output", async () => {
    const dir = tempDir();
    const script = 'const c = require("child_process").spawn("sleep", ["58"], { detached: true, stdio: "ignore" }); console.log(c.pid); c.unref();';
    fs.writeFileSync(path.join(dir, "daemon.cjs"), script);
    const r = await runInProcessGroup({ command: "node daemon.cjs", cwd: dir });
    const pid = Number(r.output.trim());
    leftovers.push(pid);
    expect(pid).toBeGreaterThan(0);
    expect(r.killedLeftovers).toBe(true);
    expect(alive(pid)).toBe(false);
  });

  it("leaves nothing behind and says nothing when the command started nothing", async () => {
    const r = await runInProcessGroup({ command: "echo plain", cwd: tempDir() });
    expect(r.output).toBe("plain\n");
    expect(r.killedLeftovers).toBe(false);
  });
});

describe.skipIf(process.platform !== "linux")("Ctrl+C to ipuaro while a command runs", () => {
  it("stops the command's process group before ipuaro dies of the signal", async () => {
    const dir = tempDir();
    // What `ipuaro tool run_command` is: a process that runs a command and has no SIGINT handler.
    fs.writeFileSync(
      path.join(dir, "runner.mts"),
      [
        `import { runInProcessGroup } from ${JSON.stringify(PROCESS_GROUP_MODULE)};`,
        `await runInProcessGroup({ command: "echo $$; sleep 59; echo finished", cwd: ${JSON.stringify(dir)}, onOutput: (c) => process.stdout.write(c) });`,
        'console.log("the run returned");',
      ].join("\n"),
    );
    // Started from the repository, where `--import tsx` resolves (not from the temp folder).
    const child = spawn(process.execPath, ["--import", "tsx", path.join(dir, "runner.mts")], { cwd: REPO, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (out += c));
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once("exit", (code, signal) => resolve(signal ?? code)));
    const deadline = Date.now() + 20_000;
    while (!/^\d+\n/.test(out) && Date.now() < deadline) await sleep(50);
    const pgid = Number(out.split("\n")[0]);
    leftovers.push(-pgid);
    expect(pgid).toBeGreaterThan(0);
    expect(groupAlive(pgid)).toBe(true);

    child.kill("SIGINT");
    expect(await exited).toBe("SIGINT");
    expect(groupAlive(pgid)).toBe(false);
    expect(out).not.toContain("finished");
  }, 30_000);
});
