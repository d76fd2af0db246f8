// node --test's TAP output (`--test-reporter=tap`) → the summary shape of report-parsers.ts: counts, and
// each failure with file:line (from its YAML block, or a stack or crash output naming the file).
import { cleanTerminalOutput } from "../../exec/output-text.js";
import { TEST_NAME_SEPARATOR } from "./detect-runner.js";
import { emptySummary, firstLines, lineFromStack, relFile, type TestSummary } from "./report-parsers.js";

interface TapResult {
  ok: boolean;
  name: string;
  directive: "SKIP" | "TODO" | null;
  yaml: Map<string, string>;
  /** `#` comment lines printed just before it at the top level (a file's crash output). */
  diagnostics: string[];
}

const TAP_RESULT = /^(\s*)(not ok|ok) \d+(?: - (.*?))?(?: # (SKIP|TODO)\b.*)?$/i;
const TAP_COUNT = /^# (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) ([\d.]+)$/;

/** Reads a TAP YAML block (`---` … `...`) of node's reporter: scalars, quoted strings and `|-` blocks. */
function readYamlBlock(lines: string[], start: number): { yaml: Map<string, string>; next: number } {
  const yaml = new Map<string, string>();
  const open = lines[start] ?? "";
  const indent = open.length - open.trimStart().length;
  let i = start + 1;
  // The block ends at `...` on the `---` line's indent: a deeper `...` is content (node's diffs print
  // `...` for skipped lines, and ending there lost the rest of the block, the stack included).
  const isEnd = (line: string) => line.trim() === "..." && line.length - line.trimStart().length <= indent;
  while (i < lines.length && !isEnd(lines[i]!)) {
    const line = lines[i]!;
    const match = /^\s*([\w-]+):\s?(.*)$/.exec(line);
    const lineIndent = line.length - line.trimStart().length;
    if (match && lineIndent === indent) {
      const [, key, value] = match as unknown as [string, string, string];
      if (value === "|-" || value === "|" || value === ">-") {
        const body: string[] = [];
        i++;
        while (i < lines.length && !isEnd(lines[i]!) && (lines[i]!.trim() === "" || lines[i]!.length - lines[i]!.trimStart().length > indent)) {
          body.push(lines[i]!.slice(indent + 2));
          i++;
        }
        yaml.set(key, body.join("\n").trimEnd());
        continue;
      }
      yaml.set(key, value.replace(/^'(.*)'$/, (_m, s: string) => s.replace(/''/g, "'")).replace(/^"(.*)"$/, "$1"));
    }
    i++;
  }
  return { yaml, next: i + 1 };
}

/** Parses node's TAP output; null when the text holds no TAP results. */
export function parseTapReport(text: string, root: string): TestSummary | null {
  const lines = cleanTerminalOutput(text).split("\n");
  const summary = emptySummary();
  const subtests: { indent: number; name: string }[] = [];
  let pendingDiagnostics: string[] = [];
  let sawResult = false;
  const counts = new Map<string, number>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const subtest = /^(\s*)# Subtest: (.*)$/.exec(line);
    if (subtest) {
      subtests.push({ indent: subtest[1]!.length, name: subtest[2]! });
      continue;
    }
    const count = TAP_COUNT.exec(line);
    if (count) {
      counts.set(count[1]!, Number(count[2]));
      continue;
    }
    if (/^# /.test(line)) {
      pendingDiagnostics.push(line.slice(2));
      continue;
    }
    const result = TAP_RESULT.exec(line);
    if (!result) continue;
    sawResult = true;
    const indent = result[1]!.length;
    while (subtests.length && subtests[subtests.length - 1]!.indent > indent) subtests.pop();
    if (subtests.length && subtests[subtests.length - 1]!.indent === indent) subtests.pop();
    const ancestors = subtests.map((s) => s.name);
    let yaml = new Map<string, string>();
    if ((lines[i + 1] ?? "").trim() === "---") {
      const block = readYamlBlock(lines, i + 1);
      yaml = block.yaml;
      i = block.next - 1;
    }
    const tap: TapResult = {
      ok: result[2]!.toLowerCase() === "ok",
      name: (result[3] ?? "").replace(/\\#/g, "#"),
      directive: (result[4]?.toUpperCase() as TapResult["directive"]) ?? null,
      yaml,
      diagnostics: indent === 0 ? pendingDiagnostics : [],
    };
    if (indent === 0) pendingDiagnostics = [];
    if (tap.ok || tap.directive === "TODO") continue;
    // A suite fails when a child does; the child is what matters.
    if (yaml.get("failureType") === "subtestsFailed") continue;
    const location = yaml.get("location") ?? "";
    const locMatch = /^(.*):(\d+):\d+$/.exec(location);
    const absFile = locMatch ? locMatch[1]! : null;
    const stackLine = absFile ? lineFromStack(yaml.get("stack") ?? "", absFile) : null;
    let message = yaml.get("error") ?? "failed";
    if (message === "test failed" && tap.diagnostics.length) message = tap.diagnostics.join("\n");
    if (yaml.get("failureType") === "cancelledByParent") message = `cancelled: ${message}`;
    const isFile = absFile !== null && tap.name === absFile;
    if (isFile) summary.failedFiles++;
    summary.failures.push({
      name: isFile ? "(the test file failed to run)" : [...ancestors, tap.name].join(TEST_NAME_SEPARATOR),
      file: absFile ? relFile(root, absFile) : null,
      line: stackLine ?? (locMatch && !isFile ? Number(locMatch[2]) : (lineFromDiagnostics(tap.diagnostics, absFile) ?? null)),
      message: firstLines(message),
    });
  }
  if (!sawResult && counts.size === 0) return null;
  summary.passed = counts.get("pass") ?? 0;
  summary.failed = (counts.get("fail") ?? 0) + (counts.get("cancelled") ?? 0);
  summary.skipped = counts.get("skipped") ?? 0;
  summary.todo = counts.get("todo") ?? 0;
  return summary;
}

/** A crashed file's output starts with `file:///abs/x.test.js:3`: the line of the syntax error. */
function lineFromDiagnostics(diagnostics: string[], absFile: string | null): number | null {
  if (!absFile) return null;
  for (const d of diagnostics) {
    const m = /^(?:file:\/\/)?(.*):(\d+)$/.exec(d.trim());
    if (m && m[1] === absFile) return Number(m[2]);
  }
  return null;
}
