// The TUI's own commands (seed 000 "Команды"), declared as data: `/help` is generated from this list,
// the key table and the tool registry. Everything else goes to the model in natural language.
import { isIpuaroError } from "../../main/errors.js";
import type { TurnEvent } from "../../main/agent/orchestrator.js";
import type { NoticeLevel, ToolOutput } from "../chat/transcript.js";
import type { ModalHost } from "../dialogs/choice-dialog.js";
import { pickSession } from "../dialogs/session-picker.js";
import type { ProgressState } from "../widgets/progress-panel.js";
import { runAnalyzeCommand } from "./analyze-command.js";
import { compactionNotice } from "./compaction-notice.js";
import { runRewindCommand } from "./rewind-command.js";
import type { TuiBackend } from "./tui-backend.js";

/** What a command may do to the app. */
export interface CommandHost {
  readonly backend: TuiBackend;
  readonly modals: ModalHost;
  notice(level: NoticeLevel, text: string): void;
  /** Plays a turn in the chat (used by /eval); resolves when it ends. */
  playEvents(events: (signal: AbortSignal) => AsyncIterable<TurnEvent>, userText: string): Promise<void>;
  /** Runs work that Ctrl+C can cancel. */
  cancellable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  showProgress(state: ProgressState | null): void;
  /** Shows the backend's current session in the cleared chat (after /sessions load, /clear, /rewind). */
  sessionChanged(): void;
  /** Re-reads context fill and modes for the status bar. */
  refreshStatus(): void;
  clearChat(): void;
  /** Puts text into the prompt for editing (the message a rewind took back). */
  setDraft(text: string): void;
  /** The newest tool call's whole output, when it was kept (see Transcript.lastToolOutput). */
  lastToolOutput(): ToolOutput | null;
  /** Columns a notice's code block has for its text (tables are fitted to it). */
  noticeTextWidth(): number;
  exit(): void;
}

export interface SlashCommand {
  name: string;
  args?: string;
  summary: string;
  /** May run while the agent works (read-only commands). */
  whileBusy?: boolean;
  run(host: CommandHost, args: string): Promise<void>;
}

export const KEY_HELP: ReadonlyArray<[string, string]> = [
  ["Enter", "send (while the agent works: queue the message, sent when it is done)"],
  ["Alt+Enter, Ctrl+J, trailing \\", "new line (Shift+Enter where the terminal reports it)"],
  ["↑/↓", "input history (this session, then the project's recent ones)"],
  ["Ctrl+R", "search the input history (again: an older match; Enter takes it, Esc cancels)"],
  ["Tab", "complete paths, symbols, commands and @file mentions (by path or file name)"],
  ["Ctrl+C", "interrupt the answer or command; twice within 2 s: exit"],
  ["Ctrl+D", "exit (the session is saved)"],
  ["Ctrl+Z", "undo the last edit"],
  ["Ctrl+O", "the whole output of the last command or test run (/output)"],
  ["PgUp/PgDn, mouse wheel", "scroll the chat"],
  ["Ctrl+A / Ctrl+E", "start / end of the line"],
  ["Alt+B / Alt+F, Ctrl+←/→", "word left / right"],
  ["Ctrl+W, Alt+Backspace", "delete the word before the cursor"],
  ["Ctrl+K / Ctrl+U", "delete to the end / start of the line"],
  ["Ctrl+L", "redraw the screen"],
  ["Esc", "close a dialog; stop the answer (one not started yet gives the message back); Esc Esc: rewind"],
  ["Shift+drag", "select text to copy (the mouse wheel scrolls the chat, so a plain drag does not select)"],
];

function errorText(error: unknown): string {
  if (isIpuaroError(error)) return `${error.message}${error.suggestion ? `\n${error.suggestion}` : ""}`;
  return error instanceof Error ? error.message : String(error);
}

/** /output shows at most this many lines (the end of the output). */
const MAX_OUTPUT_LINES = 5000;

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  {
    name: "/help",
    summary: "show commands, keys and the model's tools",
    whileBusy: true,
    async run(host) {
      host.notice("info", helpText(host.backend));
    },
  },
  {
    name: "/output",
    summary: "show the whole output of the last command or test run (also Ctrl+O)",
    whileBusy: true,
    async run(host) {
      const last = host.lastToolOutput();
      if (!last) {
        host.notice("info", "No command or test output in this chat yet.");
        return;
      }
      // The header (`$ command`, its exit) always shows and is not counted: the count is the output's.
      const lines = last.details.split("\n");
      const header = lines.slice(0, last.headerLines);
      const output = lines.slice(last.headerLines);
      const shown = output.length > MAX_OUTPUT_LINES ? output.slice(-MAX_OUTPUT_LINES) : output;
      const cut = output.length > shown.length ? ` (its last ${MAX_OUTPUT_LINES.toLocaleString("en-US")} of ${output.length.toLocaleString("en-US")} lines)` : "";
      // A longer fence than any run of backticks inside, so the output cannot close it.
      const fence = "`".repeat(Math.max(3, ...[...last.details.matchAll(/`+/g)].map((m) => m[0].length + 1)));
      host.notice("info", `[${last.title}]${cut}:\n${fence}\n${[...header, ...shown].join("\n")}\n${fence}`);
    },
  },
  {
    name: "/clear",
    summary: "start a fresh conversation (the old one stays in /sessions)",
    async run(host) {
      const previous = host.backend.session().id;
      await host.backend.newSession();
      host.clearChat();
      host.sessionChanged();
      // A blank pane looked as if the screen had broken.
      host.notice("info", `New session ${host.backend.session().id}; the last one (${previous}) is in /sessions.`);
    },
  },
  {
    name: "/undo",
    summary: "take back the last edit (also Ctrl+Z)",
    async run(host) {
      const outcome = await host.backend.undo();
      const level = outcome.status === "undone" ? "info" : outcome.status === "empty" ? "info" : "warn";
      host.notice(level, outcome.status === "refused" ? `${outcome.message}\n\`\`\`diff\n${outcome.diff}\n\`\`\`` : outcome.message);
    },
  },
  {
    name: "/sessions",
    summary: "list, load or delete this project's sessions",
    async run(host) {
      const sessions = await host.backend.listSessions();
      const id = await pickSession(host.modals, {
        sessions,
        currentId: host.backend.session().id,
        remove: (x) => host.backend.deleteSession(x),
        openElsewhere: (x) => host.backend.sessionHolder(x),
      });
      if (!id || id === host.backend.session().id) return;
      await host.backend.loadSession(id);
      host.clearChat();
      host.sessionChanged();
      host.notice("info", `Loaded session ${id}.`);
    },
  },
  {
    name: "/status",
    summary: "Redis, index, watcher, model, context and session stats",
    whileBusy: true,
    async run(host) {
      const report = await host.backend.status();
      const width = Math.max(...report.rows.map(([k]) => k.length));
      host.notice("info", report.rows.map(([k, v]) => `**${k.padEnd(width)}**  ${v}`).join("\n"));
    },
  },
  {
    name: "/reindex",
    summary: "index the project again (changed files only)",
    async run(host) {
      try {
        const summary = await host.cancellable((signal) =>
          host.backend.reindex((p) => host.showProgress({ label: p.phase, done: p.done, total: p.total, unit: "files" }), signal),
        );
        host.notice("info", summary);
      } finally {
        host.showProgress(null);
      }
    },
  },
  {
    name: "/analyze",
    args: "QUERY [target] [options]",
    summary: "project analytics: hotspots, predict_change FILE, file_history FILE, decisions_list, … (/analyze alone lists them)",
    whileBusy: true,
    async run(host, args) {
      await runAnalyzeCommand(host, args);
    },
  },
  {
    name: "/eval",
    summary: "have the model check its last answer against the code",
    async run(host) {
      await host.playEvents((signal) => host.backend.evaluate(signal), "/eval");
    },
  },
  {
    name: "/auto-apply",
    args: "on|off",
    summary: "apply edits without asking (undo still works)",
    async run(host, args) {
      const arg = args.trim().toLowerCase();
      if (arg !== "on" && arg !== "off" && arg !== "") throw new Error(`/auto-apply takes "on" or "off", not "${args.trim()}"`);
      const on = arg === "" ? !host.backend.autoApply() : arg === "on";
      host.backend.setAutoApply(on);
      host.notice(on ? "warn" : "info", on ? "Auto-apply is on: edits are applied without asking (Ctrl+Z or /undo takes them back)." : "Auto-apply is off: every edit is shown for confirmation.");
    },
  },
  {
    name: "/compact",
    args: "[focus]",
    summary: "compress the conversation now, keeping [focus] in detail",
    async run(host, args) {
      // The model writes the summary: seconds on a long session, so it is shown as running.
      host.showProgress({ label: "compressing the conversation… (Esc or Ctrl+C stops it)", done: 0, total: 0, unit: "files", status: "compressing…" });
      let cancelled = false;
      let report: Awaited<ReturnType<typeof host.backend.compact>>;
      try {
        report = await host.cancellable((signal) => {
          signal.addEventListener("abort", () => (cancelled = true), { once: true });
          return host.backend.compact(args.trim() || undefined, signal);
        });
      } finally {
        host.showProgress(null);
      }
      if (cancelled) return host.notice("info", "Compression stopped; the conversation is as it was.");
      if (!report) return host.notice("info", "Nothing to compress yet.");
      const notice = compactionNotice(report);
      host.notice(notice.level, notice.text);
      host.refreshStatus();
    },
  },
  {
    name: "/rewind",
    args: "[N] [both|conversation|code]",
    summary: "go back to before message N: conversation, code or both (also Esc Esc)",
    async run(host, args) {
      await runRewindCommand(host, args);
    },
  },
  {
    name: "/exit",
    summary: "leave ipuaro (the session is saved; also Ctrl+D)",
    whileBusy: true,
    async run(host) {
      host.exit();
    },
  },
];

/** Names other tools use for the same thing (Claude Code's /quit, a /new session). */
const ALIASES: Record<string, string> = { "/quit": "/exit", "/q": "/exit", "/new": "/clear", "/reset": "/clear", "/?": "/help" };

export function findCommand(name: string): SlashCommand | undefined {
  const wanted = ALIASES[name.toLowerCase()] ?? name.toLowerCase();
  return SLASH_COMMANDS.find((c) => c.name === wanted);
}

/** The command a mistyped name was most likely meant to be (one edit away, or its start), if any. */
function nearestCommand(name: string): string | null {
  const typed = name.toLowerCase();
  const close = (a: string, b: string): boolean => {
    if (Math.abs(a.length - b.length) > 1) return false;
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    return a.slice(i + 1) === b.slice(i + 1) || a.slice(i) === b.slice(i + 1) || a.slice(i + 1) === b.slice(i);
  };
  const hit = SLASH_COMMANDS.find((c) => close(typed, c.name)) ?? (typed.length > 2 ? SLASH_COMMANDS.find((c) => c.name.startsWith(typed)) : undefined);
  return hit?.name ?? null;
}

/** How /help says what happens to a message that starts with `/` (see readPromptLine). */
const SLASH_TEXT_HELP =
  "A message that starts with `/` and is no command is sent to the model when its first word is a path (`/src/app.ts looks wrong`); otherwise start it with a space or `//` (it is sent as typed).";

export function helpText(backend: Pick<TuiBackend, "toolHelp">): string {
  const cmds = SLASH_COMMANDS.map((c) => `- \`${c.name}${c.args ? ` ${c.args}` : ""}\` ${c.summary}`);
  const keys = KEY_HELP.map(([k, v]) => `- **${k}** ${v}`);
  const tools = backend.toolHelp().map((t) => `- \`${t.name}\` ${firstSentence(t.description)}`);
  return ["# Commands", ...cmds, "", SLASH_TEXT_HELP, "", "# Keys", ...keys, "", "# What the model can do (ask in plain words)", ...tools].join("\n");
}

export type PromptLine = { kind: "command" } | { kind: "text" } | { kind: "unknown"; name: string };

/**
 * What the prompt does with a line it sends: a command (`/status`), text for the model, or an unknown
 * command, which stays in the input. A first word that is a path (`/packages/core/src/money.ts looks
 * wrong`, `/etc/hosts`, `/README.md`: another `/` or a `.` in it) is no command: the message is sent. A
 * line that starts with `//` or a space is text, sent as typed.
 */
export function readPromptLine(text: string): PromptLine {
  if (!text.startsWith("/") || text.startsWith("//")) return { kind: "text" };
  const [name = ""] = text.split(/\s+/, 1);
  if (findCommand(name)) return { kind: "command" };
  if (name.slice(1).includes("/") || name.includes(".")) return { kind: "text" };
  return { kind: "unknown", name };
}

/**
 * The notice for `/name` that is no command: the nearest one, and how to send the text as a message
 * (`kept`: the text is still in the input).
 */
export function unknownCommandText(name: string, kept = true): string {
  const near = nearestCommand(name);
  return `Unknown command ${name}.${near ? ` Did you mean ${near}?` : ""} /help lists the commands. To send this to the model as text, start it with a space or //${kept ? " (it is still in the input)" : ""}.`;
}

/** A period after these does not end the sentence ("e.g. at the end of a session"). */
const ABBREVIATION = /\b(e\.g|i\.e|etc|vs|cf)\.$/i;

/** Up to the first [.!?] followed by a space or the end ("v1.2.3" has none), abbreviations skipped. */
export function firstSentence(text: string): string {
  const end = /[.!?](?=\s|$)/g;
  for (let m = end.exec(text); m; m = end.exec(text)) {
    const head = text.slice(0, m.index + 1);
    if (!ABBREVIATION.test(head)) return head;
  }
  return text;
}

/** Runs `/name args`; unknown commands and failures become notices. */
export async function runSlashCommand(host: CommandHost, line: string, busy: boolean): Promise<void> {
  const [name = ""] = line.trim().split(/\s+/);
  const cmd = findCommand(name);
  if (!cmd) {
    host.notice("warn", unknownCommandText(name, false));
    return;
  }
  if (busy && !cmd.whileBusy) {
    host.notice("warn", `${cmd.name} has to wait until the agent is done (Ctrl+C interrupts it).`);
    return;
  }
  try {
    await cmd.run(host, line.trim().slice(name.length));
  } catch (error) {
    host.notice("error", `${cmd.name}: ${errorText(error)}`);
  }
}
