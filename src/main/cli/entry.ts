// Process entry for the CLI (bin/ipuaro.js loads the compiled copy; tests run this file through tsx).
// Once a command has finished and its output is flushed, exit: client libraries may keep short fallback
// timers alive (ioredis waits up to 2 s to destroy a socket the server already closed).
import { runCli } from "./program.js";

// ipuaro writes its own output with process.stdout.write; a library's console.log/info (the ollama
// package logs "Getting text from response") must not corrupt stdout or `--json` output.
console.log = console.info = console.error;

// `ipuaro … | head` (EPIPE) or a closed terminal (EIO): there is no one left to write to. A command that
// can stop cleanly (it listens for the hang-up: index --watch, run) is stopped as after SIGHUP, so its
// Redis is released and what it stored kept; any other ends at once, quietly, like any CLI tool.
let readerGone = false;
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE" && err.code !== "EIO") throw err;
    if (readerGone) return;
    readerGone = true;
    if (process.listenerCount("SIGHUP") > 0) process.emit("SIGHUP", "SIGHUP");
    else process.exit(process.exitCode ?? 0);
  });
}

/** Resolves once everything written to `stream` so far is out: writes to a pipe are asynchronous. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (!stream.writableLength || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => stream.write("", () => resolve()));
}

/** Exits once stdout and stderr are flushed (`sessions show --json | jq` lost all but the first 64 KiB). */
async function exitFlushed(code: number): Promise<never> {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}

runCli(process.argv)
  .then(() => exitFlushed(Number(process.exitCode ?? 0)))
  .catch((err: unknown) => {
    process.stderr.write(`ipuaro: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return exitFlushed(1);
  });
