#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm ci` through the prepare script).
import("../dist/main/cli/program.js").then((m) => m.runCli(process.argv)).catch((err) => {
  process.stderr.write(`ipuaro: ${err?.stack ?? err}\n`);
  process.exit(1);
});
