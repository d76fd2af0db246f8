// Minimal line prompts for headless commands on a TTY (the TUI has its own dialogs).
import readline from "node:readline/promises";
import { Interrupted } from "./interrupts.js";

/** Ctrl+C at a question rejects with Interrupted, as the same keypress does anywhere else in a command. */
export async function askLine(question: string): Promise<string> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(question)).trim();
  } catch (err) {
    // readline reads Ctrl+C itself (the terminal is in raw mode) and aborts the question.
    if ((err as NodeJS.ErrnoException | null)?.code === "ABORT_ERR") {
      process.stderr.write("\n");
      throw new Interrupted();
    }
    throw err;
  } finally {
    rl.close();
  }
}

/** Asks until one of the keys is typed; keys are single letters, case-insensitive. */
export async function askChoice<K extends string>(question: string, choices: Record<K, string>): Promise<K> {
  const keys = Object.keys(choices) as K[];
  const menu = keys.map((k) => `[${k.toUpperCase()}] ${choices[k]}`).join("  ");
  for (;;) {
    const answer = (await askLine(`${question}\n${menu} > `)).toLowerCase();
    const hit = keys.find((k) => k.toLowerCase() === answer);
    if (hit) return hit;
  }
}
