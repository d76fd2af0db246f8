// Which test runner a project uses (from package.json: the test script first, then dependencies) and
// the command line run_tests runs for it, with a machine-readable reporter wherever the runner has one.
import fs from "node:fs";
import path from "node:path";
import { shellJoin } from "../../exec/shell-quote.js";
import { MAX_READ_BYTES, specialFileKind } from "../../fs/regular-file.js";

export type TestRunnerKind = "vitest" | "jest" | "mocha" | "node" | "npm";

export interface DetectedRunner {
  kind: TestRunnerKind;
  /** Why this runner was chosen, for the result header. */
  why: string;
  /** node --test only: node options taken from the test script (e.g. `--import tsx`). */
  nodeOptions?: string[];
  /** node --test only: the paths the test script names, used when no path is asked for. */
  scriptPaths?: string[];
}

export type RunnerDetection = { ok: true; runner: DetectedRunner } | { ok: false; message: string };

/** npm init's placeholder: a test script that only fails. */
const PLACEHOLDER_SCRIPT = /no test specified/;
/** node options that take the next word as their value. */
const NODE_VALUE_OPTIONS = new Set(["--import", "-r", "--require", "--loader", "--experimental-loader", "-C", "--conditions", "--test-name-pattern", "--test-reporter", "--test-reporter-destination", "--test-concurrency", "--test-shard", "--env-file"]);
const NODE_DROPPED_OPTIONS = /^--(test|test-reporter|test-reporter-destination|test-name-pattern|test-only|watch)(=|$)/;

interface PackageJson {
  scripts?: Record<string, unknown>;
  dependencies?: Record<string, unknown>;
  devDependencies?: Record<string, unknown>;
}

function readPackageJson(root: string): PackageJson | string {
  const file = path.join(root, "package.json");
  let text: string;
  try {
    // A FIFO or device in its place would hang the read (see fs/regular-file.ts).
    const st = fs.statSync(file);
    if (!st.isFile()) return `package.json in the project root is ${specialFileKind(st)}, not a regular file, so the test runner is unknown`;
    if (st.size > MAX_READ_BYTES) return `package.json in the project root is ${st.size} bytes, too large to read, so the test runner is unknown`;
    text = fs.readFileSync(file, "utf8");
  } catch {
    return "there is no package.json in the project root, so the test runner is unknown; run the tests with run_command (e.g. `node --test`)";
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as PackageJson;
    return "package.json is not a JSON object";
  } catch (err) {
    return `package.json is not valid JSON (${(err as Error).message}); fix it first`;
  }
}

/** A `node … --test …` script split into node options and paths; null when it is anything more complex. */
export function parseNodeTestScript(script: string): { nodeOptions: string[]; paths: string[] } | null {
  if (/["'`$|;&<>(){}\\]/.test(script)) return null;
  const words = script.trim().split(/\s+/);
  if (words[0] !== "node" || !words.some((w) => /^--test(=|$)/.test(w))) return null;
  const nodeOptions: string[] = [];
  const paths: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    const takesValue = NODE_VALUE_OPTIONS.has(word);
    if (NODE_DROPPED_OPTIONS.test(word)) {
      if (takesValue) i++;
    } else if (word.startsWith("-")) {
      nodeOptions.push(word);
      if (takesValue && i + 1 < words.length) nodeOptions.push(words[++i]!);
    } else {
      paths.push(word);
    }
  }
  return { nodeOptions, paths };
}

export function detectTestRunner(root: string): RunnerDetection {
  const pkg = readPackageJson(root);
  if (typeof pkg === "string") return { ok: false, message: pkg };
  const rawScript = pkg.scripts?.test;
  const script = typeof rawScript === "string" && !PLACEHOLDER_SCRIPT.test(rawScript) ? rawScript : null;
  if (script !== null) {
    for (const kind of ["vitest", "jest", "mocha"] as const) {
      if (new RegExp(`\\b${kind}\\b`).test(script)) return { ok: true, runner: { kind, why: `the test script runs ${kind}` } };
    }
    if (/\bnode\b[^&|;]*\s--test\b/.test(script)) {
      const parsed = parseNodeTestScript(script);
      return {
        ok: true,
        runner: { kind: "node", why: "the test script runs node --test", nodeOptions: parsed?.nodeOptions ?? [], scriptPaths: parsed?.paths ?? [] },
      };
    }
  }
  const deps = { ...(pkg.dependencies ?? {}), ...(pkg.devDependencies ?? {}) };
  for (const kind of ["vitest", "jest", "mocha"] as const) {
    if (kind in deps) return { ok: true, runner: { kind, why: `${kind} is a dependency` } };
  }
  if (script !== null) return { ok: true, runner: { kind: "npm", why: "the test script is run with npm test" } };
  return {
    ok: false,
    message: "package.json has no test script and no vitest, jest or mocha dependency, so the test runner is unknown; run the tests with run_command (e.g. `node --test`)",
  };
}

/** A filter is plain text from a test's name: runners take a regex, so its special characters are escaped. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

export interface TestCommand {
  /** The command line, judged by the command policy like any other. */
  command: string;
  /** Where the machine-readable report goes: a file, stdout (mocha json, node tap), or nowhere (npm test). */
  report: "file" | "stdout" | "none";
  /** Arguments the runner could not take (npm test runs the script as it is). */
  ignored: string[];
}

export interface TestCommandInput {
  /** Project-relative path (file or folder). */
  path?: string;
  /** With `path`: whether it is a folder (see runnerPathArg). */
  folder?: boolean;
  /** The project's real path (jest matches paths as regexes on absolute paths: see runnerPathArg). */
  root?: string;
  filter?: string;
  /** Absolute path of the JSON report file (vitest, jest). */
  reportFile: string;
}

/** Paths starting with `-` would read as options. */
function pathArg(rel: string): string {
  return rel.startsWith("-") ? `./${rel}` : rel;
}

/** How run_tests names a test in its results: describe blocks and the test joined with this. */
export const TEST_NAME_SEPARATOR = " > ";

/**
 * The runner's name pattern for a filter. A filter copied from a result (`math > adds`) holds our
 * separator, which is in no runner's test name: vitest, jest and mocha match the full name joined
 * with spaces, so the separator matches a space (or itself); node 20 matches each test's own name
 * only, so it gets the last part.
 */
export function testNamePattern(kind: TestRunnerKind, filter: string): string {
  const parts = filter.split(TEST_NAME_SEPARATOR).map((p) => p.trim()).filter((p) => p !== "");
  if (parts.length <= 1) return escapeRegExp(filter);
  if (kind === "node") return escapeRegExp(parts[parts.length - 1]!);
  return parts.map(escapeRegExp).join("(?: > | )");
}

/**
 * vitest takes a path as a pattern: it runs every test file whose path contains it, so `src/util` also
 * ran `src/utils/`. A folder given with its trailing slash matches that folder only (a folder of the
 * same name deeper down, `legacy/src/util/`, still matches: vitest has no exact form, so run_tests leaves
 * such files' results out of its report).
 */
function runnerPathArg(kind: TestRunnerKind, input: TestCommandInput & { path: string }): string {
  if (kind === "jest" && input.root !== undefined) return jestPathPattern(input.root, input.path, input.folder === true);
  return pathArg(kind === "vitest" && input.folder ? `${input.path}/` : input.path);
}

/**
 * jest takes a path as a regex tested on each test file's absolute path: `app/[id]/page.test.tsx` (a
 * Next.js route) matched nothing, and `src/util` also ran `src/utils/` and `legacy/src/util/`. The
 * path is escaped and anchored at the project's root instead (jest resolves its root with realpath).
 */
function jestPathPattern(root: string, rel: string, folder: boolean): string {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return `^${literal(`${root.replace(/\/+$/, "")}/${rel}`)}${folder ? "/" : "$"}`;
}

export function buildTestCommand(runner: DetectedRunner, input: TestCommandInput): TestCommand {
  const filter = input.filter !== undefined ? testNamePattern(runner.kind, input.filter) : undefined;
  const paths = input.path !== undefined ? [runnerPathArg(runner.kind, { ...input, path: input.path })] : [];
  // `npx --no`: use the project's own copy, never download one. `--`: the rest is the runner's; without
  // it npx (npm 10-11) took `--json`, `--outputFile`… after `--no` as npm options, so jest wrote no report.
  switch (runner.kind) {
    case "vitest":
      return {
        command: shellJoin(["npx", "--no", "--", "vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${input.reportFile}`, ...(filter ? ["-t", filter] : []), ...paths]),
        report: "file",
        ignored: [],
      };
    case "jest":
      return {
        command: shellJoin(["npx", "--no", "--", "jest", "--json", `--outputFile=${input.reportFile}`, "--testLocationInResults", ...(filter ? ["-t", filter] : []), ...paths]),
        report: "file",
        ignored: [],
      };
    case "mocha":
      // A folder is read one level deep unless --recursive: tests in its subfolders were left out.
      return { command: shellJoin(["npx", "--no", "--", "mocha", "--reporter=json", ...(input.folder && paths.length ? ["--recursive"] : []), ...(filter ? ["--grep", filter] : []), ...paths]), report: "stdout", ignored: [] };
    case "node":
      return {
        command: shellJoin([
          "node",
          ...(runner.nodeOptions ?? []),
          "--test",
          "--test-reporter=tap",
          ...(filter ? [`--test-name-pattern=${filter}`] : []),
          ...(paths.length ? paths : (runner.scriptPaths ?? [])),
        ]),
        report: "stdout",
        ignored: [],
      };
    case "npm":
      return {
        command: "npm test",
        report: "none",
        ignored: [...(input.path !== undefined ? [`path ${input.path}`] : []), ...(input.filter !== undefined ? [`filter ${input.filter}`] : [])],
      };
  }
}
