// Minimal line prompts for headless commands on a TTY (the TUI has its own dialogs).
import readline from "node:readline/promises";

export async function askLine(question: string): Promise<string> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(question)).trim();
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
