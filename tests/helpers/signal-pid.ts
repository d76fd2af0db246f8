// process.kill for a pid a test read from a file, a server or a child's output. A pid that came out
// as 0 (an empty file, a line not printed yet) would signal the test runner's own process group —
// vitest, npm and the CI run with them, killed without a word — and -1 every process there is.

export function signalPid(pid: number, signal: NodeJS.Signals): void {
  if (!Number.isInteger(pid) || pid <= 1) throw new Error(`refusing to send ${signal} to pid ${pid}: not a child's pid`);
  process.kill(pid, signal);
}
