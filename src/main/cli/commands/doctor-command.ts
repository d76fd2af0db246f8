// `ipuaro doctor [path] [--json]`: is everything ipuaro needs there? Redis, Ollama, the configured model,
// the project's index, and how much space the file history (checkpoint backups) takes. Exit code 1 when
// a check fails; warnings (e.g. not indexed yet) do not fail.
import type { Command } from "commander";
import { fileHistoryUsage, formatBytes, type FileHistoryUsage } from "../../checkpoints/index.js";
import { loadCommandLists } from "../../config/command-lists.js";
import { homeFolderProblem, ipuaroHome } from "../../config/paths.js";
import { loadConfig, modelConfigError } from "../../config/loader.js";
import type { IpuaroConfig } from "../../config/schema.js";
import { errorMessage, IpuaroError } from "../../errors.js";
import { OllamaClient } from "../../llm/ollama-client.js";
import { counted } from "../../plural.js";
import { openProjectStore, type OpenedProjectStore } from "../../store/open-project-store.js";
import { newerSchemaError, storedSchema } from "../../store/schema-version.js";
import { resolveProjectRoot } from "../project-root.js";
import { windowNotice } from "../model-setup.js";
import { missingModelAdvice } from "../../llm/missing-model.js";

export interface DoctorCheck {
  name: "config" | "redis" | "ollama" | "model" | "index" | "file-history";
  status: "ok" | "warn" | "fail";
  detail: string;
}

async function redisCheck(config: IpuaroConfig, root: string): Promise<{ check: DoctorCheck; opened: OpenedProjectStore | null }> {
  try {
    const opened = await openProjectStore(config, root);
    await opened.redis.ping();
    return { check: { name: "redis", status: "ok", detail: opened.description }, opened };
  } catch (error) {
    // With its fix (start Redis, unset the URL …), as the other commands print it.
    const fix = error instanceof IpuaroError && error.suggestion ? ` — ${error.suggestion}` : "";
    return { check: { name: "redis", status: "fail", detail: `${errorMessage(error)}${fix}` }, opened: null };
  }
}

async function modelChecks(config: IpuaroConfig): Promise<DoctorCheck[]> {
  // An invalid OLLAMA_HOST was left out of the config (loader.ts): a problem to report, not to die of.
  const badHost = modelConfigError(config);
  if (badHost) {
    return [
      { name: "ollama", status: "fail", detail: badHost.message.replace(/\s*\n\s*/g, " ") },
      { name: "model", status: "fail", detail: "not checked: OLLAMA_HOST is invalid" },
    ];
  }
  const llm = new OllamaClient({ host: config.llm.host, model: config.llm.model, contextWindow: config.llm.contextWindow, temperature: config.llm.temperature });
  try {
    const check = await llm.checkModel();
    const ollama: DoctorCheck = { name: "ollama", status: "ok", detail: llm.host };
    if (check.status === "missing") {
      return [ollama, { name: "model", status: "fail", detail: `${check.model} is not installed. ${missingModelAdvice(check.model, check.installed)}` }];
    }
    // A window the user set beyond the model's is said; the shipped default cut to the model's size is only named as such.
    const notice = windowNotice(config, check);
    const window = `context window ${check.contextWindow} tokens${notice ? `; ${notice}` : check.notice ? " (the model's maximum)" : ""}`;
    // A window larger than the model's is lowered automatically: worth saying, not a problem.
    return [ollama, { name: "model", status: "ok", detail: `${check.model}, ${window}` }];
  } catch (error) {
    const fix = error instanceof IpuaroError && error.suggestion ? ` — ${error.suggestion}` : "";
    const silent = error instanceof IpuaroError && error.code === "NO_ANSWER";
    return [
      { name: "ollama", status: "fail", detail: `${errorMessage(error)}${fix}` },
      { name: "model", status: "fail", detail: `not checked: Ollama ${silent ? "did not answer" : "is unreachable"}` },
    ];
  }
}

async function indexCheck(opened: OpenedProjectStore | null): Promise<DoctorCheck> {
  if (!opened) return { name: "index", status: "fail", detail: "not checked: Redis is unreachable" };
  const project = opened.store.projectName;
  try {
    const [files, last, schema] = await Promise.all([opened.store.fileCount(), opened.store.getConfigField("last_indexed"), opened.store.getConfigField("schemaVersion")]);
    if (schema !== null && storedSchema(schema) === "newer") {
      const refused = newerSchemaError(project, schema);
      return { name: "index", status: "fail", detail: `${refused.message} — ${refused.suggestion}` };
    }
    if (!last) {
      // Files without a finished run: the first index was stopped part-way.
      const partly = files > 0 ? `: ${counted(files, "file")} stored by a first index that did not finish` : " yet";
      return { name: "index", status: "warn", detail: `project ${project} is not indexed${partly} (ipuaro index)` };
    }
    if (schema !== null && storedSchema(schema) === "older") {
      return { name: "index", status: "warn", detail: `project ${project} was indexed by an older ipuaro (schema ${schema}); the next index run rebuilds it` };
    }
    if (files === 0) {
      // Indexed, and nothing in the folder is a file ipuaro indexes (or project.ignorePatterns leave none).
      return { name: "index", status: "warn", detail: `project ${project} is indexed with 0 files (last indexed ${last}); check project.ignorePatterns if that is wrong` };
    }
    return { name: "index", status: "ok", detail: `${counted(files, "file")} of ${project}, last indexed ${last}` };
  } catch (error) {
    return { name: "index", status: "fail", detail: errorMessage(error) };
  }
}

function usageDetail(u: FileHistoryUsage): string {
  return `${formatBytes(u.blobBytes)} in ${u.blobs} backup${u.blobs === 1 ? "" : "s"}${u.shadowBytes ? `, ${formatBytes(u.shadowBytes)} of shadow-git snapshots` : ""} (${u.dir}; ipuaro sessions prune frees what no session needs)`;
}

/** The file history's size; a data folder that is not a folder (IPUARO_HOME naming a file) fails. */
async function fileHistoryCheck(): Promise<{ check: DoctorCheck; usage: FileHistoryUsage | null }> {
  const home = ipuaroHome();
  const problem = homeFolderProblem(home);
  if (problem) return { check: { name: "file-history", status: "fail", detail: problem }, usage: null };
  try {
    const usage = await fileHistoryUsage(home);
    return { check: { name: "file-history", status: "ok", detail: usageDetail(usage) }, usage };
  } catch (error) {
    return { check: { name: "file-history", status: "fail", detail: `cannot measure ${home}: ${errorMessage(error)}` }, usage: null };
  }
}

export function registerDoctorCommand(program: Command): void {
  program
    .command("doctor")
    .description("check Redis, Ollama, the model and the index, and show the space the file history uses")
    .argument("[path]", "project root", ".")
    .option("--json", 'print {"checks": [{name, status, detail}], "fileHistory": {…}}')
    .action(async (target: string, opts: { json?: boolean }) => {
      const root = resolveProjectRoot(target);
      const checks: DoctorCheck[] = [];
      // Each check is shown as it completes: one that waits (a silent server) does not hide those that passed.
      const report = (...done: DoctorCheck[]) => {
        checks.push(...done);
        if (!opts.json) for (const c of done) process.stdout.write(checkLine(c));
      };
      const finish = (usage: FileHistoryUsage | null) => {
        if (opts.json) process.stdout.write(`${JSON.stringify({ checks, fileHistory: usage })}\n`);
        process.exitCode = checks.some((c) => c.status === "fail") ? 1 : 0;
      };
      let config: IpuaroConfig;
      try {
        config = loadConfig({ projectRoot: root }).config;
        // The command lists are config too: a broken user whitelist makes every run_command unavailable.
        loadCommandLists();
        report({ name: "config", status: "ok", detail: "valid" });
      } catch (error) {
        report({ name: "config", status: "fail", detail: errorMessage(error) });
        return finish(null);
      }
      const { check, opened } = await redisCheck(config, root);
      report(check);
      try {
        report(...(await modelChecks(config)));
        report(await indexCheck(opened));
      } finally {
        await opened?.release();
      }
      const history = await fileHistoryCheck();
      report(history.check);
      finish(history.usage);
    });
}

function checkLine(c: DoctorCheck): string {
  const mark = { ok: "✓", warn: "!", fail: "✗" } as const;
  return `${mark[c.status]} ${c.name.padEnd(12)} ${c.detail}\n`;
}
