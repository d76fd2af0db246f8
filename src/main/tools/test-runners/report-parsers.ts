// Test reports → one summary shape: counts, and each failure with file:line and the first lines of its
// message. Reads the runners' machine-readable output (vitest/jest JSON, mocha JSON; node's TAP in tap-report.ts); when
// there is none (a crash, a syntax error, plain `npm test`), counts are taken from the text summary.
import path from "node:path";
import { cleanTerminalOutput } from "../../exec/output-text.js";
import { TEST_NAME_SEPARATOR } from "./detect-runner.js";

export interface TestFailure {
  /** Full name: describe blocks and the test, joined with ` > `. */
  name: string;
  /** Project-relative file (or as reported when it lies outside the project). */
  file: string | null;
  line: number | null;
  /** The first lines of the failure message, without stack frames. */
  message: string;
}

export interface TestSummary {
  passed: number;
  failed: number;
  skipped: number;
  todo: number;
  /** Test files that failed as a whole (did not load, threw outside a test). */
  failedFiles: number;
  failures: TestFailure[];
  /**
   * Test files the runner ran beyond the path asked for (vitest and jest match paths as text: `src/util`
   * also runs `legacy/src/util/`), left out of everything above; `failed`: whether any of them failed.
   */
  outOfScope?: { files: string[]; failed: boolean };
}

export const MESSAGE_LINES = 6;
const MESSAGE_LINE_CHARS = 240;

export function emptySummary(): TestSummary {
  return { passed: 0, failed: 0, skipped: 0, todo: 0, failedFiles: 0, failures: [] };
}

export function relFile(root: string, file: string): string {
  const abs = file.startsWith("file://") ? decodeURIComponent(new URL(file).pathname) : file;
  if (!path.isAbsolute(abs)) return abs.split(path.sep).join("/");
  const rel = path.relative(root, abs);
  return rel.startsWith("..") || path.isAbsolute(rel) ? abs : rel.split(path.sep).join("/");
}

/** Lines of an expected/actual diff kept in a failure message (changed lines with a line of context each). */
export const DIFF_LINES = 24;
/** `- Expected` / `+ Received` (vitest, jest), `+ actual - expected` (node): the legend, not a change. */
const DIFF_LEGEND = /^\s*(?:[-+] (?:Expected|Received|expected|actual)\b.*|\+ actual - expected.*)$/;
const DIFF_CHANGE = /^\s*[-+](?:\s|$)/;

/**
 * The message without ANSI codes and stack frames, cut to its first lines. When it holds an
 * expected/actual diff, the changed lines are what the fix needs: they are kept (with one line of
 * context each) even when they come after the first `max` lines.
 */
export function firstLines(message: string, max = MESSAGE_LINES): string {
  const lines = cleanTerminalOutput(message)
    .split("\n")
    .filter((l) => l.trim() !== "" && !/^\s*at\s/.test(l) && !/^\s*❯\s/.test(l))
    .map((l) => (l.length > MESSAGE_LINE_CHARS ? `${l.slice(0, MESSAGE_LINE_CHARS)}…` : l.trimEnd()));
  if (lines.length <= max) return lines.join("\n");
  // The last line of the legend (`- Expected` and `+ Received` are two).
  let legend = lines.findIndex((l) => DIFF_LEGEND.test(l));
  while (legend >= 0 && DIFF_LEGEND.test(lines[legend + 1] ?? "")) legend++;
  const changes = lines.flatMap((l, i) => (i > legend && legend >= 0 && DIFF_CHANGE.test(l) && !DIFF_LEGEND.test(l) ? [i] : []));
  if (changes.length === 0) {
    const kept = lines.slice(0, max);
    kept.push(`… (${lines.length - max} more lines)`);
    return kept.join("\n");
  }
  // The headline up to the legend, then each change with a line of context, gaps marked.
  const wanted = new Set<number>();
  for (let i = 0; i <= legend; i++) if (i < max - 1 || DIFF_LEGEND.test(lines[i]!)) wanted.add(i);
  for (const i of changes) {
    if (wanted.size >= legend + 1 + DIFF_LINES) break;
    for (const j of [i - 1, i, i + 1]) if (j > legend && j < lines.length) wanted.add(j);
  }
  const kept: string[] = [];
  let previous = -1;
  for (const i of [...wanted].sort((a, b) => a - b)) {
    if (i > previous + 1) kept.push("  …");
    kept.push(lines[i]!);
    previous = i;
  }
  if (previous < lines.length - 1) kept.push(`… (${lines.length - wanted.size} more lines)`);
  return kept.join("\n");
}

/**
 * The line in `file` where a stack trace points, i.e. where the failing assertion is. Frames look like
 * `at /abs/a.test.ts:5:19`, `at fn (file:///abs/a.test.ts:5:19)` or node's `fn (file:///abs/a.test.ts:6:12)`.
 */
export function lineFromStack(stack: string, file: string, relative?: string): number | null {
  for (const candidate of [file, `file://${file}`, ...(relative ? [relative] : [])]) {
    let from = 0;
    for (;;) {
      const at = stack.indexOf(candidate, from);
      if (at < 0) break;
      from = at + candidate.length;
      // A relative path (mocha shortens frames to the working folder) must start the frame's location,
      // not end a longer path.
      if (candidate === relative && at > 0 && !/[\s(]/.test(stack[at - 1]!)) continue;
      const rest = /^:(\d+):\d+/.exec(stack.slice(at + candidate.length));
      if (rest) return Number(rest[1]);
    }
  }
  return null;
}

// --- vitest and jest (`--json`): the same shape -------------------------------------------------------

interface JestAssertion {
  ancestorTitles?: string[];
  title?: string;
  fullName?: string;
  status?: string;
  failureMessages?: string[];
  location?: { line?: number; column?: number } | null;
}
interface JestFileResult {
  name?: string;
  status?: string;
  message?: string;
  assertionResults?: JestAssertion[];
}
interface JestReport {
  numPassedTests?: number;
  numFailedTests?: number;
  numPendingTests?: number;
  numTodoTests?: number;
  testResults?: JestFileResult[];
}

/** A test's status in the report as the summary counts it. */
const COUNTED_AS: Record<string, "passed" | "failed" | "skipped" | "todo"> = { passed: "passed", failed: "failed", pending: "skipped", skipped: "skipped", disabled: "skipped", todo: "todo" };

/**
 * Parses vitest's json reporter or jest's `--json` output; null when it is not such a report.
 * `diffs` (from vitestFailureDiffs) adds each failure's expected/received diff to its message.
 * `inScope` (project-relative path → whether it was asked for): files outside it are left out and the
 * counts are made from the files kept (see TestSummary.outOfScope).
 */
export function parseJestLikeReport(text: string, root: string, diffs: ReadonlyMap<string, string> = new Map(), inScope?: (rel: string) => boolean): TestSummary | null {
  let report: JestReport;
  try {
    report = JSON.parse(text) as JestReport;
  } catch {
    return null;
  }
  if (!report || typeof report !== "object" || !Array.isArray(report.testResults)) return null;
  const summary = emptySummary();
  summary.passed = report.numPassedTests ?? 0;
  summary.failed = report.numFailedTests ?? 0;
  summary.skipped = report.numPendingTests ?? 0;
  summary.todo = report.numTodoTests ?? 0;
  const kept = inScope ? report.testResults.filter((file) => !file.name || inScope(relFile(root, file.name))) : report.testResults;
  if (kept.length < report.testResults.length) {
    const dropped = report.testResults.filter((file) => !kept.includes(file));
    summary.outOfScope = { files: dropped.map((file) => relFile(root, file.name!)), failed: dropped.some((file) => file.status === "failed") };
    summary.passed = summary.failed = summary.skipped = summary.todo = 0;
    for (const file of kept) {
      for (const a of file.assertionResults ?? []) {
        const as = COUNTED_AS[a.status ?? ""];
        if (as) summary[as]++;
      }
    }
  }
  for (const file of kept) {
    const abs = file.name ?? "";
    const rel = abs ? relFile(root, abs) : null;
    const assertions = file.assertionResults ?? [];
    for (const a of assertions) {
      if (a.status !== "failed") continue;
      const messages = (a.failureMessages ?? []).join("\n");
      const line = (abs ? lineFromStack(cleanTerminalOutput(messages), abs) : null) ?? a.location?.line ?? null;
      const name = [...(a.ancestorTitles ?? []), a.title ?? a.fullName ?? "(unnamed test)"].join(TEST_NAME_SEPARATOR);
      const diff = rel !== null ? diffs.get(`${rel} > ${name}`) : undefined;
      // jest's messages carry their diff already.
      const withDiff = diff && !/^\s*- Expected/m.test(cleanTerminalOutput(messages)) ? `${messages}\n${diff}` : messages;
      summary.failures.push({ name, file: rel, line, message: firstLines(withDiff) });
    }
    const fileMessage = (file.message ?? "").trim();
    if (file.status === "failed" && fileMessage !== "" && !assertions.some((a) => a.status === "failed")) {
      summary.failedFiles++;
      const line = abs ? lineFromStack(cleanTerminalOutput(fileMessage), abs) : null;
      summary.failures.push({ name: "(the test file failed to run)", file: rel, line, message: firstLines(fileMessage) });
    }
  }
  return summary;
}

// --- vitest's default reporter: the expected/received diffs its JSON report leaves out --------------

// ` FAIL  src/a.test.ts > suite > test`, with `|project| ` before the file in a multi-project setup.
const VITEST_FAIL_HEADER = /^ FAIL {2}(?:\|[^|]+\| )?(.+?)$/;
const VITEST_SEPARATOR = /^⎯{3,}/;

/**
 * The `- Expected` / `+ Received` diff of each failed test in vitest's default output, keyed by
 * `file > describe > test` as the header names it. vitest's JSON report has only the one-line message,
 * which shortens objects to `{ id: 1, …(4) }`: without the diff the model cannot see what differs.
 */
export function vitestFailureDiffs(output: string): Map<string, string> {
  const diffs = new Map<string, string>();
  const lines = cleanTerminalOutput(output).split("\n");
  let names: string[] = [];
  let diff: string[] | null = null;
  const flush = () => {
    const body = diff?.join("\n").trim();
    if (body) for (const name of names) if (!diffs.has(name)) diffs.set(name, body);
    names = [];
    diff = null;
  };
  let previousWasHeader = false;
  for (const line of lines) {
    const header = VITEST_FAIL_HEADER.exec(line);
    if (header) {
      // Headers in a row share the error under them; a header after anything else starts a new one.
      if (!previousWasHeader) flush();
      names.push(header[1]!.trim());
      previousWasHeader = true;
      continue;
    }
    previousWasHeader = false;
    if (names.length === 0) continue;
    if (VITEST_SEPARATOR.test(line.trim()) || /^\s*(?:Test Files|Tests)\s/.test(line)) {
      flush();
      continue;
    }
    if (diff === null) {
      if (/^- Expected\b/.test(line)) diff = [line];
      continue;
    }
    // The diff ends where the source location and the code frame begin.
    if (/^\s*❯ /.test(line) || /^\s*\d+\|/.test(line)) {
      flush();
      continue;
    }
    diff.push(line);
  }
  flush();
  return diffs;
}

// --- mocha (`--reporter json` on stdout) ----------------------------------------------------------

interface MochaTest {
  title?: string;
  fullTitle?: string;
  file?: string;
  err?: { message?: string; stack?: string };
}
interface MochaReport {
  stats?: { passes?: number; failures?: number; pending?: number };
  failures?: MochaTest[];
}

/** Finds mocha's JSON report in stdout (tests may print before it); null when there is none. */
/**
 * `suite > test`, as the other runners' results name tests (and as a filter copied from it matches):
 * mocha gives the test's own title and the full title, joined with spaces.
 */
function mochaTestName(t: { title?: string; fullTitle?: string }): string {
  const { title, fullTitle } = t;
  if (title === undefined) return fullTitle ?? "(unnamed test)";
  if (fullTitle === undefined || !fullTitle.endsWith(` ${title}`)) return fullTitle ?? title;
  return `${fullTitle.slice(0, -title.length - 1)}${TEST_NAME_SEPARATOR}${title}`;
}

export function parseMochaReport(stdout: string, root: string): TestSummary | null {
  const start = stdout.search(/^\{\s*\n\s*"stats": \{/m);
  if (start < 0) return null;
  let report: MochaReport;
  try {
    report = JSON.parse(stdout.slice(start)) as MochaReport;
  } catch {
    return null;
  }
  const summary = emptySummary();
  summary.passed = report.stats?.passes ?? 0;
  summary.failed = report.stats?.failures ?? 0;
  summary.skipped = report.stats?.pending ?? 0;
  for (const t of report.failures ?? []) {
    const stack = t.err?.stack ?? "";
    const message = t.err?.message ?? stack;
    const rel = t.file ? relFile(root, t.file) : null;
    const line = t.file ? lineFromStack(stack, t.file, rel ?? undefined) : null;
    summary.failures.push({ name: mochaTestName(t), file: rel, line, message: firstLines(message) });
  }
  return summary;
}

// --- any runner's text output -----------------------------------------------------------------------

/** Counts from a runner's human summary (vitest, jest, mocha, node spec/tap); null when none is found. */
export function parseTextSummary(output: string): TestSummary | null {
  const text = cleanTerminalOutput(output);
  const summary = emptySummary();
  const take = (re: RegExp): number | null => {
    const all = [...text.matchAll(re)];
    const last = all[all.length - 1];
    return last ? Number(last[1]) : null;
  };
  // vitest: `Tests  1 failed | 2 passed | 1 skipped (4)`; jest: `Tests:  1 failed, 2 passed, 3 total`.
  const testsLine = [...text.matchAll(/^\s*Tests:?\s+(.*)$/gm)].pop()?.[1];
  if (testsLine) {
    const n = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(testsLine)?.[1] ?? 0);
    summary.passed = n("passed");
    summary.failed = n("failed");
    summary.skipped = n("skipped") + n("pending");
    summary.todo = n("todo");
    return summary;
  }
  // mocha: `  2 passing (5ms)`, `  1 failing`, `  1 pending`.
  const passing = take(/^\s*(\d+) passing\b/gm);
  if (passing !== null) {
    summary.passed = passing;
    summary.failed = take(/^\s*(\d+) failing\b/gm) ?? 0;
    summary.skipped = take(/^\s*(\d+) pending\b/gm) ?? 0;
    return summary;
  }
  // node: `# pass 3` (tap) or `ℹ pass 3` (spec).
  const pass = take(/^(?:#|ℹ) pass (\d+)$/gm);
  if (pass !== null) {
    summary.passed = pass;
    summary.failed = (take(/^(?:#|ℹ) fail (\d+)$/gm) ?? 0) + (take(/^(?:#|ℹ) cancelled (\d+)$/gm) ?? 0);
    summary.skipped = take(/^(?:#|ℹ) skipped (\d+)$/gm) ?? 0;
    summary.todo = take(/^(?:#|ℹ) todo (\d+)$/gm) ?? 0;
    return summary;
  }
  return null;
}
