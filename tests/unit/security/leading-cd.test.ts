// `cd FOLDER && …` is judged in FOLDER: what follows is read from where it will run (relative paths,
// package.json scripts, scripts the session wrote), and everything outside the folder counts as outside
// the project. Every other cd, pushd or popd asks, whitelisted or not.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { judgeCommand, type Verdict } from "../../../src/main/security/index.js";
import { commandEnvironment } from "../../../src/main/exec/process-group.js";
import { makePolicyFixture, type PolicyFixture } from "./policy-fixture.js";

let fixture: PolicyFixture;
beforeAll(() => {
  fixture = makePolicyFixture();
  fs.mkdirSync(path.join(fixture.root, "packages/web/src"), { recursive: true });
  fs.writeFileSync(path.join(fixture.root, "packages/web/src/main.ts"), "export {};\n");
  fs.mkdirSync(path.join(fixture.root, ".ipuaro"));
  // A folder link inside the project, and one in packages/web that leads out of it.
  fs.symlinkSync("packages/web", path.join(fixture.root, "web-link"));
  fs.symlinkSync(fixture.outside, path.join(fixture.root, "packages/web/out"));
  // A nested clone and a bare repository inside the project: git there reads their config.
  fs.mkdirSync(path.join(fixture.root, "vendor/lib/.git"), { recursive: true });
  fs.mkdirSync(path.join(fixture.root, "vendor/lib/src"), { recursive: true });
  fs.mkdirSync(path.join(fixture.root, "tools/mirror.git/objects"), { recursive: true });
  fs.writeFileSync(path.join(fixture.root, "tools/mirror.git/HEAD"), "ref: refs/heads/main\n");
});
afterAll(() => fixture.cleanup());

type Row = [command: string, verdict: Verdict, reasonIncludes?: string];

const TAKEN: Row[] = [
  ["cd packages/web && cat src/main.ts", "allow"],
  ["cd ./packages/web/ && eslint src", "allow"],
  ["cd 'packages/web' && prettier --check .", "allow"],
  ["cd packages && cd web && cat src/main.ts", "allow"],
  ["(cd packages/web && cat src/main.ts)", "allow"],
  ["( cd packages/web && cat out/x )", "ask", "goes through a symlink that leads outside"],
  ["cd web-link && cat src/main.ts", "allow"],
  [`cd ${"PROJECT"}/packages/web && cat src/main.ts`, "allow"],
  ["# in the package\ncd packages/web && git status && cat src/main.ts | head -3;", "allow"],
  // Read from the folder: `out` is a link out of the project there (at the root it names nothing).
  ["cd packages/web && cat out/secret", "ask", "goes through a symlink that leads outside"],
  // The folder is the project now: its parent is outside.
  ["cd packages/web && cat ../../package.json", "ask", "climbs out of the project root"],
  ["cd packages/web && echo hi > notes.txt", "ask", "writes `notes.txt` in the project"],
  ["cd packages/web && mv src/main.ts src/app.ts", "ask", "`mv` is not on the whitelist"],
  ["cd packages/web && rm -rf src", "deny", "matches blacklist entry `rm -rf`"],
  // The grammar hangs `2>&1 | head` and a heredoc's followers under redirect nodes; bash runs them after the cd.
  ["cd packages/web && cat src/main.ts 2>&1 | head -3", "allow"],
  ["cd packages/web && cat <<EOF && cat out/x\nbody\nEOF", "ask", "goes through a symlink that leads outside"],
];

const NOT_TAKEN: Row[] = [
  ["cd /tmp && ls", "ask", "changes the folder later commands run in"],
  ["cd vendor/lib && git status", "ask", "changes the folder"],
  ["cd vendor/lib/src && git status", "ask", "changes the folder"],
  ["cd tools/mirror.git && git log", "ask", "changes the folder"],
  ["cd .. && ls", "ask", "changes the folder"],
  ["cd link-out && cat secret", "ask", "changes the folder"],
  ["cd packages/missing && ls", "ask", "changes the folder"],
  ["cd src/a.ts && ls", "ask", "changes the folder"],
  ["cd .ipuaro && ls", "ask", "changes the folder"],
  ["cd packages/web/../.. && ls", "ask", "changes the folder"],
  ["cd $HOME && ls", "ask", "changes the folder"],
  ["cd ~ && ls", "ask", "changes the folder"],
  ["cd - && ls", "ask", "changes the folder"],
  ["ls && cd packages/web && cat src/main.ts", "ask", "changes the folder"],
  ["( (cd packages/web && cat src/main.ts) )", "allow"],
  ["cat $(cd packages/web && pwd)/x", "ask", "changes the folder"],
  ["pushd packages/web && ls", "ask", "changes the folder"],
  ["CDPATH=/ cd etc && ls", "deny", "sets `CDPATH`"],
  ["cd packages/web 2>/dev/null && cat src/main.ts", "ask", "changes the folder"],
  ["cd packages/web && cat <<EOF; cat out/x\nbody\nEOF", "ask"],
  // A second cd the chain cannot take is judged in the folder the first one reached.
  ["cd packages/web && cd /etc && cat passwd", "ask", "changes the folder"],
];

// Not one `&&` chain: what follows may run in the folder or, if the cd fails, where it started; it is
// judged in both and the stricter verdict stands.
const EITHER: Row[] = [
  ["cd packages/web; cat src/main.ts", "allow"],
  ["cd packages/web\ncat src/main.ts", "allow"],
  ["(cd packages/web; cat src/main.ts)", "allow"],
  ["cd packages/web && cat src/main.ts &", "allow"],
  ["cd packages/web && cat src/main.ts || echo failed", "allow"],
  // `out` leads out of the project from packages/web; `../x` climbs out from the root.
  ["cd packages/web; cat out/x", "ask", "goes through a symlink that leads outside"],
  ["cd packages/web && cat src/main.ts || cat out/x", "ask", "goes through a symlink that leads outside"],
  ["cd packages/web && cat src/main.ts\ncat out/x", "ask", "goes through a symlink that leads outside"],
  ["cd packages/web; cat ../web/src/main.ts", "ask", "climbs out of the project root"],
  ["cd packages/web || rm -rf src", "deny", "matches blacklist entry `rm -rf`"],
  ["cd packages/web | cat src/main.ts", "allow"],
];

const judge = (command: string, extra: string[] = []) => fixture.judge(command.replace("PROJECT", fixture.root), extra);

describe("a line that starts `cd FOLDER &&`", () => {
  it.each(TAKEN)("%s → %s", (command, verdict, reason) => {
    const result = judge(command);
    expect(result.verdict, result.reason).toBe(verdict);
    if (reason) expect(result.reason).toContain(reason);
    expect(result.commands[0]!.program).toBe("cd");
    expect(result.commands[0]!.verdict).toBe("allow");
    expect(result.reason).toMatch(/judged in `packages\/web`, where the line's `cd` goes/);
  });

  it("names the file a redirection writes from the project root", () => {
    const result = judge("cd packages/web && echo hi > notes.txt");
    expect(result.commands.flatMap((c) => c.writes)).toEqual(["packages/web/notes.txt"]);
  });

  it("reads the scripts of the folder's package.json: `lint` is the root's script, not packages/web's", () => {
    expect(judge("pnpm lint").commands.at(-1)!.program).toBe("pnpm");
    // In packages/web, where no script is called `lint`, pnpm runs a program of that name.
    const inWeb = judge("cd packages/web && pnpm lint");
    expect(inWeb.commands.at(-1)!.program).toBe("lint");
    expect(inWeb.verdict).toBe("ask");
  });

  it("a script this session wrote in the folder asks when run from it", () => {
    const policy = { ...fixture.policy, sessionTaint: { taintedFiles: [], writtenFiles: ["packages/web/gen.js"] } };
    fs.writeFileSync(path.join(fixture.root, "packages/web/gen.js"), "\n");
    const result = judgeCommand("cd packages/web && node gen.js", policy);
    expect(result.verdict).toBe("ask");
    expect(result.reason).toContain("runs `gen.js`, which this session wrote");
    // The same through the folder link.
    expect(judgeCommand("cd web-link && node gen.js", policy).reason).toContain("which this session wrote");
    // Without the session's write the same line runs.
    expect(judgeCommand("cd packages/web && node gen.js", fixture.policy).verdict).toBe("allow");
  });

  it("a changed config anywhere still makes the folder's tools ask", () => {
    const policy = { ...fixture.policy, sessionTaint: { taintedFiles: ["tsconfig.json"], writtenFiles: ["tsconfig.json"] } };
    expect(judgeCommand("cd packages/web && tsc --noEmit", policy).verdict).toBe("ask");
  });
});

describe("a line that starts with a cd but is not one && chain", () => {
  it.each(EITHER)("%j → %s", (command, verdict, reason) => {
    const result = judge(command);
    expect(result.verdict, result.reason).toBe(verdict);
    if (reason) expect(result.reason).toContain(reason);
    expect(result.commands[0]!.program).toBe("cd");
    expect(result.reason).toContain("judged in `packages/web`, where the `cd` goes, and in the project root, where it runs if the `cd` fails");
  });
});

// Subshells that start with a cd, among other commands: each is judged where its cd goes (the cd ends
// with the subshell), and the rest of the line where it runs.
const SUBSHELLS: Row[] = [
  ["(cd packages/web && cat src/main.ts) && (cd src && cat a.ts)", "allow"],
  ["(cd packages/web && cat src/main.ts) | head -3; echo done", "allow"],
  ["(cd packages/web && cat src/main.ts) && cat src/a.ts", "allow"],
  // After the subshell the line is back at the root: `out` names nothing there, but in packages/web it leads out.
  ["(cd packages/web && cat out/x) && cat src/a.ts", "ask", "goes through a symlink that leads outside"],
  ["(cd packages/web && cat src/main.ts) && cat ../x", "ask", "climbs out of the project root"],
  ["(cd packages/web && cat src/main.ts) > listing.txt", "ask", "writes `listing.txt` in the project"],
  ["(cd packages/web && cat src/main.ts) && rm -rf src", "deny", "matches blacklist entry `rm -rf`"],
  ["(cd /tmp && ls) && cat src/a.ts", "ask", "changes the folder"],
];

describe("subshells that start with a cd", () => {
  it.each(SUBSHELLS)("%j → %s", (command, verdict, reason) => {
    const result = judge(command);
    expect(result.verdict, result.reason).toBe(verdict);
    if (reason) expect(result.reason).toContain(reason);
    expect(result.commands.some((c) => c.program === "true")).toBe(false);
  });
});

// `git -C FOLDER …` runs git as if started in FOLDER: judged as `cd FOLDER && git …` would be, shown as
// written; a folder the cd would not take leaves `git -C` asking, as it always did.
const GIT_IN_FOLDER: Row[] = [
  ["git -C packages/web log --oneline -5", "allow", "judged in `packages/web`, where `git -C` runs it"],
  ["git -C packages -C web status && git -C . diff --stat", "allow"],
  ["git -C 'packages/web' diff | head -3", "allow"],
  ["git --no-pager -C packages/web log -3 && git -P -C packages/web show --stat", "allow"],
  ["git -C packages/web --no-pager -C src push", "ask", "`git push` sends commits out"],
  // Other global options stay with the command as written: `-c` is denied there as anywhere.
  ["git -c core.pager=x -C packages/web log", "deny", "`git -c` sets configuration"],
  ["git -C packages/web -c core.pager=x log", "deny", "`git -c` sets configuration"],
  ["git -C packages/web push", "ask", "`git push` sends commits out"],
  ["git -C packages/web reset --hard", "deny", "matches blacklist entry `git reset --hard`"],
  // Paths are read from the folder: `out` leads out of the project there, `..` climbs out of it.
  ["git -C packages/web diff --output=out/x", "ask", "goes through a symlink that leads outside"],
  ["git -C packages/web diff --output=../patch", "ask", "climbs out of the project root"],
  // A redirection is the shell's: from the root, `../x` is outside whatever folder git runs in.
  ["git -C packages/web/src diff > ../x", "deny", "writes to a file outside the project"],
  // A `$(…)` runs where the shell is: the command is judged as written (and -C asks).
  ["git -C packages/web log $(cat ../x)", "ask", "points git at another repository"],
  ["git -C vendor/lib status", "ask", "points git at another repository"],
  ["git -C tools/mirror.git log", "ask", "points git at another repository"],
  ["git -C /tmp status", "ask", "points git at another repository"],
  ["git -C .git status", "ask", "points git at another repository"],
  ["git -C packages -C .. status", "ask", "points git at another repository"],
  ["git -C $HOME status", "ask", "points git at another repository"],
  // An assignment before git is not taken apart from it: judged as written.
  ["LC_ALL=C git -C packages/web status", "ask", "points git at another repository"],
];

describe("git -C FOLDER", () => {
  it.each(GIT_IN_FOLDER)("%j → %s", (command, verdict, reason) => {
    const result = judge(command);
    expect(result.verdict, result.reason).toBe(verdict);
    if (reason) expect(result.reason).toContain(reason);
    expect(result.commands.some((c) => c.program === "true" || c.program === "cd")).toBe(false);
  });

  it("shows the git command as written and says which folder it was judged in", () => {
    const result = judge("git -C packages/web log | head -3");
    expect(result.commands.map((c) => [c.text, c.verdict])).toEqual([
      ["git -C packages/web log", "allow"],
      ["head -3", "allow"],
    ]);
    expect(result.reason).not.toContain("`true`");
  });

  it("lists the commands of a line with folder spans in the order they are written, with the user's own `true`", () => {
    const result = judge("ls && git -C packages/web log || true; (cd packages/web && cat src/main.ts) | head -3; echo done");
    expect(result.verdict).toBe("allow");
    expect(result.commands.map((c) => c.text)).toEqual(["ls", "git -C packages/web log", "true", "cd packages/web", "cat src/main.ts", "head -3", "echo done"]);
    expect(result.commands.some((c) => c.args.some((a) => a.startsWith("ipuaro-")))).toBe(false);
  });
});

describe("any other change of folder", () => {
  it.each(NOT_TAKEN)("%s → %s", (command, verdict, reason) => {
    const result = judge(command);
    expect(result.verdict, result.reason).toBe(verdict);
    if (reason) expect(result.reason).toContain(reason);
  });

  it("asks even when the user whitelisted cd", () => {
    const result = judge("ls; cd packages/web; cat src/main.ts", ["cd", "pushd"]);
    expect(result.verdict).toBe("ask");
    expect(result.reason).toContain("changes the folder later commands run in");
  });
});

describe("the commands' environment", () => {
  it("has no CDPATH, which would send `cd packages/web` to a folder of that name elsewhere", () => {
    expect(commandEnvironment({ CDPATH: "/", PATH: "/usr/bin" })).not.toHaveProperty("CDPATH");
  });
});
