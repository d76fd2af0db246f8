// context_inject (seed 001 §6): what the project memory and analytics know, as markdown sections the
// model reads — architecture, conventions, hotspots, recent changes, accepted decisions — plus, with a
// focus, what is known about one file or module.
import { loadHistory, type ShadowHistory } from "./change-history.js";
import { scoreFiles } from "./hotspots.js";
import { isIndexedFolder, loadIndexView, moduleOf, type IndexView } from "./index-view.js";
import { listDecisions, listMemories, type DecisionEntry, type MemoryEntry } from "./memory-store.js";
import { predictChange } from "./predict-change.js";
import { relatedTo } from "./related-files.js";
import { isShadowError, ShadowError } from "./shadow-errors.js";
import type { ShadowScope } from "./shadow-scope.js";
import { DAY_MS, projectRelative } from "./shadow-validate.js";
import { counted } from "../plural.js";

export const CONTEXT_SECTIONS = ["architecture", "conventions", "hotspots", "recent_changes", "decisions"] as const;
export type ContextSection = (typeof CONTEXT_SECTIONS)[number];
export const CONTEXT_HOTSPOT_SCORE = 0.5;
export const RECENT_DAYS = 7;

export interface ContextInjectResult {
  injected_at: number;
  sections_count: number;
  sections: string[];
  context: string;
  focus: string | null;
  message: string;
}

const CONVENTION_CATEGORIES = new Set(["PROJECT_RULES", "NAMING", "CONFIG_VALUES", "CONSTRAINTS"]);

function architecture(memories: MemoryEntry[], view: IndexView): string | null {
  const facts = memories.filter((m) => m.category === "ARCHITECTURE").slice(0, 10).map((m) => `- ${m.content}`);
  const modules = new Map<string, number>();
  for (const p of view.metas.keys()) modules.set(moduleOf(p), (modules.get(moduleOf(p)) ?? 0) + 1);
  const biggest = [...modules].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 10);
  const lines = [...facts, ...(biggest.length ? [`- Modules: ${biggest.map(([m, n]) => `${m} (${counted(n, "file")})`).join(", ")}`] : [])];
  return lines.length ? `## Architecture\n${lines.join("\n")}` : null;
}

function conventions(memories: MemoryEntry[]): string | null {
  const lines = memories.filter((m) => CONVENTION_CATEGORIES.has(m.category)).slice(0, 15).map((m) => `- [${m.category}] ${m.content}`);
  return lines.length ? `## Conventions and constraints\n${lines.join("\n")}` : null;
}

function hotspots(h: ShadowHistory, view: IndexView, now: number): string | null {
  const hot = scoreFiles(h, view, { from: now - 30 * DAY_MS, now, days: 30 }).filter((s) => s.score > CONTEXT_HOTSPOT_SCORE).slice(0, 5);
  return hot.length ? `## Hotspots (last 30 days)\n${hot.map((s) => `- \`${s.file}\` — score ${s.score} (${s.level}): ${s.explanation}`).join("\n")}` : null;
}

function recentChanges(h: ShadowHistory, now: number): string | null {
  const counts = new Map<string, { n: number; agent: number }>();
  for (const c of h.changes) {
    if (c.at < now - RECENT_DAYS * DAY_MS || c.at > now) continue;
    const x = counts.get(c.file) ?? { n: 0, agent: 0 };
    x.n++;
    if (c.source === "agent") x.agent++;
    counts.set(c.file, x);
  }
  const top = [...counts].sort((a, b) => b[1].n - a[1].n || a[0].localeCompare(b[0])).slice(0, 10);
  return top.length ? `## Recent changes (${RECENT_DAYS} days)\n${top.map(([f, x]) => `- \`${f}\` — ${x.n} change${x.n === 1 ? "" : "s"}${x.agent ? ` (${x.agent} by the agent)` : ""}`).join("\n")}` : null;
}

function decisions(all: DecisionEntry[]): string | null {
  const accepted = all.filter((d) => d.status === "accepted").sort((a, b) => b.created_at - a.created_at).slice(0, 5);
  return accepted.length ? `## Accepted decisions\n${accepted.map((d) => `- **#${d.id} ${d.title}**: ${d.description}`).join("\n")}` : null;
}

function focusSection(target: string, h: ShadowHistory, view: IndexView, memories: MemoryEntry[], all: DecisionEntry[], now: number): string {
  const isFile = view.metas.has(target) || h.byFile.has(target);
  const inScope = (p: string) => (isFile ? p === target : p === target || p.startsWith(`${target}/`));
  const lines: string[] = [];
  if (isFile) {
    const meta = view.metas.get(target);
    if (meta) lines.push(`- Imports ${meta.dependencies.length} project files; imported by ${meta.dependents.length}${meta.dependents.length ? ` (${meta.dependents.slice(0, 5).join(", ")}${meta.dependents.length > 5 ? ", …" : ""})` : ""}.`);
    const p = predictChange(h, view, target);
    if (p) lines.push(`- Change risk: ${p.risk_level} (${p.risk_score}); ${p.total_changes} recorded changes, breakage rate ${p.historical_breakage_rate}.${p.affected_files.length ? ` Affected: ${p.affected_files.slice(0, 5).join(", ")}.` : ""}`);
  } else {
    const files = [...view.metas.keys()].filter(inScope);
    lines.push(`- Module with ${files.length} indexed files.`);
    const hot = scoreFiles(h, view, { from: now - 30 * DAY_MS, now, days: 30 }).filter((s) => inScope(s.file)).slice(0, 3);
    if (hot.length) lines.push(`- Busiest files: ${hot.map((s) => `${s.file} (score ${s.score})`).join(", ")}.`);
  }
  for (const d of all.filter((x) => x.related_files.some((f) => relatedTo(f, target, !isFile)))) lines.push(`- Decision #${d.id} [${d.status}] ${d.title}: ${d.description}`);
  for (const m of memories.filter((x) => x.content.includes(target))) lines.push(`- [${m.category}] ${m.content}`);
  return `## Focus: ${target}\n${lines.join("\n")}`;
}

export async function contextInject(scope: ShadowScope, opts: { focus?: string; include: ContextSection[] | null }): Promise<ContextInjectResult> {
  const include = opts.include ?? [...CONTEXT_SECTIONS];
  const [h, view, memories, all] = await Promise.all([loadHistory(scope), loadIndexView(scope.store), listMemories(scope), listDecisions(scope)]);
  const now = scope.now();
  let focus: string | null = null;
  if (opts.focus) {
    try {
      focus = projectRelative(scope.root, opts.focus).replace(/\/$/, "");
    } catch (error) {
      if (!isShadowError(error)) throw error;
      throw new ShadowError("SHADOW_ERR_INVALID_FOCUS", `focus ${opts.focus}: ${error.message}`, { focus: opts.focus });
    }
    const known = view.metas.has(focus) || h.byFile.has(focus) || isIndexedFolder(view, focus);
    if (!known || focus === ".") throw new ShadowError("SHADOW_ERR_INVALID_FOCUS", `focus ${opts.focus} matches no indexed file or module and has no history; give a file or folder path relative to the root.`, { focus: opts.focus });
  }
  const built: Array<[ContextSection | "focus", string | null]> = [
    ["architecture", include.includes("architecture") ? architecture(memories, view) : null],
    ["conventions", include.includes("conventions") ? conventions(memories) : null],
    ["hotspots", include.includes("hotspots") ? hotspots(h, view, now) : null],
    ["recent_changes", include.includes("recent_changes") ? recentChanges(h, now) : null],
    ["decisions", include.includes("decisions") ? decisions(all) : null],
    ["focus", focus ? focusSection(focus, h, view, memories, all, now) : null],
  ];
  const present = built.filter((b): b is [ContextSection | "focus", string] => b[1] !== null);
  if (!present.length) {
    throw new ShadowError("SHADOW_ERR_NO_CONTEXT_AVAILABLE", "there is no project context yet: nothing indexed, remembered or recorded. Run `ipuaro index`, or record facts with memory_write.", { include });
  }
  return {
    injected_at: now,
    sections_count: present.length,
    sections: present.map(([name]) => name),
    context: present.map(([, text]) => text).join("\n\n"),
    focus,
    message: `Project context injected: ${present.length} section${present.length === 1 ? "" : "s"}.`,
  };
}
