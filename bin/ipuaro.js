#!/usr/bin/env node
// Thin launcher: the CLI is built by `npm ci` through the prepare script: tsc compiles src/ to dist/, and
// esbuild bundles the main thread's modules into dist/cli/ (a few chunks load far faster than ~300 small
// modules: ≈ 0.1 s off every start). The index workers and the baseline's child run from dist/.
import "../dist/cli/entry.js";
