#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm ci` through the prepare script).
// Once a command has finished, exit at once: client libraries may keep short fallback timers alive
// (ioredis waits up to 2 s to destroy a socket the server already closed).
import("../dist/main/cli/program.js")
  .then((m) => m.runCli(process.argv))
  .then(() => process.exit(process.exitCode ?? 0))
  .catch((err) => {
    process.stderr.write(`ipuaro: ${err?.stack ?? err}\n`);
    process.exit(1);
  });
