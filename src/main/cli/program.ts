export async function runCli(argv: string[]): Promise<void> {
  void argv;
}
