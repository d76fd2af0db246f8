// Runs the built ipuaro CLI as a user would, for benches: a separate process, JSON on stdout.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

export function runIpuaroJson(args: string[], env: NodeJS.ProcessEnv): Record<string, unknown> {
  const res = spawnSync(process.execPath, [path.join(REPO_ROOT, "bin", "ipuaro.js"), ...args], {
    env: { ...process.env, ...env },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (res.status !== 0) throw new Error(`ipuaro ${args.join(" ")} failed (${res.status}):\n${res.stderr}`);
  const line = res.stdout.trim().split("\n").pop() ?? "";
  return JSON.parse(line) as Record<string, unknown>;
}

/** Runs a bench helper script; its report goes to stderr, as the caller's stdout is its result (JSON with --json). */
export function runTsxScript(script: string, args: string[]): void {
  const res = spawnSync(process.execPath, ["--import", "tsx", path.join(REPO_ROOT, script), ...args], { stdio: ["inherit", 2, 2] });
  if (res.status !== 0) throw new Error(`${script} failed (${res.status})`);
}
