// `git diff | ipuaro run -p "review this"`: text piped in beside -p goes with the message, after a blank
// line, as one message (so with the limits of any message); a pipe nobody writes to nor closes (a program
// that spawns ipuaro with Node's default stdio) does not make the run wait forever.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PIPED_INPUT_WAIT_MS } from "../../src/main/cli/piped-input.js";
import { runIpuaro, type CliResult } from "../helpers/cli.js";
import { FakeOllama } from "../helpers/fake-ollama.js";
import { buildAcmeShop } from "../helpers/indexed-project.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { removeDir } from "../helpers/temp-dir.js";

const ENTRY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "src", "main", "cli", "entry.ts");
const server = useRedisServer();
let root: string;
let fake: FakeOllama;

beforeAll(async () => {
  root = buildAcmeShop();
  fake = await new FakeOllama().start();
});
afterAll(async () => {
  await fake.close();
  removeDir(root);
});
afterEach(() => {
  fake.assertAllConsumed();
  fake.reset();
});

const env = (): NodeJS.ProcessEnv => ({
  IPUARO_REDIS_URL: server().url,
  OLLAMA_HOST: fake.url,
  XDG_CONFIG_HOME: path.join(root, ".xdg"),
  IPUARO_HOME: path.join(root, ".home"),
});

/**
 * `run` with stdin a pipe this side writes to on its own schedule: `feed` gets a writer and an `end`,
 * and may never call either (a parent that leaves the pipe open).
 */
function runFed(args: string[], feed: (write: (text: string) => void, end: () => void) => void): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", ENTRY, ...args], { env: { ...process.env, NO_COLOR: "1", ...env() }, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    // A write after ipuaro gave the pipe up fails with EPIPE: that is the point, not a test failure.
    child.stdin.on("error", () => {});
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    feed(
      (text) => child.stdin.write(text),
      () => child.stdin.end(),
    );
  });
}

describe("ipuaro run -p with text piped in", () => {
  it("appends it to the -p message after a blank line", async () => {
    fake.reply().text("Looks fine.");
    const r = await runIpuaro(["run", "-p", "review this", root], { env: env(), input: "\ndiff --git a/x b/x\n+added\n\n" });
    expect(r.code, r.stderr).toBe(0);
    expect(fake.chatRequests[0]!.messages.at(-1)).toMatchObject({ role: "user", content: "review this\n\ndiff --git a/x b/x\n+added" });
    // An empty pipe: the -p message alone.
    fake.reply().text("Hi.");
    const alone = await runIpuaro(["run", "-p", "hi", root], { env: env(), input: "" });
    expect(alone.code, alone.stderr).toBe(0);
    expect(fake.chatRequests[1]!.messages.at(-1)!.content).toBe("hi");
  });

  it("checks the two together against the size of any message: too large, nothing is sent", async () => {
    const pasted = Array.from({ length: 4000 }, (_, i) => `line ${i}: const value${i} = compute(${i}, "some text to make it long");`).join("\n");
    const big = await runIpuaro(["run", "-p", "review this", root], { env: env(), input: pasted });
    expect(big.code).toBe(1);
    expect(big.stderr).toMatch(/Your message is about [\d,]+ tokens/);
    expect(fake.chatRequests).toHaveLength(0);
  });

  it("waits for a writer that has started, however long it takes to finish", async () => {
    fake.reply().text("Reviewed.");
    const r = await runFed(["run", "-p", "review this", root], (write, end) => {
      setTimeout(() => write("first part\n"), 300);
      // The end comes well after the wait for a first byte would have run out.
      setTimeout(() => {
        write("second part\n");
        end();
      }, PIPED_INPUT_WAIT_MS + 1_000);
    });
    expect(r.code, r.stderr).toBe(0);
    expect(fake.chatRequests[0]!.messages.at(-1)!.content).toBe("review this\n\nfirst part\nsecond part");
  }, 60_000);

  it("waits for a shell pipeline's first output however long it takes (tsc | ipuaro run -p …)", async () => {
    fake.reply().text("Fixed.");
    const delay = PIPED_INPUT_WAIT_MS / 1000 + 1;
    const cmd = `sleep ${delay}; printf 'error TS2304: Cannot find name x\\n'`;
    const r = await new Promise<CliResult>((resolve, reject) => {
      const shell = spawn("sh", ["-c", `(${cmd}) | "${process.execPath}" --import tsx "${ENTRY}" run -p "fix these" "${root}"`], {
        env: { ...process.env, NO_COLOR: "1", ...env() },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      shell.stdout.on("data", (d) => (stdout += d));
      shell.stderr.on("data", (d) => (stderr += d));
      shell.on("error", reject);
      shell.on("close", (code) => resolve({ code, stdout, stderr }));
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("nothing came through the pipe");
    expect(fake.chatRequests[0]!.messages.at(-1)!.content).toBe("fix these\n\nerror TS2304: Cannot find name x");
  }, 60_000);

  it("goes on with the -p message alone, and says so, when the pipe stays silent and open", async () => {
    fake.reply().text("Hello.");
    const r = await runFed(["run", "-p", "hi", root], () => {});
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`nothing came through the pipe on stdin in ${PIPED_INPUT_WAIT_MS / 1000} s; sending the -p message alone`);
    expect(fake.chatRequests[0]!.messages.at(-1)!.content).toBe("hi");
  }, 60_000);
});
