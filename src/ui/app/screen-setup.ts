// Creates the blessed screen on a pair of streams: the real terminal, or a test's fake pair (output into
// a headless xterm, input pushed by the test). Unicode widths are patched first (gotchas 18–19); TERM
// values whose terminfo blessed cannot compile are replaced (gotcha 22: it would print errors on screen).
import blessed from "blessed";
import type { Widgets } from "blessed";
import { BRACKETED_PASTE_ON, TerminalInput, type InputSource } from "../input/terminal-input.js";
import { patchBlessedUnicode } from "../text/blessed-unicode-patch.js";

export interface TerminalOutput extends NodeJS.EventEmitter {
  write(data: string): unknown;
  columns?: number;
  rows?: number;
  isTTY?: boolean;
  writable?: boolean;
}

export interface TerminalStreams {
  input: InputSource;
  output: TerminalOutput;
}

/** Terminals that draw 256 colours whose terminfo entry blessed often lacks or reads as 8 colours. */
const MODERN_TERMINALS = /^(?:screen|tmux|alacritty|xterm-kitty|kitty|foot|wezterm|xterm-ghostty|ghostty|contour|rio)/;

/**
 * The TERM blessed is given. It reads colours from the system's terminfo, and for tmux-256color, kitty,
 * alacritty, foot and the like (entries Debian ships apart, or the terminal installs privately) it found
 * 8: every muted grey came out black. Those, any *-256color or direct-colour TERM and a terminal that
 * says COLORTERM=truecolor get xterm-256color, whose sequences they all understand; the Linux console and
 * other TERMs are taken as they are.
 */
export function terminalName(term: string | undefined, colorTerm?: string): string {
  if (!term || term === "dumb") return "xterm-256color";
  if (term === "linux" || term.startsWith("vt")) return term;
  if (MODERN_TERMINALS.test(term) || /-(?:256color|direct)$/.test(term) || colorTerm === "truecolor" || colorTerm === "24bit") return "xterm-256color";
  return term;
}

export interface ScreenHandle {
  screen: Widgets.Screen;
  input: TerminalInput;
  /** Turns bracketed paste on (again after an external editor gave the terminal back). */
  enablePaste(): void;
}

export function createScreen(streams: TerminalStreams, env: NodeJS.ProcessEnv = process.env): ScreenHandle {
  patchBlessedUnicode();
  const input = new TerminalInput(streams.input);
  const screen = blessed.screen({
    input: input as unknown as NodeJS.ReadableStream,
    output: streams.output as unknown as NodeJS.WritableStream,
    terminal: terminalName(env.TERM, env.COLORTERM),
    fullUnicode: true,
    forceUnicode: true,
    smartCSR: true,
    autoPadding: false,
    warnings: false,
    title: "ipuaro",
    resizeTimeout: 30,
  } as unknown as Widgets.IScreenOptions);
  // Line-drawing characters go out as UTF-8, not through the terminal's ACS charset: every terminal that
  // draws the emoji above draws them too, and tmux capture-pane then shows what is on screen (gotcha 23).
  (screen as unknown as { tput: { brokenACS: boolean } }).tput.brokenACS = true;
  const enablePaste = () => {
    streams.output.write(BRACKETED_PASTE_ON);
  };
  enablePaste();
  return { screen, input, enablePaste };
}
