import { describe, expect, it } from "vitest";
import { MAX_SIMPLE_COMMANDS, parseShell, type SimpleCommand } from "../../src/main/security/index.js";

const values = (command: SimpleCommand): string[] => command.words.map((word) => word.value);

describe("parseShell", () => {
  it("splits a line into simple commands with words, prefix assignments and redirections", () => {
    const { commands, issues } = parseShell('FOO=1 \\rm -rf "a b" $x >out 2>&1 | cat');
    expect(issues).toEqual([]);
    expect(commands).toHaveLength(2);
    const [rm, cat] = commands;
    expect(values(rm!)).toEqual(["rm", "-rf", "a b", "$x"]);
    expect(rm!.words.map((word) => word.dynamic)).toEqual([false, false, false, true]);
    expect(rm!.assignments).toMatchObject([{ name: "FOO", via: "prefix", value: { value: "1" } }]);
    expect(rm!.redirects).toMatchObject([
      { operator: ">", fd: null, kind: "write", target: { value: "out" } },
      { operator: ">&", fd: 2, kind: "duplicate", target: { value: "1" } },
    ]);
    expect(rm!.context).toBe("pipeline");
    expect(values(cat!)).toEqual(["cat"]);
  });

  it("removes quotes and resolves escapes the way bash does", () => {
    const [command] = parseShell(`echo 'a b' "c\\"d" e\\ f $'g\\x41\\n' "\\$HOME" r'm' a\\\nb`).commands;
    expect(values(command!)).toEqual(["echo", "a b", 'c"d', "e f", "gA\n", "$HOME", "rm", "ab"]);
    expect(command!.words.every((word) => !word.dynamic)).toBe(true);
  });

  it("marks globs, braces, tilde and substitutions", () => {
    // `pwd` runs first (it is substituted into ls's arguments), so ls is the last command.
    const command = parseShell("ls *.ts src/*.ts -{a,b} ~/x $(pwd) '*'").commands.at(-1);
    const flags = command!.words.slice(1).map((word) => ({ value: word.value, dynamic: word.dynamic, glob: word.glob }));
    expect(flags).toEqual([
      { value: "*.ts", dynamic: false, glob: true },
      { value: "src/*.ts", dynamic: false, glob: true },
      { value: "-{a,b}", dynamic: true, glob: false },
      { value: "~/x", dynamic: true, glob: false },
      { value: "$(pwd)", dynamic: true, glob: false },
      { value: "*", dynamic: false, glob: false },
    ]);
    expect(command!.words[2]!.literalPrefix).toBe("src/");
  });

  it("records where each command sits", () => {
    const source = "echo $(ls) `pwd` <(git status); (npm test); bash -c 'tsc'; eval 'node x'; find . -exec wc {} +; cat <<EOF\n$(date)\nEOF";
    const contexts = parseShell(source).commands.map((command) => [command.words[0]?.value, command.context]);
    expect(contexts).toEqual([
      ["ls", "command-substitution"],
      ["pwd", "backticks"],
      ["git", "process-substitution"],
      ["echo", "top-level"],
      ["npm", "subshell"],
      ["bash", "top-level"],
      ["tsc", "shell-payload"],
      ["eval", "top-level"],
      ["node", "eval"],
      ["find", "top-level"],
      ["wc", "exec-payload"],
      ["date", "command-substitution"],
      ["cat", "top-level"],
    ]);
    expect(parseShell(source).commands[11]!.nesting).toEqual(["heredoc", "command-substitution"]);
  });

  it("peels wrappers and keeps every level for the blacklist", () => {
    const [command] = parseShell("env -i NODE_ENV=test timeout -s KILL 5 nice -n 3 npx vitest@2 run").commands;
    const invocation = command!.invocation;
    expect(invocation.layers.map((layer) => layer.name)).toEqual(["env", "timeout", "nice", "npx"]);
    expect(invocation.argv.map((word) => word.value)).toEqual(["vitest", "run"]);
    expect(invocation.envAssignments).toMatchObject([{ name: "NODE_ENV", via: "env" }]);
    expect(invocation.stages).toHaveLength(5);
  });

  it("treats xargs and find -exec arguments as open-ended", () => {
    const [xargs] = parseShell("xargs -n1 git add").commands;
    expect(xargs!.invocation.openEndedArgs).toBe(true);
    const payload = parseShell("find . -exec git add {} \\;").commands[1];
    expect(payload!.invocation.openEndedArgs).toBe(true);
    expect(payload!.words.map((word) => word.dynamic)).toEqual([false, false, true]);
  });

  it("reports what it cannot judge instead of guessing", () => {
    expect(parseShell("ls &&").issues).toMatchObject([{ kind: "unjudgeable", reason: expect.stringContaining("could not be parsed") }]);
    expect(parseShell("f() { ls; }").issues).toMatchObject([{ kind: "unjudgeable", reason: expect.stringContaining("function `f`") }]);
    expect(parseShell("echo $((1+2))").issues).toMatchObject([{ kind: "unjudgeable", reason: expect.stringContaining("arithmetic") }]);
    expect(parseShell('bash -c "$X"').issues).toMatchObject([{ kind: "unjudgeable", reason: expect.stringContaining("`bash -c`") }]);
    expect(parseShell("bash -c $'ls\\x1b'").issues).toMatchObject([{ kind: "unjudgeable", reason: expect.stringContaining("\\x1b") }]);
  });

  it("stops at the command cap and says so", () => {
    const { commands, issues } = parseShell(Array.from({ length: MAX_SIMPLE_COMMANDS + 5 }, () => "ls").join(";"));
    expect(commands).toHaveLength(MAX_SIMPLE_COMMANDS);
    expect(issues).toEqual([{ kind: "cap", reason: `more than ${MAX_SIMPLE_COMMANDS} simple commands` }]);
  });

  it("keeps redirections on compound statements and standalone assignments", () => {
    const { commands } = parseShell("{ ls; } > out.txt; X=1");
    expect(commands.map((command) => [values(command), command.redirects.map((r) => r.kind), command.assignments.map((a) => a.via)])).toEqual([
      [["ls"], [], []],
      [[], ["write"], []],
      [[], [], ["statement"]],
    ]);
  });
});
