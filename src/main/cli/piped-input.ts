// What `ipuaro run` reads from stdin: the whole message without -p (`ipuaro run < question.md`), or text to
// go with the -p message (`git diff | ipuaro run -p "review this"`). Only a pipe or a file is read: a
// terminal, or /dev/null as a CI job's stdin, has nothing for it.
import fs from "node:fs";

/**
 * With -p the message is complete without stdin, and a program that starts ipuaro with a pipe it never
 * writes to nor closes (Node's spawn and exec do so by default) would otherwise wait forever. A pipe
 * that has given neither a byte nor its end this long after the start is left alone, and that is said.
 * Once text starts coming, it is read to its end however long the writer takes. A shell pipeline
 * (`tsc | ipuaro run -p …`) is waited for whatever its first output takes: see ancestorHoldsPipe.
 */
export const PIPED_INPUT_WAIT_MS = 3_000;

/**
 * Whether a process that started ipuaro (its parent, or one further up: `npx ipuaro` has npm between)
 * holds the writing end of stdin's pipe (Linux): what a program spawning it with a pipe does, and a shell
 * never does — it hands both ends to the pipeline's commands and closes its own. A pipe from a sibling
 * (`tsc`, a slow `git log`) has a writer that will finish, so it is waited for; one an ancestor holds may
 * never be written to. Unknown (not Linux, /proc unreadable): held.
 */
export function ancestorHoldsPipe(): boolean {
  try {
    const ours = fs.readlinkSync("/proc/self/fd/0");
    if (!ours.startsWith("pipe:")) return true;
    let pid = process.ppid;
    for (let depth = 0; depth < MAX_ANCESTORS && pid > 1; depth++) {
      if (writesPipe(pid, ours)) return true;
      pid = parentOf(pid);
    }
    return false;
  } catch {
    return true;
  }
}

/** How far up the chain of parents a writer is looked for (a shell, npm, a wrapper script …). */
const MAX_ANCESTORS = 6;

/** Whether process `pid` has `pipe` open for writing (both ends of a pipe read the same `pipe:[inode]`). */
function writesPipe(pid: number, pipe: string): boolean {
  const fds = `/proc/${pid}/fd`;
  return fs.readdirSync(fds).some((fd) => {
    try {
      if (fs.readlinkSync(`${fds}/${fd}`) !== pipe) return false;
      const flags = /^flags:\s+([0-7]+)$/m.exec(fs.readFileSync(`/proc/${pid}/fdinfo/${fd}`, "utf8"))?.[1];
      // O_WRONLY or O_RDWR in the access mode bits.
      return flags === undefined || (parseInt(flags, 8) & 3) !== 0;
    } catch {
      return false;
    }
  });
}

function parentOf(pid: number): number {
  const ppid = /^PPid:\s+(\d+)$/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return ppid ? Number(ppid) : 1;
}

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
  if (kind === "pipe" && ancestorHoldsPipe() && !(await somethingWithin(process.stdin, waitMs))) {
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
