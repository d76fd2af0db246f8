// What `ipuaro run` reads from stdin: the whole message without -p (`ipuaro run < question.md`), or text to
// go with the -p message (`git diff | ipuaro run -p "review this"`). Only a pipe or a file is read: a
// terminal, or /dev/null as a CI job's stdin, has nothing for it.
import fs from "node:fs";

/**
 * With -p the message is complete without stdin, and a program that starts ipuaro with a pipe it never
 * writes to nor closes (Node's spawn and exec do so by default) would otherwise wait forever. A pipe
 * that has given neither a byte nor its end this long after the start is left alone, and that is said.
 * Once text starts coming, it is read to its end however long the writer takes.
 */
export const PIPED_INPUT_WAIT_MS = 3_000;

type StdinKind = "pipe" | "file" | "none";

function stdinKind(): StdinKind {
  try {
    const st = fs.fstatSync(0);
    if (st.isFile()) return "file";
    return st.isFIFO() || st.isSocket() ? "pipe" : "none";
  } catch {
    return "none";
  }
}

async function readToEnd(stdin: NodeJS.ReadStream): Promise<string> {
  let text = "";
  for await (const chunk of stdin.setEncoding("utf8")) text += chunk as string;
  return text;
}

/** Resolves true once stdin has data or its end, false after `ms` of neither. */
function somethingWithin(stdin: NodeJS.ReadStream, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const settle = (got: boolean) => {
      clearTimeout(timer);
      stdin.off("readable", onReadable);
      stdin.off("error", onReadable);
      resolve(got);
    };
    // 'readable' comes for the first data and for the end of an empty pipe alike.
    const onReadable = () => settle(true);
    const timer = setTimeout(() => settle(false), ms);
    stdin.on("readable", onReadable);
    stdin.on("error", onReadable);
  });
}

/** The whole message, without -p: waits for the pipe's end, as `cat` would. Empty: undefined. */
export async function messageFromStdin(): Promise<string | undefined> {
  if (stdinKind() === "none") return undefined;
  return (await readToEnd(process.stdin)).trim() || undefined;
}

/**
 * Text piped in beside -p, to append to the message; undefined when there is none, or when a pipe stayed
 * silent for PIPED_INPUT_WAIT_MS (then `say` tells why it was left out).
 */
export async function additionFromStdin(say: (line: string) => void, waitMs = PIPED_INPUT_WAIT_MS): Promise<string | undefined> {
  const kind = stdinKind();
  if (kind === "none") return undefined;
  if (kind === "pipe" && !(await somethingWithin(process.stdin, waitMs))) {
    // Closing our end tells a writer that comes late that nobody reads (EPIPE), rather than blocking it.
    process.stdin.destroy();
    say(
      `ipuaro: nothing came through the pipe on stdin in ${waitMs / 1000} s; sending the -p message alone ` +
        "(start ipuaro with stdin closed or from /dev/null when nothing is piped in; save slow output to a file and use < FILE)",
    );
    return undefined;
  }
  // Blank lines around it carry nothing; the first line's own indentation (a diff, a stack trace) is kept.
  const text = (await readToEnd(process.stdin)).replace(/^(?:[ \t]*\r?\n)+/, "").trimEnd();
  return text || undefined;
}
