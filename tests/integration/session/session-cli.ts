// Spawns the CLI from its sources as a user would run it, with access to the child (for kill -9 tests).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { CliResult } from "../../helpers/cli.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "..", "..", "..");
const ENTRY = path.join(REPO, "src", "main", "cli", "entry.ts");

export interface RunningCli {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  done: Promise<CliResult & { signal: NodeJS.Signals | null }>;
}

export function spawnCli(args: string[], env: NodeJS.ProcessEnv): RunningCli {
  const child = spawn(process.execPath, ["--import", "tsx", ENTRY, ...args], { cwd: REPO, env: { ...process.env, NO_COLOR: "1", ...env }, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  child.stdin.end("");
  const done = new Promise<CliResult & { signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, stdout: () => stdout, stderr: () => stderr, done };
}

export async function runCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<CliResult> {
  const running = spawnCli(args, env);
  const timer = setTimeout(() => running.child.kill("SIGKILL"), timeoutMs);
  try {
    const r = await running.done;
    if (r.signal === "SIGKILL") throw new Error(`ipuaro ${args.join(" ")} timed out\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
    return r;
  } finally {
    clearTimeout(timer);
  }
}
