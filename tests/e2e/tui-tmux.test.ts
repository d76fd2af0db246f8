// Runs tests/e2e/tui.sh (the TUI in a real tmux terminal) against a real Redis and the fake Ollama on
// the acme-shop fixture. Skipped where tmux is not installed.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeOllama } from "../helpers/fake-ollama.js";
import { buildAcmeShop } from "../helpers/indexed-project.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { removeDir } from "../helpers/temp-dir.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const SCRIPT = path.join(REPO, "tests", "e2e", "tui.sh");

function hasTmux(): boolean {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

function ipuaroCommand(): string {
  return "node --import tsx src/main/cli/entry.ts";
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: REPO, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`tui.sh timed out\n${out}`));
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe.skipIf(!hasTmux())("the TUI in tmux (tests/e2e/tui.sh)", () => {
  const server = useRedisServer();
  let root: string;
  let fake: FakeOllama;

  beforeAll(async () => {
    root = buildAcmeShop();
    fake = await new FakeOllama().start();
  });
  afterAll(async () => {
    await fake?.close();
    removeDir(root);
  });

  it("asks in Russian, accepts the proposed edit with Y, undoes it with Ctrl+Z, exits with Ctrl+D", async () => {
    fake.reply().text("Посмотрю функцию.\n<tool_call name=\"get_lines\"><path>packages/core/src/utils/strings.ts</path><start>2</start><end>4</end></tool_call>");
    const edit = {
      name: "edit_lines",
      arguments: {
        path: "packages/core/src/utils/strings.ts",
        start: 3,
        end: 4,
        content: "  return input.trim()\n    .toLowerCase()",
        description: "trim the input first",
      },
    };
    fake.reply().text(`<tool_call>${JSON.stringify(edit)}</tool_call>`);
    fake.reply().text("Готово: slugify теперь обрезает пробелы.");
    const env = {
      IPUARO_CMD: ipuaroCommand(),
      IPUARO_REDIS_URL: server().url,
      OLLAMA_HOST: fake.url,
      XDG_CONFIG_HOME: path.join(root, ".xdg"),
      IPUARO_HOME: path.join(root, ".home"),
      TUI_WAIT_SECONDS: "40",
      ...(process.env.TUI_SNAPSHOT_DIR ? { TUI_SNAPSHOT_DIR: process.env.TUI_SNAPSHOT_DIR } : {}),
    };
    const r = await run("bash", [SCRIPT, root], env, 150_000);
    expect(r.out).toContain("tui.sh: ok");
    expect(r.code).toBe(0);
    expect(fake.chatRequests).toHaveLength(3);
    expect(fake.violations).toEqual([]);
    // The edit's result went back to the model; the file is as it was after the undo.
    expect(fake.chatRequests[2]!.messages.at(-1)!.content).toContain('<tool_result name="edit_lines"');
    expect(fs.readFileSync(path.join(root, "packages/core/src/utils/strings.ts"), "utf8")).toContain("  return input\n");
  }, 180_000);
});
