// Starts the TUI on a headless terminal with a scripted backend, for frame tests.
import { TuiApp, type TuiAppOptions } from "../../src/ui/app/tui-app.js";
import { createHeadlessTerminal, type HeadlessTerminal } from "../helpers/headless-terminal.js";
import { ScriptedBackend } from "./scripted-backend.js";

export interface UiHarness {
  t: HeadlessTerminal;
  app: TuiApp;
  backend: ScriptedBackend;
  close(): void;
}

export interface HarnessOptions {
  cols?: number;
  rows?: number;
  backend?: ScriptedBackend;
  env?: NodeJS.ProcessEnv;
  theme?: TuiAppOptions["theme"];
  editContent?: TuiAppOptions["editContent"];
  display?: Partial<TuiAppOptions["display"]>;
  edit?: Partial<TuiAppOptions["edit"]>;
  multiline?: TuiAppOptions["multiline"];
  reportError?: TuiAppOptions["reportError"];
  typeAheadGuardMs?: number;
  attach?: boolean;
}

export async function startUi(opts: HarnessOptions = {}): Promise<UiHarness> {
  const t = createHeadlessTerminal({ cols: opts.cols ?? 80, rows: opts.rows ?? 24 });
  const backend = opts.backend ?? new ScriptedBackend();
  const app = new TuiApp({
    streams: t.streams,
    env: { TERM: "xterm-256color", ...opts.env },
    theme: opts.theme ?? "dark",
    project: backend.projectName,
    display: { showStats: true, showToolCalls: true, bellOnComplete: true, ...opts.display },
    edit: { syntaxHighlight: true, inlineHighlights: true, showDescription: true, ...opts.edit },
    ...(opts.multiline ? { multiline: opts.multiline } : {}),
    ...(opts.editContent ? { editContent: opts.editContent } : {}),
    ...(opts.reportError ? { reportError: opts.reportError } : {}),
    // Tests answer a dialog the moment it shows; the guard against typed-ahead keys has its own test.
    typeAheadGuardMs: opts.typeAheadGuardMs ?? 0,
    branchPollMs: 50,
  });
  backend.ui = app.uiPort;
  if (opts.attach !== false) app.attach(backend);
  await t.waitForText("[ipuaro]");
  return {
    t,
    app,
    backend,
    close() {
      app.destroy();
      t.dispose();
    },
  };
}
