// run_tests: runs the project's tests with its own runner (detected from package.json) and a
// machine-readable reporter, then returns counts and each failure with file:line and its message.
// The command it builds is judged and run exactly like run_command's (policy, process group, timeout).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { installedBinary } from "../exec/installed-binary.js";
import { cleanTerminalOutput, headAndTail } from "../exec/output-text.js";
import { counted } from "../plural.js";
import { escapeForDisplay } from "../security/index.js";
import { defineTool } from "./define-tool.js";
import { approveCommand, exitDescription, formatDuration, interruptedOutcome, runApprovedCommand } from "./run-command.js";
import { shellQuote } from "../exec/shell-quote.js";
import { buildTestCommand, type TestRunnerKind } from "./test-runners/detect-runner.js";
import { parseJestLikeReport, parseMochaReport, parseTextSummary, vitestFailureDiffs, type TestSummary } from "./test-runners/report-parsers.js";
import { parseTapReport } from "./test-runners/tap-report.js";
import { pathInPackage, testPackageFor } from "./test-runners/test-package.js";
import { toolPath } from "./tool-paths.js";
import { outputPreview } from "./tool-types.js";

/** Failures listed in full; the rest are counted. */
export const MAX_FAILURES_LISTED = 25;
/** Output tail shown when there is no report, or the run failed without a failing test. */
export const TEST_OUTPUT_TAIL = 4_000;

/** Whether a test file is in what was asked for: the file itself, or a file below the folder. */
function inTarget(target: { path: string; folder: boolean } | null): ((rel: string) => boolean) | undefined {
  if (!target) return undefined;
  return target.folder ? (rel) => rel.startsWith(`${target.path}/`) : (rel) => rel === target.path;
}

function readReport(kind: TestRunnerKind, output: string, reportFile: string, root: string, target: { path: string; folder: boolean } | null): TestSummary | null {
  if (kind === "vitest" || kind === "jest") {
    let text: string;
    try {
      text = fs.readFileSync(reportFile, "utf8");
    } catch {
      return null;
    }
    return parseJestLikeReport(text, root, kind === "vitest" ? vitestFailureDiffs(output) : undefined, inTarget(target));
  }
  if (kind === "mocha") return parseMochaReport(output, root);
  if (kind === "node") return parseTapReport(output, root);
  return null;
}

function countsLine(s: TestSummary): string {
  const parts = [`${s.failed} failed`, `${s.passed} passed`];
  if (s.skipped) parts.push(`${s.skipped} skipped`);
  if (s.todo) parts.push(`${s.todo} todo`);
  if (s.failedFiles) parts.push(`${s.failedFiles} file${s.failedFiles === 1 ? "" : "s"} failed to run`);
  return parts.join(", ");
}

function formatFailures(s: TestSummary): string[] {
  const lines: string[] = [];
  for (const f of s.failures.slice(0, MAX_FAILURES_LISTED)) {
    const where = f.file ? `${f.file}${f.line ? `:${f.line}` : ""}` : "(unknown file)";
    lines.push(`FAIL ${where}  ${f.name}`);
    if (f.message) lines.push(...f.message.split("\n").map((l) => `  ${l}`));
  }
  if (s.failures.length > MAX_FAILURES_LISTED) lines.push(`… and ${s.failures.length - MAX_FAILURES_LISTED} more failures (narrow with path or filter)`);
  return lines;
}

function noTestRanNote(args: { path?: string; filter?: string }, kind: TestRunnerKind): string {
  const where = args.path !== undefined ? ` in ${escapeForDisplay(args.path)}` : "";
  if (args.filter !== undefined) {
    const hint = kind === "node" ? "node --test matches each test's own name" : "names match as results show them: suite > test";
    return `NO TEST RAN, so nothing was checked: no test name${where} contains "${escapeForDisplay(args.filter)}" (${hint})`;
  }
  return `NO TEST RAN, so nothing was checked: no test found${where}`;
}

export const runTests = defineTool({
  name: "run_tests",
  category: "run",
  description:
    "Run the project's tests (vitest, jest, mocha, node --test or npm test, detected from package.json) and get passed/failed/skipped counts and each failing test with file:line and its message. Give a test file or folder as path and/or part of a test name as filter to run fewer tests. In a monorepo a path inside a package runs that package's own test runner from its folder.",
  parameters: z
    .object({
      path: z.string().min(1).optional().describe("Test file or folder relative to the project root"),
      filter: z.string().min(1).optional().describe("Plain text that the names of the tests to run contain"),
    })
    .strict(),
  requiresConfirmation: false,
  title: (a) => `run_tests${a.path ? ` ${a.path}` : ""}${a.filter ? ` -t "${escapeForDisplay(a.filter)}"` : ""}`,
  async execute(args, ctx) {
    let rel: string | undefined;
    let folder = false;
    if (args.path !== undefined) {
      const p = toolPath(ctx.root, args.path, { mustExist: true });
      if (!p.ok) return p;
      rel = p.rel === "." ? undefined : p.rel;
      folder = fs.statSync(p.abs).isDirectory();
    }
    const pkg = testPackageFor(ctx.root, rel, folder);
    if (!pkg.detection.ok) {
      const hint = rel === undefined ? "; in a monorepo, give a path inside a package to run that package's tests" : "";
      return { ok: false, code: "NOT_FOUND", message: `${pkg.detection.message}${hint}` };
    }
    const runner = pkg.detection.runner;
    const pkgRoot = path.join(ctx.root, pkg.folder);
    const inPackage = pkg.folder === "." ? "" : ` in ${escapeForDisplay(pkg.folder)}`;
    // Run by `npx --no`, a runner that is not installed only fails with npm's "npx canceled due to missing
    // packages": say what to do instead.
    if ((runner.kind === "vitest" || runner.kind === "jest" || runner.kind === "mocha") && !installedBinary(pkgRoot, runner.kind)) {
      return {
        ok: false,
        code: "NOT_FOUND",
        message: `${runner.kind} is not installed: there is no node_modules/.bin/${runner.kind} in the ${inPackage ? `package${inPackage}` : "project"} or a folder above it. Install the project's dependencies first (npm install, pnpm install or yarn, as the project uses), then run the tests again.`,
      };
    }

    const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), "ipuaro-tests-"));
    try {
      const reportFile = path.join(reportDir, "report.json");
      const relInPackage = pathInPackage(pkg.folder, rel);
      const target = relInPackage !== undefined ? { path: relInPackage, folder, root: fs.realpathSync(pkgRoot) } : {};
      const built = buildTestCommand(runner, { ...target, ...(args.filter !== undefined ? { filter: args.filter } : {}), reportFile });
      // In a package, the line starts with the cd the policy judges the rest from (leading-cd.ts).
      const command = pkg.folder === "." ? built.command : `cd ${shellQuote(pkg.folder)} && ${built.command}`;
      // The report folder is ours: naming it is not the command reaching outside the project.
      const approval = await approveCommand(command, ctx, [reportDir]);
      if (!approval.ok) return approval;
      const r = await runApprovedCommand(command, ctx);
      const interrupted = interruptedOutcome(r, ctx);
      if (interrupted) return interrupted;

      const output = cleanTerminalOutput(r.output).trimEnd();
      const report = readReport(runner.kind, r.output, reportFile, ctx.root, rel !== undefined ? { path: rel, folder } : null);
      const summary = report ?? parseTextSummary(r.output);
      const header = `${runner.kind}${inPackage} (${runner.why}): ${summary ? countsLine(summary) : "no test counts found"} · ${exitDescription(r)} · ${formatDuration(r.durationMs)}`;
      const lines = [header, `$ ${escapeForDisplay(command)}`];
      if (built.ignored.length) lines.push(`note: npm test runs the script as it is; ${built.ignored.join(" and ")} not applied`);
      if (!report && runner.kind !== "npm") lines.push("note: the runner wrote no machine-readable report (it crashed or did not start); see the output below");
      const extra = report?.outOfScope;
      if (extra) lines.push(`note: ${runner.kind} matches paths as text, so it also ran ${counted(extra.files.length, "test file")} outside ${escapeForDisplay(rel ?? "")} (${extra.files.slice(0, 3).map(escapeForDisplay).join(", ")}${extra.files.length > 3 ? ", …" : ""}); their results are left out${extra.failed ? ", and their failures are what the exit code reports" : ""}`);
      if (report) lines.push(...formatFailures(report));
      // A failure outside the path asked for sets the exit code; it says nothing about the tests asked for.
      const exitCode = extra?.failed && r.exitCode !== 0 ? 0 : r.exitCode;
      const failedSilently = exitCode !== 0 && (!report || report.failures.length === 0);
      if (!report || failedSilently) {
        const tail = headAndTail(output, TEST_OUTPUT_TAIL).text;
        lines.push(failedSilently && report ? "the run failed without a failing test; its output:" : "output:", tail || "(no output)");
      }
      // A filter or path that matches no test is no pass: every test was skipped (or none found), and a
      // model that took "0 failed" for success would think its fix worked.
      const ranNothing = summary !== null && summary.passed + summary.failed === 0 && summary.failedFiles === 0;
      if (ranNothing) lines.push(noTestRanNote(args, runner.kind));
      const passed = exitCode === 0 && (summary?.failed ?? 0) === 0 && (summary?.failedFiles ?? 0) === 0 && !ranNothing;
      if (!passed && !(ranNothing && exitCode === 0)) await ctx.services.analytics?.commandFailed({ sessionId: ctx.sessionId ?? null, source: "run_tests", command, output: r.output, ...(report ? { failures: report.failures } : {}) });
      return {
        ok: true,
        llm: lines.join("\n"),
        data: { runner: runner.kind, command, exitCode: r.exitCode, summary, passed },
        display: {
          summary: ranNothing ? `no test ran: ${countsLine(summary)}` : summary ? `${passed ? "passed" : "FAILED"}: ${countsLine(summary)}` : `${passed ? "passed" : "FAILED"} (${exitDescription(r)})`,
          details: `$ ${command}\n${output || "(no output)"}`,
          detailsHeaderLines: `$ ${command}`.split("\n").length,
          ...(passed ? {} : { preview: outputPreview(output) }),
        },
      };
    } finally {
      fs.rmSync(reportDir, { recursive: true, force: true });
    }
  },
});
