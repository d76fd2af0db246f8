// One command in a tmux pane on a private tmux server, for pty-level tests: send keys, read the screen,
// wait for markers on it (polled), signal the process. The server is killed by close().
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export function hasTmux(): boolean {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

export class TmuxPane {
  private readonly socket = `ipuaro-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

  constructor(command: string, opts: { cwd: string; env?: Record<string, string>; cols?: number; rows?: number }) {
    const env = Object.entries({ TERM: "xterm-256color", ...opts.env }).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
    this.tmux("new-session", "-d", "-s", "t", "-c", opts.cwd, "-x", String(opts.cols ?? 100), "-y", String(opts.rows ?? 30), ...env, command);
    this.tmux("set-option", "-t", "t", "remain-on-exit", "on");
  }

  private tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, ...args], { encoding: "utf8" });
  }

  screen(): string {
    return this.tmux("capture-pane", "-p", "-t", "t");
  }

  send(...keys: string[]): void {
    this.tmux("send-keys", "-t", "t", ...keys);
  }

  type(text: string): void {
    this.tmux("send-keys", "-t", "t", "-l", text);
  }

  async waitFor(text: string, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = this.screen();
      if (s.includes(text)) return s;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${JSON.stringify(text)}; screen:\n${s}`);
      await sleep(100);
    }
  }

  close(): void {
    try {
      this.tmux("kill-server");
    } catch {
      // Already gone.
    }
    // tmux may leave the socket file of a killed server behind.
    const uid = process.getuid?.() ?? 0;
    fs.rmSync(path.join(process.env.TMUX_TMPDIR || "/tmp", `tmux-${uid}`, this.socket), { force: true });
  }
}
