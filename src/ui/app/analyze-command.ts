// `/analyze QUERY [target] [--target P] [--timeframe W] [--limit N] [--depth N] [--json]`: the project
// analytics as tables fitted to the chat, with the options `ipuaro analyze` takes. An option it does not
// know is named, never ignored: `/analyze hotspots --limit 2` once showed every hotspot without a word.
import { isIpuaroError } from "../../main/errors.js";
import { toShadowError } from "../../main/shadow/shadow-errors.js";
import type { CommandHost } from "./slash-commands.js";

/** What `/analyze` asks the backend for (strings as typed: the analyze tool checks them, as for the CLI). */
export interface AnalyzeRequest {
  query: string;
  target?: string;
  timeframe?: string;
  limit?: string;
  depth?: string;
  /** The tool's JSON instead of tables. */
  json?: boolean;
}

/** The options with a value, as `ipuaro analyze` spells them (`-t` is --target there too). */
const VALUE_OPTIONS: Record<string, "target" | "timeframe" | "limit" | "depth"> = {
  "--target": "target",
  "-t": "target",
  "--timeframe": "timeframe",
  "--limit": "limit",
  "--depth": "depth",
};
const OPTIONS_TEXT = "--target P, --timeframe 7d|30d|90d|all, --limit N, --depth 1-3, --json";

/** What `/analyze` alone lists: each query with what it answers and the target it takes. */
const ANALYZE_HELP: ReadonlyArray<[string, string]> = [
  ["hotspots", "files most risky to change (edits × errors × complexity)"],
  ["predict_change FILE", "what changing FILE may break, and what broke before"],
  ["file_history FILE", "FILE's changes, errors, fixes and reverts"],
  ["dependency_graph FILE", "imports, dependents and files that change with FILE"],
  ["team_pulse", "how the project's changes are going"],
  ["my_stats", "your own changes and the agent's share"],
  ["knowledge_search TEXT", "memory, decisions and notes about TEXT"],
  ["decisions_list [STATUS]", "architecture decisions (proposed, accepted, superseded…)"],
  ["code_errors", "errors seen in the code, by file"],
];

export function analyzeHelp(): string {
  const width = Math.max(...ANALYZE_HELP.map(([q]) => q.length));
  return [
    "Usage: /analyze QUERY [target] [options]",
    "```",
    ...ANALYZE_HELP.map(([q, what]) => `${q.padEnd(width)}  ${what}`),
    "```",
    `Options (as for \`ipuaro analyze\`): ${OPTIONS_TEXT}.`,
  ].join("\n");
}

/**
 * The words after `/analyze`: the query, the target (the other words, a search text may have spaces) and
 * the options, `--limit 2` or `--limit=2`. Throws a sentence naming what it does not understand.
 */
export function parseAnalyzeArgs(args: string): AnalyzeRequest | null {
  const words = args.trim().split(/\s+/).filter(Boolean);
  const positional: string[] = [];
  const request: Omit<AnalyzeRequest, "query"> = {};
  const unknown: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (!word.startsWith("-") || word === "-") {
      positional.push(word);
      continue;
    }
    const eq = word.indexOf("=");
    const name = eq > 0 ? word.slice(0, eq) : word;
    if (name === "--json" && eq < 0) {
      request.json = true;
      continue;
    }
    const key = VALUE_OPTIONS[name];
    if (!key) {
      unknown.push(word);
      continue;
    }
    const value = eq > 0 ? word.slice(eq + 1) : words[++i];
    if (value === undefined || value === "") throw new Error(`${name} needs a value (${OPTIONS_TEXT})`);
    if (request[key] !== undefined) throw new Error(`${name} is given twice`);
    request[key] = value;
  }
  if (unknown.length) throw new Error(`${unknown.join(", ")} ${unknown.length === 1 ? "is not an option" : "are not options"} it understands; it takes ${OPTIONS_TEXT}`);
  const [query, ...rest] = positional;
  if (!query) {
    if (Object.keys(request).length) throw new Error("the query comes first: /analyze QUERY [target] [options] (/analyze alone lists the queries)");
    return null;
  }
  if (rest.length) {
    if (request.target !== undefined) throw new Error(`the target is given twice: "${rest.join(" ")}" and --target ${request.target}`);
    request.target = rest.join(" ");
  }
  return { query, ...request };
}

export async function runAnalyzeCommand(host: CommandHost, args: string): Promise<void> {
  const request = parseAnalyzeArgs(args);
  if (!request) return host.notice("info", analyzeHelp());
  let text: string;
  try {
    text = await host.backend.analyze(request, host.noticeTextWidth());
  } catch (error) {
    if (isIpuaroError(error)) throw error;
    const shadow = toShadowError(error, "analyze");
    const query = request.query;
    host.notice("error", `${shadow.message}${shadow.code === "SHADOW_ERR_MISSING_TARGET" ? ` (/analyze ${query} FILE; /analyze alone lists the queries)` : ""}`);
    return;
  }
  const shown = args.trim().replace(/\s+/g, " ");
  // Aligned tables (or JSON): shown as a block so the columns stay where they are.
  host.notice("info", `**/analyze ${shown}**\n\`\`\`${request.json ? "json" : ""}\n${text}\n\`\`\``);
}
