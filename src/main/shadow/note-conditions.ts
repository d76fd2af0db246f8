// A note's surface_condition (seed 001 §5): read once into a structured form when the note is written,
// then checked at session start and after each turn. Conditions ipuaro can check itself: a git tag or
// package version reached, a branch or PR merged, a file (or the project) containing a named function or
// class, a date passed. Anything else — and no condition — surfaces at the next session start.
import fs from "node:fs";
import path from "node:path";
import { safeSimpleGit } from "../git/project-git.js";
import { indexReaderOf, symbolLocations } from "../store/index-queries.js";
import type { ShadowScope } from "./shadow-scope.js";

export type NoteCondition =
  | { kind: "none" }
  | { kind: "next_session" }
  | { kind: "date"; date: string; at: number }
  | { kind: "version"; min: string }
  | { kind: "branch_merged"; branch: string }
  | { kind: "pr_merged"; number: number }
  | { kind: "symbol"; name: string; symbolKind: "function" | "class" | "any"; path: string | null };

export type ConditionTrigger = "session_start" | "turn";

const DATE = /\b(\d{4}-\d{2}-\d{2})\b/;
const PR = /\b(?:PR|pull request|merge request|MR)\s*#?(\d+)\b[^]*\bmerged\b/i;
const BRANCH = [/\bbranch\s+[`'"]?([\w./-]+)[`'"]?\s+(?:is\s+|gets\s+|has\s+been\s+|was\s+)?merged\b/i, /\bmerged?\b[^]*?\bbranch\s+[`'"]?([\w./-]+)/i, /\b(?:when|once|after)\s+[`'"]?([\w./-]*[/-][\w./-]*)[`'"]?\s+(?:is|gets|has\s+been|was)\s+merged\b/i];
const VERSION = [/\b(?:tag|version|release|ver)\b[^0-9\n]{0,20}?v?(\d+(?:\.\d+){1,2})\b/i, /\bv(\d+\.\d+(?:\.\d+)?)\b/];
const SYMBOL_IN_FILE = /([\w./-]+\.[cm]?[jt]sx?)\s+(?:contains|has|defines|exports)\s+(?:an?\s+)?(?:(function|class|method)\s+)?(?:named\s+|called\s+)?[`'"]?([A-Za-z_$][\w$.]*)[`'"]?/i;
const SYMBOL_ANYWHERE = /\b(function|class)\s+(?:named\s+|called\s+)?[`'"]?([A-Za-z_$][\w$.]*)[`'"]?\s+(?:exists|appears|is\s+(?:added|defined|created|implemented))/i;

// The same conditions in Russian (the seed's own example is «когда PR #42 будет смержен»). JS's \b is
// ASCII-only, so Cyrillic words are matched by their stems without it.
const MERGED_RU = /(?:мерж|мердж|влит|влив|вольют|слит|слия|слей)/iu;
const PR_RU = /(?:\bPR|\bMR|пулл?[- ]?реквест\p{L}*|мерж[- ]?реквест\p{L}*)\s*#?(\d+)/iu;
const BRANCH_RU = /ветк\p{L}*\s+[`'"«]?([\w./-]+)/iu;
const VERSION_RU = /(?:тег\p{L}*|верси\p{L}*|релиз\p{L}*)[^0-9\n]{0,20}?v?(\d+(?:\.\d+){1,2})\b/iu;
const SYMBOL_KIND_RU = "(функци\\p{L}*|класс\\p{L}*|метод\\p{L}*)";
const SYMBOL_IN_FILE_RU = [
  new RegExp(`([\\w./-]+\\.[cm]?[jt]sx?)\\s+(?:будет\\s+)?(?:содерж\\p{L}*|определ\\p{L}*|экспорт\\p{L}*)\\s+(?:${SYMBOL_KIND_RU}\\s+)?(?:с\\s+именем\\s+|под\\s+названием\\s+)?[\`'"«]?([A-Za-z_$][\\w$.]*)`, "iu"),
  new RegExp(`(?:^|\\s)в\\s+([\\w./-]+\\.[cm]?[jt]sx?)\\s+(?:появится|появятся|будет|есть)\\s+${SYMBOL_KIND_RU}\\s+(?:с\\s+именем\\s+)?[\`'"«]?([A-Za-z_$][\\w$.]*)`, "iu"),
];

function symbolKindRu(word: string | undefined): "function" | "class" | "any" {
  if (!word) return "any";
  return /^класс/i.test(word) ? "class" : "function";
}

/** A Russian condition ipuaro can check, or null. */
function parseRussian(t: string): NoteCondition | null {
  if (!/[а-яё]/i.test(t)) return null;
  const merged = MERGED_RU.test(t);
  const pr = PR_RU.exec(t);
  if (pr && merged) return { kind: "pr_merged", number: Number(pr[1]) };
  const branch = BRANCH_RU.exec(t);
  if (branch && merged && safeRef(branch[1]!.replace(/[.,;:]+$/, ""))) return { kind: "branch_merged", branch: branch[1]!.replace(/[.,;:]+$/, "") };
  for (const re of SYMBOL_IN_FILE_RU) {
    const m = re.exec(t);
    if (m) return { kind: "symbol", name: m[3]!, symbolKind: symbolKindRu(m[2]), path: m[1]!.replace(/^\.\//, "") };
  }
  const version = VERSION_RU.exec(t);
  if (version && !DATE.test(t)) return { kind: "version", min: version[1]! };
  return null;
}

const safeRef = (ref: string) => /^[\w][\w./-]*$/.test(ref) && !ref.includes("..");

export function parseNoteCondition(text: string | null | undefined): NoteCondition {
  const t = text?.trim();
  if (!t) return { kind: "none" };
  const pr = PR.exec(t);
  if (pr) return { kind: "pr_merged", number: Number(pr[1]) };
  const russian = parseRussian(t);
  if (russian) return russian;
  for (const re of BRANCH) {
    const m = re.exec(t);
    if (m && safeRef(m[1]!)) return { kind: "branch_merged", branch: m[1]!.replace(/[.,;:]+$/, "") };
  }
  const inFile = SYMBOL_IN_FILE.exec(t);
  if (inFile) {
    const kind = (inFile[2]?.toLowerCase() ?? "any") as "function" | "class" | "method" | "any";
    return { kind: "symbol", name: inFile[3]!, symbolKind: kind === "method" ? "function" : kind, path: inFile[1]!.replace(/^\.\//, "") };
  }
  const anywhere = SYMBOL_ANYWHERE.exec(t);
  if (anywhere) return { kind: "symbol", name: anywhere[2]!, symbolKind: anywhere[1]!.toLowerCase() as "function" | "class", path: null };
  const date = DATE.exec(t);
  if (date) {
    const at = Date.parse(`${date[1]}T00:00:00Z`);
    if (Number.isFinite(at)) return { kind: "date", date: date[1]!, at };
  }
  for (const re of VERSION) {
    const m = re.exec(t);
    if (m) return { kind: "version", min: m[1]! };
  }
  return { kind: "next_session" };
}

/** Compares dotted versions numerically (`0.23.0` > `0.9.1`); missing parts are 0. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Git facts read at most once per check pass, and only when a condition needs them. */
export class ConditionFacts {
  private tagsP: Promise<string[]> | null = null;
  private mergesP: Promise<string[]> | null = null;

  constructor(private readonly scope: ShadowScope) {}

  private git(args: string[]): Promise<string> {
    return safeSimpleGit(this.scope.root).raw(["--no-pager", ...args]);
  }

  tags(): Promise<string[]> {
    this.tagsP ??= this.git(["tag", "--list"]).then((t) => t.split("\n").map((s) => s.trim()).filter(Boolean), () => []);
    return this.tagsP;
  }

  /** Subjects of recent merge and squash commits reachable from HEAD. */
  mergeSubjects(): Promise<string[]> {
    this.mergesP ??= this.git(["log", "-n", "2000", "--format=%s", "HEAD"]).then((t) => t.split("\n"), () => []);
    return this.mergesP;
  }

  async branchMerged(branch: string): Promise<boolean> {
    let current = "";
    try {
      current = (await this.git(["symbolic-ref", "--quiet", "--short", "HEAD"])).trim();
    } catch {
      // detached HEAD: any existing branch is a candidate
    }
    if (branch === current) return false;
    for (const ref of [`refs/heads/${branch}`, `refs/remotes/origin/${branch}`]) {
      try {
        await this.git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
      } catch {
        continue;
      }
      try {
        await this.git(["merge-base", "--is-ancestor", ref, "HEAD"]);
        return true;
      } catch {
        return false;
      }
    }
    // Deleted after merging: the merge commit still names it.
    const quoted = new RegExp(`Merge (?:remote-tracking )?branch '(?:origin/)?${branch.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}'|Merge pull request #\\d+ from \\S+/${branch.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
    return (await this.mergeSubjects()).some((s) => quoted.test(s));
  }

  packageVersion(): string | null {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(this.scope.root, "package.json"), "utf8")) as { version?: unknown };
      return typeof pkg.version === "string" ? pkg.version : null;
    } catch {
      return null;
    }
  }
}

/** Why the condition holds now, or null when it does not. */
export async function conditionHolds(scope: ShadowScope, c: NoteCondition, trigger: ConditionTrigger, facts: ConditionFacts): Promise<string | null> {
  switch (c.kind) {
    case "none":
    case "next_session":
      return trigger === "session_start" ? "shown at the next session start" : null;
    case "date":
      return scope.now() >= c.at ? `${c.date} has passed` : null;
    case "version": {
      const versions = (await facts.tags()).flatMap((t) => /(\d+(?:\.\d+){1,2})/.exec(t)?.[1] ?? []);
      const reached = versions.find((v) => compareVersions(v, c.min) >= 0);
      if (reached) return `tag ${reached} reached (>= ${c.min})`;
      const pkg = facts.packageVersion();
      return pkg && compareVersions(pkg, c.min) >= 0 ? `package.json version ${pkg} reached (>= ${c.min})` : null;
    }
    case "branch_merged":
      return (await facts.branchMerged(c.branch)) ? `branch ${c.branch} is merged` : null;
    case "pr_merged": {
      const re = new RegExp(`(Merge pull request #${c.number}\\b|\\(#${c.number}\\)\\s*$|See merge request .*!${c.number}\\b)`);
      return (await facts.mergeSubjects()).some((s) => re.test(s)) ? `PR #${c.number} is merged` : null;
    }
    case "symbol":
      return symbolPresent(scope, c);
  }
}

async function symbolPresent(scope: ShadowScope, c: Extract<NoteCondition, { kind: "symbol" }>): Promise<string | null> {
  const wanted = (kind: string) => c.symbolKind === "any" || kind === c.symbolKind || (c.symbolKind === "function" && kind === "method");
  if (c.path) {
    const ast = await scope.store.getAst(c.path);
    if (!ast) return null;
    const found =
      (wanted("function") && (ast.functions.some((f) => f.name === c.name) || ast.classes.some((k) => k.methods.some((m) => m.name === c.name || `${k.name}.${m.name}` === c.name)))) ||
      (wanted("class") && ast.classes.some((k) => k.name === c.name));
    return found ? `${c.path} contains ${c.symbolKind === "any" ? "" : `${c.symbolKind} `}${c.name}` : null;
  }
  const locations = await symbolLocations(indexReaderOf(scope.store), c.name);
  const hit = locations.find((l) => wanted(l.kind));
  return hit ? `${c.symbolKind} ${c.name} exists in ${hit.path}` : null;
}
