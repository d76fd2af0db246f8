// What the orchestrator asks of the project memory: the block injected into a session's initial context
// (rules, conventions, accepted decisions, notes whose condition holds), the reminders due after a turn,
// and the warning shown before an edit to a high- or critical-risk file.
import type { ProjectStore } from "../store/project-store.js";
import { loadHistory } from "./change-history.js";
import { createAnalyticsEvents } from "./events-recorder.js";
import { syncGitHistory, type GitSyncResult } from "./git-history.js";
import { hotspotOf, levelOf, type RiskLevel } from "./hotspots.js";
import { loadIndexView } from "./index-view.js";
import { listDecisions, listMemories, listNotes, saveNote, type MemoryCategory, type NoteEntry } from "./memory-store.js";
import { ConditionFacts, conditionHolds, type ConditionTrigger } from "./note-conditions.js";
import { predictChange, type PredictChangeResult } from "./predict-change.js";
import { shadowScope, type ShadowScope } from "./shadow-scope.js";
import { DAY_MS } from "./shadow-validate.js";

export interface SessionMemoryOptions {
  store: ProjectStore;
  root: string;
  sessionId: string;
  /** Tokens the block may take (by the caller's estimator). */
  budgetTokens: number;
  estimateTokens: (text: string) => number;
  now?: () => number;
}

export interface SessionMemory {
  /** The block for the initial context; "" when the project has no memory yet. */
  text: string;
  tokens: number;
  /** Notes shown in the block (now marked surfaced). */
  notes: NoteEntry[];
  /** Memory entries and decisions left out for the budget. */
  omitted: number;
  /** "pending": the import is still running (it finishes in the background). */
  git: GitSyncResult | { status: "failed"; message: string } | { status: "pending" };
}

const SECTIONS: Array<{ category: MemoryCategory; title: string }> = [
  { category: "PROJECT_RULES", title: "Rules" },
  { category: "CONSTRAINTS", title: "Constraints" },
  { category: "NAMING", title: "Naming" },
  { category: "CONFIG_VALUES", title: "Config values" },
  { category: "ARCHITECTURE", title: "Architecture" },
];
const DECISION_CHARS = 200;
/**
 * Reminders come first but may not crowd out the rules and decisions: a backlog of due notes (hundreds
 * written by the model) surfaces a few per session, within a share of the budget; the rest stay active.
 */
const MAX_REMINDERS = 8;
const REMINDER_BUDGET_SHARE = 0.3;
/** How long session start waits for the git history import. */
export const GIT_SYNC_WAIT_MS = 2_000;

/** Active notes whose condition holds now, with the reason. */
export async function dueNotes(scope: ShadowScope, trigger: ConditionTrigger): Promise<Array<{ note: NoteEntry; because: string }>> {
  const facts = new ConditionFacts(scope);
  const due: Array<{ note: NoteEntry; because: string }> = [];
  for (const note of await listNotes(scope)) {
    if (note.status !== "active") continue;
    const because = await conditionHolds(scope, note.condition, trigger, facts);
    if (because) due.push({ note, because });
  }
  return due;
}

async function markSurfaced(scope: ShadowScope, due: Array<{ note: NoteEntry; because: string }>): Promise<NoteEntry[]> {
  const out: NoteEntry[] = [];
  for (const { note, because } of due) {
    const surfaced: NoteEntry = { ...note, status: "surfaced", surfaced_at: scope.now(), surfaced_because: because };
    await saveNote(scope, surfaced);
    out.push(surfaced);
  }
  return out;
}

function reminderLine(note: NoteEntry, because: string): string {
  return `- ${note.content} (${because}; note ${note.id})`;
}

/**
 * Called once when a session starts: records the start, brings git history up to date (best-effort),
 * and returns the memory block. Lines are added by priority — due reminders, rules, constraints,
 * naming, config values, architecture, accepted decisions — while they fit the budget (reminders only
 * a few, in a share of it); reminders that did not fit stay active for the next time.
 */
export async function sessionStartMemory(opts: SessionMemoryOptions): Promise<SessionMemory> {
  const scope = shadowScope(opts.store, opts.root, opts.now ? { now: opts.now } : {});
  await createAnalyticsEvents(scope).sessionStarted(opts.sessionId);
  // A first import of a long history may take a while: the session does not wait for it past a moment.
  const sync: Promise<SessionMemory["git"]> = syncGitHistory(scope).catch((error: unknown) => ({ status: "failed" as const, message: error instanceof Error ? error.message : String(error) }));
  let timer: NodeJS.Timeout | undefined;
  const pending = new Promise<SessionMemory["git"]>((resolve) => {
    timer = setTimeout(() => resolve({ status: "pending" }), GIT_SYNC_WAIT_MS);
  });
  const git = await Promise.race([sync, pending]).finally(() => clearTimeout(timer));
  const [due, memories, decisions] = await Promise.all([dueNotes(scope, "session_start"), listMemories(scope), listDecisions(scope)]);
  const groups: Array<{ title: string; lines: Array<{ line: string; note?: { note: NoteEntry; because: string } }> }> = [
    { title: "Reminders", lines: due.map((d) => ({ line: reminderLine(d.note, d.because), note: d })) },
    ...SECTIONS.map((s) => ({ title: s.title, lines: memories.filter((m) => m.category === s.category).map((m) => ({ line: `- ${m.content.replace(/\s+/g, " ")}` })) })),
    {
      title: "Accepted decisions",
      lines: decisions
        .filter((d) => d.status === "accepted")
        .reverse()
        .map((d) => ({ line: `- #${d.id} ${d.title}: ${d.description.length > DECISION_CHARS ? `${d.description.slice(0, DECISION_CHARS - 1)}…` : d.description}` })),
    },
  ];
  const header = "## Project memory (ipuaro)";
  let text = header;
  let omitted = 0;
  const shown: Array<{ note: NoteEntry; because: string }> = [];
  for (const group of groups) {
    let titled = false;
    const reminders = group.title === "Reminders";
    let heldBack = 0;
    for (const item of group.lines) {
      const addition = `${titled ? "" : `\n${group.title}:`}\n${item.line}`;
      const limit = reminders ? opts.budgetTokens * REMINDER_BUDGET_SHARE : opts.budgetTokens;
      if ((reminders && shown.length >= MAX_REMINDERS) || opts.estimateTokens(text + addition) > limit) {
        if (reminders) heldBack++;
        else omitted++;
        continue;
      }
      text += addition;
      titled = true;
      if (item.note) shown.push(item.note);
    }
    const more = `\n- (${heldBack} more due reminders wait for the next sessions: memory_search or \`ipuaro memory list\` shows them)`;
    if (heldBack && titled && opts.estimateTokens(text + more) <= opts.budgetTokens) text += more;
  }
  if (text === header) text = "";
  const notes = await markSurfaced(scope, shown);
  return { text, tokens: text ? opts.estimateTokens(text) : 0, notes, omitted, git };
}

export interface TurnReminders {
  /** Notes whose condition became true during the turn (now marked surfaced). */
  notes: NoteEntry[];
  /** A message to add to the conversation for the model; null when nothing is due. */
  reminder: string | null;
}

/**
 * Called after each turn: records which tools it used and surfaces notes whose checkable condition
 * (tag, merge, symbol, date) now holds. Conditions without a check wait for the next session start.
 */
export async function afterTurn(opts: { store: ProjectStore; root: string; sessionId: string; toolNames: readonly string[]; now?: () => number }): Promise<TurnReminders> {
  const scope = shadowScope(opts.store, opts.root, opts.now ? { now: opts.now } : {});
  await createAnalyticsEvents(scope).turnFinished(opts.sessionId, opts.toolNames);
  const notes = await markSurfaced(scope, await dueNotes(scope, "turn"));
  if (!notes.length) return { notes, reminder: null };
  const lines = notes.map((n) => `- ${n.content} (${n.surfaced_because})`);
  return { notes, reminder: `Reminder${notes.length > 1 ? "s" : ""} from earlier notes:\n${lines.join("\n")}` };
}

export interface RiskWarning {
  path: string;
  level: Extract<RiskLevel, "high" | "critical">;
  hotspotScore: number | null;
  riskScore: number | null;
  /** Critical: the edit needs the user's explicit confirmation even in auto-apply mode. */
  requiresConfirmation: boolean;
  /** One paragraph for the model and the confirmation dialog. */
  message: string;
}

const RANK: Record<RiskLevel, number> = { low: 0, medium: 1, high: 2, critical: 3 };
/** The hotspot window the pre-edit check uses. */
export const WARNING_WINDOW_DAYS = 30;

/**
 * The warning to show before an edit of `path` (project-relative), or null when neither its hotspot
 * score (last 30 days) nor its predict_change risk is high or critical. Reads only stored history.
 */
/**
 * The explanation of the measure that raised a warning to `level`: a "LOW RISK … safe to change"
 * prediction under a high hotspot score would contradict the warning it explains.
 */
export function riskExplanation(level: RiskLevel, hotspotExplanation: string | null, prediction: Pick<PredictChangeResult, "risk_level" | "recommendation"> | null): string {
  const predictionRaised = prediction !== null && RANK[prediction.risk_level] >= RANK[level];
  if (predictionRaised || !hotspotExplanation) return prediction?.recommendation ?? hotspotExplanation ?? "";
  return hotspotExplanation;
}

export async function riskWarningFor(store: ProjectStore, root: string, path: string, opts: { now?: () => number } = {}): Promise<RiskWarning | null> {
  const scope = shadowScope(store, root, opts.now ? { now: opts.now } : {});
  const [history, view] = await Promise.all([loadHistory(scope), loadIndexView(store)]);
  const now = scope.now();
  const hotspot = hotspotOf(history, view, { from: now - WARNING_WINDOW_DAYS * DAY_MS, now, days: WARNING_WINDOW_DAYS }, path);
  const prediction = predictChange(history, view, path);
  const levels = [hotspot ? levelOf(hotspot.score) : "low", prediction?.risk_level ?? "low"] as RiskLevel[];
  const level = levels.reduce((a, b) => (RANK[b] > RANK[a] ? b : a), "low");
  if (level !== "high" && level !== "critical") return null;
  const scores = [hotspot ? `hotspot score ${hotspot.score}` : null, prediction ? `change risk ${prediction.risk_score}` : null].filter(Boolean).join(", ");
  const why = riskExplanation(level, hotspot?.explanation ?? null, prediction);
  return {
    path,
    level,
    hotspotScore: hotspot?.score ?? null,
    riskScore: prediction?.risk_score ?? null,
    requiresConfirmation: level === "critical",
    message: `Warning: ${path} is a ${level}-risk file (${scores}). ${why}`.trim(),
  };
}
