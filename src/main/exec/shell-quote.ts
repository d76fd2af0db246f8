// Quoting for command lines ipuaro builds itself (run_tests, the commit shown for confirmation): each
// value becomes exactly one word for bash, whatever characters it holds.

const PLAIN_WORD = /^[A-Za-z0-9_\/.,:=@%+-]+$/;

/** The value as one bash word: unchanged when it is plain, single-quoted otherwise. */
export function shellQuote(value: string): string {
  if (value !== "" && PLAIN_WORD.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function shellJoin(argv: readonly string[]): string {
  return argv.map(shellQuote).join(" ");
}
