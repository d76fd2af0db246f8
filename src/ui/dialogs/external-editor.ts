// `[E] edit` with the user's own editor: the proposed content goes to a temp file named like the target
// (so the editor highlights it), blessed gives the terminal to $VISUAL/$EDITOR (screen.spawn: normal
// buffer, cooked mode) and takes it back after. A non-zero exit (vim's :cq) means "cancel".
import { spawn as nodeSpawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Widgets } from "blessed";

/** The editor command the user set, or null (then the inline editor is used). */
export function editorCommand(env: NodeJS.ProcessEnv = process.env): string | null {
  const cmd = (env.VISUAL ?? "").trim() || (env.EDITOR ?? "").trim();
  return cmd || null;
}

export interface ExternalEditOptions {
  command: string;
  content: string;
  /** The project path being edited; its base name names the temp file. */
  path: string;
  /** Runs the editor with the terminal handed over (screen.spawn in the app; a plain spawn in tests). */
  spawn?: (file: string, args: string[]) => ChildProcess;
  /** Called once the terminal is back (re-enable bracketed paste, redraw). */
  afterResume?: () => void;
}

export async function editExternally(screen: Widgets.Screen | null, opts: ExternalEditOptions): Promise<string | null> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ipuaro-edit-"));
  const file = path.join(dir, path.basename(opts.path) || "proposal.txt");
  try {
    fs.writeFileSync(file, opts.content, "utf8");
    // The command may carry arguments (`code --wait`); the file is passed as "$1", never spliced in.
    const args = ["-c", `${opts.command} "$1"`, "ipuaro-editor", file];
    const run = opts.spawn ?? ((f: string, a: string[]) => (screen ? (screen.spawn(f, a, {}) as unknown as ChildProcess) : nodeSpawn(f, a, { stdio: "inherit" })));
    const child = run("/bin/sh", args);
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", (c) => resolve(c));
    });
    opts.afterResume?.();
    if (code !== 0) return null;
    return fs.readFileSync(file, "utf8");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
