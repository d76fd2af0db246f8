// The CLI's way into a project's memory and analytics: its config, its Redis, its scope; released after.
import { loadConfig } from "../config/loader.js";
import { openProjectStore } from "../store/open-project-store.js";
import type { ShadowError } from "./shadow-errors.js";
import { shadowScope, type ShadowScope } from "./shadow-scope.js";

export async function withShadowScope<T>(root: string, fn: (scope: ShadowScope) => Promise<T>, opts: { env?: NodeJS.ProcessEnv } = {}): Promise<T> {
  const { config } = loadConfig({ projectRoot: root, ...(opts.env ? { env: opts.env } : {}) });
  const opened = await openProjectStore(config, root);
  try {
    return await fn(shadowScope(opened.store, root));
  } finally {
    await opened.release();
  }
}

/** Where the shadow commands write and how they end (tests capture it; the CLI uses the process). */
export interface ShadowCliIo {
  out(text: string): void;
  err(text: string): void;
  exit(code: number): void;
  /** Environment for the config (IPUARO_REDIS_URL …); default process.env. */
  env?: NodeJS.ProcessEnv;
}

export const processIo: ShadowCliIo = {
  out: (t) => void process.stdout.write(`${t}\n`),
  err: (t) => void process.stderr.write(`${t}\n`),
  exit: (code) => void (process.exitCode = code),
};

/** A ShadowError as the CLI shows it: the seed's envelope with --json, one line on stderr without. */
export function reportShadowError(io: ShadowCliIo, error: ShadowError, json: boolean): void {
  if (json) io.out(JSON.stringify(error.toJSON()));
  else io.err(`ipuaro: ${error.code}: ${error.message}`);
  io.exit(1);
}
