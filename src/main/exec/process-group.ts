// Runs a judged command line in its own process group, so that a timeout, an abort (Ctrl+C) or the
// end of the command takes down everything it started, background jobs included. stdin is /dev/null:
// nothing can wait for an answer. stderr is merged into stdout, so the output keeps its written order.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** SIGTERM first; what is still alive this long after gets SIGKILL. */
export const KILL_GRACE_MS = 2_000;
/** After the shell exits, how long processes it left behind may keep the output open before they are stopped. */
export const LINGER_AFTER_EXIT_MS = 300;
/** Output kept in memory (head + tail); the middle of a larger log is dropped with a marker. */
export const MAX_STORED_OUTPUT_CHARS = 2_000_000;

export interface ProcessGroupOptions {
  /** A command line in bash syntax, the same text the security policy judged. */
  command: string;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** null or undefined = no timeout. */
  timeoutMs?: number | null;
  signal?: AbortSignal;
  killGraceMs?: number;
  lingerMs?: number;
  maxStoredChars?: number;
  /** Called with each chunk as it arrives (live output for the UI). */
  onOutput?: (chunk: string) => void;
}

export type ProcessEnd = "exit" | "timeout" | "aborted";

export interface ProcessGroupResult {
  /** The shell's exit code; null when it was killed by a signal. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** stdout and stderr interleaved as they arrived (with a marker where the middle was dropped). */
  output: string;
  droppedChars: number;
  durationMs: number;
  end: ProcessEnd;
  /** Processes of the group were still running after the shell exited and were stopped. */
  killedLeftovers: boolean;
  pid: number;
}

/**
 * The shell the security policy models (tree-sitter-bash): running the judged text with another shell
 * could expand it differently. /bin/sh only where there is no bash at all.
 */
export function commandShell(): string {
  for (const candidate of ["/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash"]) {
    if (fs.existsSync(candidate)) return candidate;
  }
  return "/bin/sh";
}

/**
 * The environment of a command the model runs: the user's, minus what would make bash run code before
 * the command (BASH_ENV, exported functions) or force colours, plus settings that keep tools quiet and
 * non-interactive. CI is deliberately NOT set: it changes test semantics (jest and vitest stop writing
 * new snapshots); stdin from /dev/null and piped output already keep watchers and prompts away.
 */
export function commandEnvironment(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined) continue;
    // CDPATH would send `cd packages/core` (judged as the project's folder) to a folder of that name elsewhere.
    if (["BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "FORCE_COLOR", "CLICOLOR_FORCE", "CDPATH"].includes(key) || key.startsWith("BASH_FUNC_")) continue;
    env[key] = value;
  }
  return { ...env, NO_COLOR: "1", GIT_TERMINAL_PROMPT: "0", GIT_PAGER: "cat", PAGER: "cat" };
}

/** Keeps the first and last `max / 2` characters of a stream of chunks. */
class OutputBuffer {
  private head = "";
  private tail: string[] = [];
  private tailLength = 0;
  dropped = 0;

  constructor(private readonly max: number) {}

  push(chunk: string): void {
    const half = Math.floor(this.max / 2);
    if (this.head.length < half) {
      const room = half - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
      if (!chunk) return;
    }
    this.tail.push(chunk);
    this.tailLength += chunk.length;
    // Trim in batches so a chatty process does not make every push O(n).
    if (this.tailLength > half * 2) {
      const joined = this.tail.join("");
      const keep = joined.slice(joined.length - half);
      this.dropped += joined.length - keep.length;
      this.tail = [keep];
      this.tailLength = keep.length;
    }
  }

  text(): string {
    const half = Math.floor(this.max / 2);
    let tail = this.tail.join("");
    if (tail.length > half) {
      this.dropped += tail.length - half;
      tail = tail.slice(tail.length - half);
    }
    this.tail = [tail];
    this.tailLength = tail.length;
    return this.dropped > 0 ? `${this.head}\n… [${this.dropped} characters of output dropped] …\n${tail}` : this.head + tail;
  }
}

const HAS_PROC = process.platform === "linux" && fs.existsSync("/proc/self/stat");

/**
 * Whether a process of the group still runs. Zombies do not count: killed background jobs are
 * reparented to init, which may reap them late, and kill(-pgid, 0) would still find them.
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    // EPERM: the group exists but is not ours to signal (cannot happen for our own children).
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  if (!HAS_PROC) return true;
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited while we looked
    }
    // `pid (comm) state ppid pgrp …`; comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") return true;
  }
  return false;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}

/** SIGTERM to the group, SIGKILL to whatever is left after the grace period. Resolves once it is gone (or KILL was sent). */
export async function killProcessGroup(pgid: number, graceMs = KILL_GRACE_MS): Promise<void> {
  if (!groupAlive(pgid)) return;
  signalGroup(pgid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await sleep(25);
    if (!groupAlive(pgid)) return;
  }
  signalGroup(pgid, "SIGKILL");
}

/** The variable that marks every process a command starts, so those that leave its group can be found. */
export const RUN_MARKER_VARIABLE = "IPUARO_COMMAND_RUN";

/**
 * Processes outside the group that carry the run's marker: a daemon that called setsid (`setsid cmd &`,
 * a detached node child) leaves the process group, and killing the group misses it. Linux only.
 */
export function escapedProcesses(marker: string, pgid: number): number[] {
  if (!HAS_PROC) return [];
  const needle = Buffer.from(`\0${RUN_MARKER_VARIABLE}=${marker}\0`);
  const found: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] === "Z" || fields[0] === "X" || Number(fields[2]) === pgid) continue;
      // A leading NUL so the first variable matches too.
      const environ = Buffer.concat([Buffer.from("\0"), fs.readFileSync(`/proc/${entry}/environ`)]);
      if (environ.includes(needle)) found.push(Number(entry));
    } catch {
      // Exited while we looked, or not ours to read.
    }
  }
  return found;
}

/** SIGTERM, then SIGKILL after the grace period for those still there. */
async function killEscaped(marker: string, pgid: number, graceMs: number): Promise<boolean> {
  const pids = escapedProcesses(marker, pgid);
  if (pids.length === 0) return false;
  for (const pid of pids) signalProcess(pid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && escapedProcesses(marker, pgid).length > 0) await sleep(25);
  for (const pid of escapedProcesses(marker, pgid)) signalProcess(pid, "SIGKILL");
  return true;
}

function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

interface ActiveRun {
  pgid: number;
  marker: string;
  /** Stops the run as an abort would; resolves once its processes are gone. */
  stop(): Promise<void>;
}

/** Runs still going; if ipuaro itself exits or is killed, they must not outlive it (they are in their own group). */
const activeRuns = new Set<ActiveRun>();
let exitHookInstalled = false;
const TERMINATING_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
let signalsSeen = 0;

/**
 * Ctrl+C (or SIGTERM, SIGHUP) to ipuaro while a command runs. When ipuaro handles the signal itself (the
 * TUI, a headless run), that handler aborts the run through its signal and this does nothing. When
 * nobody does (`ipuaro tool run_command …`), the signal would kill ipuaro at once and leave the command's
 * process group running with nobody to stop it: stop the runs first, then die of the same signal.
 */
function onTerminatingSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  signalsSeen++;
  const die = () => {
    removeSignalHooks();
    process.kill(process.pid, signal);
  };
  if (signalsSeen > 1) {
    // A second Ctrl+C: no more waiting.
    for (const run of activeRuns) signalGroup(run.pgid, "SIGKILL");
    die();
    return;
  }
  void Promise.allSettled([...activeRuns].map((run) => run.stop())).then(die);
}

function removeSignalHooks(): void {
  for (const signal of TERMINATING_SIGNALS) process.off(signal, onTerminatingSignal);
}

function trackRun(run: ActiveRun): void {
  if (activeRuns.size === 0) {
    signalsSeen = 0;
    for (const signal of TERMINATING_SIGNALS) process.on(signal, onTerminatingSignal);
  }
  activeRuns.add(run);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const r of activeRuns) {
      signalGroup(r.pgid, "SIGKILL");
      for (const pid of escapedProcesses(r.marker, r.pgid)) signalProcess(pid, "SIGKILL");
    }
  });
}

function untrackRun(run: ActiveRun): void {
  activeRuns.delete(run);
  // Left in place while a signal is being handled: it re-raises the signal once the runs are stopped.
  if (activeRuns.size === 0 && signalsSeen === 0) removeSignalHooks();
}

/**
 * stdout and stderr are two pipes, and chunks of the two arrive in no guaranteed order. Sending fd 2
 * into fd 1 first gives one stream in the order it was written. On the same line as the command, so
 * bash's "line N" in error messages still matches the command's own lines.
 */
function mergedStderr(command: string): string {
  return `exec 2>&1; ${command}`;
}

export function runInProcessGroup(opts: ProcessGroupOptions): Promise<ProcessGroupResult> {
  const started = performance.now();
  const grace = opts.killGraceMs ?? KILL_GRACE_MS;
  const buffer = new OutputBuffer(opts.maxStoredChars ?? MAX_STORED_OUTPUT_CHARS);

  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      resolve({ exitCode: null, signal: null, output: "", droppedChars: 0, durationMs: 0, end: "aborted", killedLeftovers: false, pid: 0 });
      return;
    }
    const marker = `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    const child = spawn(commandShell(), ["-c", mergedStderr(opts.command)], {
      cwd: opts.cwd,
      env: { ...(opts.env ?? commandEnvironment()), [RUN_MARKER_VARIABLE]: marker },
      detached: true, // a new process group whose id is the shell's pid
      stdio: ["ignore", "pipe", "pipe"],
    });
    const pgid = child.pid;
    if (pgid === undefined) {
      child.once("error", (err) => reject(err));
      return;
    }

    let end: ProcessEnd = "exit";
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let killedLeftovers = false;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    let lingerTimer: NodeJS.Timeout | undefined;
    let stopping: Promise<void> | null = null;
    const closed = new Promise<void>((r) => child.once("close", () => r()));

    const onChunk = (chunk: string) => {
      buffer.push(chunk);
      opts.onOutput?.(chunk);
    };
    child.stdout.setEncoding("utf8").on("data", onChunk);
    child.stderr.setEncoding("utf8").on("data", onChunk);

    const finish = () => {
      if (settled) return;
      settled = true;
      untrackRun(run);
      clearTimeout(timer);
      clearTimeout(lingerTimer);
      opts.signal?.removeEventListener("abort", onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      const output = buffer.text();
      resolve({ exitCode, signal: exitSignal, output, droppedChars: buffer.dropped, durationMs: performance.now() - started, end, killedLeftovers, pid: pgid });
    };

    const stop = (why: ProcessEnd): void => {
      if (stopping || settled) return;
      end = why;
      stopping = (async () => {
        await killProcessGroup(pgid, grace);
        // Daemons that left the group (setsid) would hold the pipes open and outlive ipuaro.
        if (await killEscaped(marker, pgid, grace)) killedLeftovers = true;
        // A process that escaped even that could hold the pipes open forever: stop waiting then.
        await Promise.race([closed, sleep(grace, undefined, { ref: false })]);
        finish();
      })();
    };
    const run: ActiveRun = {
      pgid,
      marker,
      stop: () => {
        stop("aborted");
        return stopping ?? Promise.resolve();
      },
    };
    trackRun(run);

    const onAbort = () => stop("aborted");
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    if (opts.timeoutMs != null) timer = setTimeout(() => stop("timeout"), opts.timeoutMs);

    child.once("exit", (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      if (stopping) return;
      // Background jobs that still hold the output open keep 'close' from firing: give them a moment.
      lingerTimer = setTimeout(() => {
        killedLeftovers = true;
        stop("exit");
      }, opts.lingerMs ?? LINGER_AFTER_EXIT_MS);
    });
    void closed.then(async () => {
      clearTimeout(lingerTimer);
      if (stopping) return;
      // The output is closed, but jobs detached from the pipe (`cmd >/dev/null &`) may still run.
      if (groupAlive(pgid)) {
        killedLeftovers = true;
        await killProcessGroup(pgid, grace);
      }
      if (await killEscaped(marker, pgid, grace)) killedLeftovers = true;
      finish();
    });
    child.once("error", (err) => {
      if (settled) return;
      settled = true;
      untrackRun(run);
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      reject(err);
    });
  });
}
