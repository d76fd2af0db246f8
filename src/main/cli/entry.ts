// Process entry for the CLI (bin/ipuaro.js loads the compiled copy; tests run this file through tsx).
// Once a command has finished, exit at once: client libraries may keep short fallback timers alive
// (ioredis waits up to 2 s to destroy a socket the server already closed).
import { runCli } from "./program.js";

// ipuaro writes its own output with process.stdout.write; a library's console.log/info (the ollama
// package logs "Getting text from response") must not corrupt stdout or `--json` output.
console.log = console.info = console.error;

// `ipuaro … | head`: the reader went away, so there is no one left to write to. Quiet, like any CLI tool.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw err;
  });
}

runCli(process.argv)
  .then(() => process.exit(process.exitCode ?? 0))
  .catch((err: unknown) => {
    process.stderr.write(`ipuaro: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
