// Where a failed command's errors point: tsc diagnostics (`a.ts(3,5): error TS…` and the pretty
// `a.ts:3:5 - error TS…`), test failures (file:line from run_tests' report) and stack frames (`at f
// (/abs/a.ts:3:5)`). Paths become project-relative; anything outside the project or in node_modules is
// not a location the project's history can use.
import path from "node:path";
import type { ErrorKind } from "./event-types.js";

export interface ErrorLocation {
  file: string | null;
  line: number | null;
  kind: ErrorKind;
  message: string;
}

/** The shape run_tests reports failures in (test-runners/report-parsers.ts TestFailure). */
export interface ReportedTestFailure {
  name: string;
  file: string | null;
  line: number | null;
  message: string;
}

/** Errors kept from one run: a broken build can print thousands of diagnostics. */
export const MAX_ERRORS_PER_RUN = 20;
export const MAX_ERROR_MESSAGE_CHARS = 300;

const TSC_PAREN = /^(.+?\.[cm]?[jt]sx?)\((\d+),(\d+)\):\s+error\s+(TS\d+):\s*(.*)$/;
const TSC_PRETTY = /^(.+?\.[cm]?[jt]sx?):(\d+):(\d+)\s+-\s+error\s+(TS\d+):\s*(.*)$/;
const STACK_FRAME = /^\s*at\s+(?:.*?\()?((?:file:\/\/)?[^()\s]+?\.[cm]?[jt]sx?):(\d+):\d+\)?\s*$/;
const ERROR_LINE = /^\s*(?:Uncaught\s+)?((?:[A-Z][A-Za-z]*)?(?:Error|Exception))(?:\s*\[[^\]]*\])?:\s*(.*)$/;
// eslint-disable-next-line no-control-regex -- ANSI colour sequences in captured terminal output
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

function clip(text: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > MAX_ERROR_MESSAGE_CHARS ? `${one.slice(0, MAX_ERROR_MESSAGE_CHARS - 1)}…` : one;
}

/** A reported path as a project path; null for files outside the project or in dependencies. */
export function locationPath(root: string, reported: string): string | null {
  let p = reported.trim();
  if (p.startsWith("file://")) {
    try {
      p = decodeURIComponent(new URL(p).pathname);
    } catch {
      return null;
    }
  }
  const abs = path.resolve(root, p);
  const rel = path.relative(path.resolve(root), abs).split(path.sep).join("/");
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return null;
  if (rel.split("/").includes("node_modules")) return null;
  return rel;
}

function dedupe(locations: ErrorLocation[]): ErrorLocation[] {
  const seen = new Set<string>();
  const out: ErrorLocation[] = [];
  for (const l of locations) {
    const key = `${l.file}:${l.line}:${l.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(l);
    if (out.length >= MAX_ERRORS_PER_RUN) break;
  }
  return out;
}

/** Every error location a command's output names: tsc first, then runtime errors with their first project frame. */
export function parseErrorLocations(root: string, output: string): ErrorLocation[] {
  const lines = output.replace(ANSI, "").split(/\r?\n/);
  const found: ErrorLocation[] = [];
  let pendingError: string | null = null;
  for (const line of lines) {
    const tsc = TSC_PAREN.exec(line) ?? TSC_PRETTY.exec(line);
    if (tsc) {
      const file = locationPath(root, tsc[1]!);
      if (file) found.push({ file, line: Number(tsc[2]), kind: "type_error", message: clip(`${tsc[4]}: ${tsc[5]}`) });
      continue;
    }
    const err = ERROR_LINE.exec(line);
    if (err) {
      // An error whose trace named no project file still happened: kept without a location.
      if (pendingError !== null) found.push({ file: null, line: null, kind: "runtime_error", message: pendingError });
      pendingError = clip(`${err[1]}: ${err[2]}`);
      continue;
    }
    const frame = STACK_FRAME.exec(line);
    if (frame && pendingError !== null) {
      const file = locationPath(root, frame[1]!);
      if (file) {
        found.push({ file, line: Number(frame[2]), kind: "runtime_error", message: pendingError });
        pendingError = null; // the first project frame is where it happened
      }
    }
  }
  if (pendingError !== null) found.push({ file: null, line: null, kind: "runtime_error", message: pendingError });
  return dedupe(found);
}

/** run_tests' failures as error locations (the failing test's file and line). */
export function testFailureLocations(root: string, failures: readonly ReportedTestFailure[]): ErrorLocation[] {
  return dedupe(
    failures.map((f) => ({
      file: f.file ? locationPath(root, f.file) : null,
      line: f.line ?? null,
      kind: "test_failure" as const,
      message: clip(`${f.name}${f.message ? `: ${f.message}` : ""}`),
    })),
  );
}

/** The last meaningful line of a failed command's output, for a failure that names no file. */
export function failureSummary(output: string): string {
  const lines = output
    .replace(ANSI, "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return clip(lines.at(-1) ?? "the command failed without output");
}
