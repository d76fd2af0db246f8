// Text handling without a terminal: cell widths, grapheme steps, wrapping with styles, the line editor,
// the highlighter, the diff's inline marks, completion, the input stream rewrites.
import { createTwoFilesPatch } from "diff";
import { describe, expect, it } from "vitest";
import { complete, pathMatches, tokenBefore } from "../../src/ui/input/completion.js";
import { InputHistory } from "../../src/ui/input/input-history.js";
import { KeyDecoder } from "../../src/ui/input/keymap.js";
import { LineEditor } from "../../src/ui/input/line-editor.js";
import { TerminalInput } from "../../src/ui/input/terminal-input.js";
import { diffSummary, markInlineChanges, parseUnifiedDiff, renderDiff } from "../../src/ui/dialogs/diff-render.js";
import { highlightLines, languageOf } from "../../src/ui/text/highlight.js";
import { renderMarkdown } from "../../src/ui/text/markdown-render.js";
import { lineText, lineWidth, span, truncateStyled, wrapStyled } from "../../src/ui/text/styled-text.js";
import { codePointWidth, expandTabs, graphemeWidth, graphemes, stringWidth, truncateToWidth, wrapText } from "../../src/ui/text/text-width.js";
import { EventEmitter } from "node:events";

describe("cell widths", () => {
  it.each([
    ["abc", 3],
    ["привет", 6],
    ["世界", 4],
    ["😀", 2],
    ["✅", 2],
    ["❤", 1],
    ["e\u0301", 1],
    ["🇷🇺", 2],
    ["ｱ", 1],
    ["Ａ", 2],
  ])("%s is %i cells", (text, width) => {
    expect(stringWidth(text)).toBe(width);
  });

  // Measured in tmux 3.3a (cursor position after printing it), except that an emoji sequence reserves at
  // least 2 cells, what tmux 3.4+ and grapheme-aware terminals draw it in (🏳️‍🌈 and ❤️‍🔥 are 1 in 3.3a).
  it.each([
    ["👨\u200d👩\u200d👧", 2],
    ["🧑\u200d💻", 2],
    ["🏳\ufe0f\u200d🌈", 2],
    ["❤\ufe0f\u200d🔥", 2],
    ["👍🏽", 4],
    ["a\u200db", 2],
    ["中\u200d文", 2],
    ["👨\u200d\u200d👩", 2],
    ["👨\u200d👩\u200d👧👨", 4],
  ])("a character joined by a ZWJ is drawn in the cell before it, as tmux does: %s is %i cells", (text, width) => {
    expect(stringWidth(text)).toBe(width);
  });

  it("counts a ZWJ at the end of the grapheme before (where Intl.Segmenter puts it) when measuring the next", () => {
    expect(graphemes("中\u200d文")).toEqual(["中\u200d", "文"]);
    expect(graphemeWidth("文", "中\u200d")).toBe(0);
    expect(graphemeWidth("文", "中")).toBe(2);
    expect(graphemeWidth("b", "a\u200d")).toBe(1);
    expect(wrapText("ab👨\u200d👩\u200d👧cd", 4)).toEqual(["ab👨\u200d👩\u200d👧", "cd"]);
    expect(truncateToWidth("中\u200d文世界", 4)).toBe("中\u200d文…");
    expect(lineWidth([span("中\u200d"), span("文")])).toBe(2);
  });

  it("treats combining marks, ZWJ and variation selectors as zero width", () => {
    expect(codePointWidth(0x301)).toBe(0);
    expect(codePointWidth(0x200d)).toBe(0);
    expect(codePointWidth(0xfe0f)).toBe(0);
    expect(codePointWidth(0x1f600)).toBe(2);
  });

  it("steps by grapheme: an emoji with a skin tone, a flag, a letter with an accent", () => {
    expect(graphemes("a👍🏽🇷🇺é")).toEqual(["a", "👍🏽", "🇷🇺", "é"]);
  });

  it("segments a long text in pieces exactly as Intl.Segmenter does in one", () => {
    // Pieces are cut only where a cluster surely starts: never inside a flag run, a ZWJ family, a
    // letter with combining marks, CRLF or Hangul jamo, however long the run.
    const parts = ["abc ", "e\u0301", "👨\u200d👩\u200d👧", "🇷🇺🇺🇦🇯🇵", "\r\n", "привет", "世界你好", "\u1100\u1161\u11a8", "z\u0301\u0302\u0303", "x", "\n"];
    let text = "";
    for (let i = 0; text.length < 12_000; i++) text += parts[(i * 7) % parts.length]!;
    text += "🇷🇺".repeat(3000) + "中".repeat(5000) + "e\u0301".repeat(3000);
    const whole = Array.from(new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text), (s) => s.segment);
    expect(graphemes(text)).toEqual(whole);
  });

  it("wraps by words and breaks long words, never splitting a wide character", () => {
    expect(wrapText("привет мир и ещё", 8)).toEqual(["привет ", "мир и ", "ещё"]);
    expect(wrapText("世界世界世", 5)).toEqual(["世界", "世界", "世"]);
    expect(wrapText("averyveryverylongword", 8)).toEqual(["averyver", "yverylon", "gword"]);
    expect(truncateToWidth("привет мир", 6)).toBe("приве…");
  });

  it("draws tabs to their stops and measures control characters as the one cell they are drawn in", () => {
    expect(expandTabs("\tx\ty")).toBe("    x   y");
    expect(expandTabs("ab\tc", 1)).toBe("ab c");
    const words = Array.from({ length: 12 }, (_, i) => `word${String(i).padStart(2, "0")}`).join(" ");
    const rows = wrapStyled([span("\t\t", "muted"), span(`return ${words} TAILMARK`, "agent")], 30, [span("  ")]);
    expect(rows.every((r) => lineWidth(r) <= 30)).toBe(true);
    // Nothing lost at the row edges: the rows put back together are the text with its tabs expanded.
    expect(rows.map(lineText).join(" ").replace(/\s+/g, " ").trim()).toBe(`return ${words} TAILMARK`);
    expect(lineText(rows[0]!).startsWith("        return")).toBe(true);
    expect(stringWidth("a\u0007b")).toBe(3);
    expect(codePointWidth(0x9b)).toBe(1);
  });

  it("wraps styled spans keeping their styles, with a hanging indent", () => {
    const rows = wrapStyled([{ text: "one two ", role: "user" }, { text: "three four", role: "agent" }], 10, [{ text: "  " }]);
    expect(rows.map(lineText)).toEqual(["one two ", "  three ", "  four"]);
    expect(rows[1]![1]).toEqual({ text: "three ", role: "agent" });
    expect(rows.every((r) => lineWidth(r) <= 10)).toBe(true);
  });
});

describe("line editor", () => {
  it("edits Cyrillic by character and emoji by grapheme", () => {
    const e = new LineEditor();
    e.insert("привет мир");
    e.left();
    e.left();
    e.left();
    e.backspace();
    e.insert("Ж");
    expect(e.text).toBe("приветЖмир");
    e.set("a👍🏽b");
    e.left();
    e.backspace();
    expect(e.text).toBe("ab");
  });

  it("jumps and deletes by Unicode words", () => {
    const e = new LineEditor();
    e.insert("найди где-то AuthManager");
    e.wordLeft();
    expect(e.text.slice(e.cursor)).toBe("AuthManager");
    e.wordLeft();
    expect(e.text.slice(e.cursor)).toBe("то AuthManager");
    e.deleteWordBefore();
    expect(e.text).toBe("найди то AuthManager");
    e.home();
    e.wordRight();
    expect(e.cursor).toBe("найди".length);
    // An emoji is a word of its own.
    e.set("abc 👋");
    e.deleteWordBefore();
    expect(e.text).toBe("abc ");
    e.set("abc 👍🏽 ");
    e.deleteWordBefore();
    expect(e.text).toBe("abc ");
  });

  it("moves between lines at the same column and lays rows out with the cursor", () => {
    const e = new LineEditor();
    e.insert("первая строка\nвторая");
    expect(e.lineUp()).toBe(true);
    expect(e.text.slice(0, e.cursor)).toBe("первая");
    expect(e.lineUp()).toBe(false);
    const l = e.layout(10, 2);
    // Word wrap: "строка" goes to the next row whole.
    expect(l.rows).toEqual(["первая ", "строка", "вторая"]);
    expect(l).toMatchObject({ cursorRow: 0, cursorCol: 8 });
    e.set("12345678");
    expect(e.layout(10, 2)).toMatchObject({ rows: ["12345678", ""], cursorRow: 1, cursorCol: 2 });
  });

  it("wraps at spaces, breaks a word longer than a row by grapheme, and keeps the cursor on its character", () => {
    const e = new LineEditor();
    e.set("input box for sure");
    expect(e.layout(12, 2).rows).toEqual(["input box ", "for sure"]);
    // The cursor inside the carried word: "f|or".
    e.set("input box for sure", "input box f".length);
    expect(e.layout(12, 2)).toMatchObject({ cursorRow: 1, cursorCol: 3 });
    // At the very end.
    e.set("input box for sure");
    expect(e.layout(12, 2)).toMatchObject({ cursorRow: 1, cursorCol: 10 });
    // No space to break at: by grapheme, wide characters counted.
    e.set("антидизестаблишментарианство");
    expect(e.layout(12, 2).rows).toEqual(["антидизест", "аблишмента", "рианство"]);
    // A carried word that outgrows its row then breaks there; a full last row puts the cursor below it.
    e.set("世界 你好世界你好");
    expect(e.layout(10, 2).rows).toEqual(["世界 ", "你好世界", "你好"]);
    e.set("世界 你好世界");
    expect(e.layout(10, 2)).toMatchObject({ rows: ["世界 ", "你好世界", ""], cursorRow: 2, cursorCol: 2 });
  });

  it("steps, deletes and jumps words by grapheme deep inside a long paste, as in a short prompt", () => {
    const e = new LineEditor();
    const before = "лог ".repeat(20_000);
    const word = "ж".repeat(500);
    e.set(`${before}x👨\u200d👩\u200d👧e\u0301 ${word} tail`, before.length + "x👨\u200d👩\u200d👧e\u0301".length);
    e.left();
    expect(e.text.slice(e.cursor, e.cursor + 2)).toBe("e\u0301");
    e.left();
    expect(e.text.slice(e.cursor).startsWith("👨\u200d👩\u200d👧")).toBe(true);
    e.right();
    e.backspace();
    expect(e.text.slice(before.length, before.length + 4)).toBe("xe\u0301 ");
    // A word longer than the part looked at first still moves as one.
    e.set(e.text, e.text.length - " tail".length);
    e.wordLeft();
    expect(e.cursor).toBe(e.text.length - ` tail`.length - word.length);
    e.wordRight();
    expect(e.cursor).toBe(e.text.length - " tail".length);
    e.deleteWordBefore();
    expect(e.text.endsWith("e\u0301  tail")).toBe(true);
    // A cursor set inside a cluster goes to its start.
    e.set("ab👨\u200d👩\u200d👧cd", 4);
    expect(e.cursor).toBe(2);
  });

  it("kills to the end and the start of the line", () => {
    const e = new LineEditor();
    e.insert("abc def");
    e.left();
    e.left();
    e.killToLineEnd();
    expect(e.text).toBe("abc d");
    e.killToLineStart();
    expect(e.text).toBe("");
  });

  it("keeps a draft while walking the history", () => {
    const h = new InputHistory(["a", "b"]);
    expect(h.previous("draft")).toBe("b");
    expect(h.previous("b")).toBe("a");
    expect(h.previous("a")).toBeNull();
    expect(h.next()).toBe("b");
    expect(h.next()).toBe("draft");
    expect(h.next()).toBeNull();
  });

  it("keeps what was typed over an entry while walking on and back, until a message is sent", () => {
    const h = new InputHistory(["a", "b"]);
    expect(h.previous("draft-one")).toBe("b");
    // The recalled "b" cleared and "draft-two" typed over it.
    expect(h.previous("draft-two")).toBe("a");
    expect(h.next("a")).toBe("draft-two");
    expect(h.next("draft-two")).toBe("draft-one");
    h.push("sent");
    expect(h.previous("")).toBe("sent");
    expect(h.previous("sent")).toBe("b");
  });
});

describe("keys", () => {
  it("joins surrogate halves into one character and maps Enter, Ctrl+J and the control keys", () => {
    const d = new KeyDecoder();
    expect(d.decode("\ud83d", undefined)).toBeNull();
    expect(d.decode("\ude00", undefined)).toEqual({ type: "insert", text: "😀" });
    expect(d.decode("\r", { name: "enter", sequence: "\r" })).toBeNull();
    expect(d.decode("\r", { name: "return", sequence: "\r" })).toEqual({ type: "submit" });
    expect(d.decode("\n", { name: "linefeed", sequence: "\n" })).toEqual({ type: "newline" });
    expect(d.decode("\x03", { name: "c", ctrl: true })).toEqual({ type: "interrupt" });
    expect(d.decode("\x1a", { name: "z", ctrl: true })).toEqual({ type: "undo" });
    expect(d.decode(undefined, { name: "left", ctrl: true })).toEqual({ type: "wordLeft" });
    expect(d.decode("ж", { name: undefined })).toEqual({ type: "insert", text: "ж" });
    expect(d.decode("\t", { name: "tab" }, true)).toEqual({ type: "insert", text: "\t" });
  });

  it("rewrites Alt/Shift+Enter to a new line and passes bracketed paste as text", () => {
    const source = Object.assign(new EventEmitter(), { resume() {}, pause() {} });
    const input = new TerminalInput(source);
    const seen: Array<[string, boolean]> = [];
    input.on("data", (b: Buffer) => seen.push([b.toString("utf8"), input.pasting]));
    source.emit("data", Buffer.from("a\x1b\rb\x1b[13;2uc"));
    source.emit("data", Buffer.from("x\x1b[200~l1\r\nl2\x1b[20"));
    source.emit("data", Buffer.from("1~y"));
    expect(seen).toEqual([
      ["a\nb\nc", false],
      ["x", false],
      ["l1\nl2", true],
      ["y", false],
    ]);
  });

  it("keeps a character whose bytes a paste split between two reads", () => {
    const source = Object.assign(new EventEmitter(), { resume() {}, pause() {} });
    const input = new TerminalInput(source);
    const seen: string[] = [];
    input.on("data", (b: Buffer) => seen.push(b.toString("utf8")));
    const bytes = Buffer.from("\x1b[200~text — строка\x1b[201~");
    const cut = bytes.indexOf(Buffer.from("—")) + 1; // inside the dash's three bytes
    source.emit("data", bytes.subarray(0, cut));
    source.emit("data", bytes.subarray(cut));
    expect(seen.join("")).toBe("text — строка");
    expect(seen.join("")).not.toContain("\ufffd");
  });
});

describe("highlighting", () => {
  it("colours keywords, strings, numbers, comments, types and calls, across lines", () => {
    const rows = highlightLines(["const a: Money = parse(`x ${n + 1}`); /* start", "still comment */ return 0x1f;"], "ts");
    const roleOf = (row: number, text: string) => rows[row]!.find((s) => s.text.includes(text))?.role;
    expect(roleOf(0, "const")).toBe("keyword");
    expect(roleOf(0, "Money")).toBe("type");
    expect(roleOf(0, "parse")).toBe("func");
    expect(roleOf(0, "`x ")).toBe("string");
    expect(roleOf(0, "1")).toBe("number");
    expect(roleOf(0, "/* start")).toBe("comment");
    expect(roleOf(1, "still comment */")).toBe("comment");
    expect(roleOf(1, "return")).toBe("keyword");
    expect(roleOf(1, "0x1f")).toBe("number");
  });

  it("tells JSON keys from values and picks the language from a path or fence tag", () => {
    const [row] = highlightLines(['{"name": "ipuaro", "ok": true}'], "json");
    expect(row!.find((s) => s.text === '"name"')?.role).toBe("type");
    expect(row!.find((s) => s.text === '"ipuaro"')?.role).toBe("string");
    expect(languageOf("src/a.tsx")).toBe("ts");
    expect(languageOf("typescript")).toBe("ts");
    expect(languageOf("README.md")).toBe("plain");
  });

  it("renders markdown-ish answers: code fences with a gutter, inline code, bold, headings", () => {
    const rows = renderMarkdown("# Итог\nСм. `money.ts` и **важно**.\n```ts\nconst x = 1;\n```\nконец", 40);
    expect(rows.map(lineText)).toEqual(["Итог", "См. money.ts и важно.", "╭ ts", "│ const x = 1;", "конец"]);
    expect(rows[1]!.find((s) => s.text === "money.ts")?.role).toBe("code");
    expect(rows[1]!.find((s) => s.text === "важно")?.bold).toBe(true);
  });

  it("draws a block quote with a bar in the margin, nested ones with two, wrapped under the bar", () => {
    const rows = renderMarkdown("> Цитата с `code`\n> > вложенная\nпосле", 40);
    expect(rows.map(lineText)).toEqual(["▏ Цитата с code", "▏ ▏ вложенная", "после"]);
    expect(rows[0]!.find((s) => s.text.includes("Цитата"))?.role).toBe("muted");
    expect(rows[0]!.find((s) => s.text === "code")?.role).toBe("code");
    expect(renderMarkdown(`> ${"слово ".repeat(10)}`, 24).map(lineText).every((l) => l.startsWith("▏ "))).toBe(true);
  });

  it("draws a table with aligned columns (wide characters counted), and leaves one too wide as text", () => {
    const table = "| file | lines |\n|---|---:|\n| `money.ts` | 12 |\n| строки.ts | 7 |\nend";
    expect(renderMarkdown(table, 40).map(lineText)).toEqual(["file      │ lines", "──────────┼──────", "money.ts  │ 12   ", "строки.ts │ 7    ", "end"]);
    expect(renderMarkdown(table, 40)[0]!.find((s) => s.text === "file")?.bold).toBe(true);
    expect(renderMarkdown(table, 12).map(lineText)[0]!.trimEnd()).toBe("| file |");
    // Rows without the |---| line under the first are no table.
    expect(renderMarkdown("| a | b |\n| c | d |", 40).map(lineText)).toEqual(["| a | b |", "| c | d |"]);
  });
});

describe("diff rendering", () => {
  const diff = createTwoFilesPatch("a/x.ts", "b/x.ts", "const a = jwt.verify(token);\nkeep();\n", "const a = this.verifyToken(token);\nkeep();\nadded();\n");

  it("parses line numbers and pairs -/+ lines for inline marks", () => {
    const lines = markInlineChanges(parseUnifiedDiff(diff));
    const del = lines.find((l) => l.kind === "del")!;
    const add = lines.find((l) => l.kind === "add" && l.text.startsWith("const"))!;
    expect(del.oldNo).toBe(1);
    expect(add.newNo).toBe(1);
    expect(del.changed!.map(([a, b]) => del.text.slice(a, b))).toEqual(["jwt.verify"]);
    expect(add.changed!.map(([a, b]) => add.text.slice(a, b))).toEqual(["this.verifyToken"]);
    expect(lines.find((l) => l.text === "added();")!.changed).toBeUndefined();
  });

  it("lays strong backgrounds on the changed words only, and wraps long lines under the code", () => {
    const rows = renderDiff(diff, "x.ts", 60);
    const addRow = rows.find((r) => lineText(r).includes("this.verifyToken"))!;
    const strong = addRow.filter((s) => s.bg === "diffAddStrong").map((s) => s.text).join("");
    expect(strong).toBe("this.verifyToken");
    expect(addRow.find((s) => s.text === "const")).toMatchObject({ role: "keyword", bg: "diffAddLine" });
    const long = createTwoFilesPatch("a", "b", "x\n", `${"y".repeat(100)}\n`);
    const wrapped = renderDiff(long, "a.txt", 40).filter((r) => lineText(r).includes("y"));
    expect(wrapped.length).toBe(Math.ceil(100 / (40 - 7))); // the 7-cell gutter stays free
    expect(wrapped.every((r) => lineWidth(r) <= 40)).toBe(true);
    expect(wrapped.map((r) => lineText(r).trim().replace(/^1 \+ /, "")).join("")).toBe("y".repeat(100));
  });

  it("does not mark words inside a line that was rewritten entirely", () => {
    const rewrite = createTwoFilesPatch("a", "b", "alpha beta gamma\n", "one two three four\n");
    const lines = markInlineChanges(parseUnifiedDiff(rewrite));
    expect(lines.every((l) => l.changed === undefined)).toBe(true);
  });
});

describe("completion", () => {
  const source = {
    commands: () => ["/help", "/undo", "/auto-apply"],
    paths: async () => ["src/auth/login.ts", "src/auth/logout.ts", "src/index.ts", "README.md"],
    symbols: async () => ["login", "logout", "LoginForm"],
  };

  it("finds the word before the cursor", () => {
    expect(tokenBefore("open src/au", 11)).toEqual({ start: 5, token: "src/au" });
    expect(tokenBefore("(`src", 5)).toEqual({ start: 2, token: "src" });
  });

  it("completes one folder level at a time, then the file with a trailing space", async () => {
    expect(pathMatches("src/", ["src/auth/login.ts", "src/index.ts"])).toEqual(["src/auth/", "src/index.ts"]);
    expect(await complete("see src/a", 9, source)).toEqual({ text: "see src/auth/", cursor: 13, candidates: [] });
    expect(await complete("see src/auth/login", 18, source)).toEqual({ text: "see src/auth/login.ts ", cursor: 22, candidates: [] });
    const both = await complete("see src/auth/lo", 15, source);
    expect(both).toMatchObject({ text: "see src/auth/log", candidates: ["src/auth/login.ts", "src/auth/logout.ts"] });
  });

  it("completes an @mention by path or by file name, keeping the @", async () => {
    expect(await complete("look at @src/au", 15, source)).toEqual({ text: "look at @src/auth/", cursor: 18, candidates: [] });
    expect(await complete("look at @logo", 13, source)).toEqual({ text: "look at @src/auth/logout.ts ", cursor: 28, candidates: [] });
    expect(await complete("@log", 4, source)).toMatchObject({ text: "@src/auth/log", candidates: ["@src/auth/login.ts", "@src/auth/logout.ts"] });
    expect(await complete("@nothing", 8, source)).toBeNull();
  });

  it("quotes paths with spaces, and reads on through a quoted word with spaces in it", async () => {
    const spaced = { ...source, paths: async () => ["docs/my notes/plan.md", "docs/my notes/todo list.md", "docs/readme.md", "src/компоненты/Кнопка.tsx"] };
    const c = (text: string) => complete(text, text.length, spaced);
    expect(await c("read @docs/my")).toEqual({ text: 'read @"docs/my notes/', cursor: 21, candidates: [] });
    expect(await c('read @"docs/my notes/to')).toEqual({ text: 'read @"docs/my notes/todo list.md" ', cursor: 35, candidates: [] });
    expect(await c('read @"docs/my notes/')).toMatchObject({ text: 'read @"docs/my notes/', candidates: ['@"docs/my notes/plan.md"', '@"docs/my notes/todo list.md"'] });
    expect(await c("read @todo")).toMatchObject({ text: 'read @"docs/my notes/todo list.md" ' });
    expect(await c('open "docs/my notes/pl')).toMatchObject({ text: 'open "docs/my notes/plan.md" ' });
    // A path in another script completes like any other; a closed quote is not reopened.
    expect(await c("@Кноп")).toMatchObject({ text: "@src/компоненты/Кнопка.tsx " });
    expect(await c('see "a b" src/комп')).toMatchObject({ text: 'see "a b" src/компоненты/' });
    // A name with a double quote in it goes in backquotes (mentions read those too).
    const odd = { ...source, paths: async () => ['src/a"b.ts'] };
    expect(await complete("@a", 2, odd)).toMatchObject({ text: '@`src/a"b.ts` ' });
    // Mid-line, before a space: no second space.
    expect(await complete("see src/auth/login and more", 18, source)).toEqual({ text: "see src/auth/login.ts and more", cursor: 21, candidates: [] });
    // Prose in quotes that names no file: the word before the cursor is completed as before.
    expect(await complete('he said "where is logo', 22, source)).toMatchObject({ text: 'he said "where is logout ' });
  });

  it("completes symbols and commands", async () => {
    expect(await complete("where is logo", 13, source)).toMatchObject({ text: "where is logout " });
    expect(await complete("/un", 3, source)).toMatchObject({ text: "/undo " });
    expect(await complete("x /un", 5, source)).toBeNull();
  });
});

describe("truncateStyled and diffSummary", () => {
  it("cuts by terminal cells, never inside a wide character, and keeps the cut span's style for …", () => {
    const line = [span("ab", "code"), span("日本語✅x", "accent")];
    expect(lineText(truncateStyled(line, 20))).toBe("ab日本語✅x");
    const cut = truncateStyled(line, 6);
    expect(lineText(cut)).toBe("ab日…");
    expect(lineWidth(cut)).toBeLessThanOrEqual(6);
    expect(cut.at(-1)?.role).toBe("accent");
    expect(lineText(truncateStyled(line, 7))).toBe("ab日本…");
  });

  it("counts added and removed lines and hunks", () => {
    const diff = createTwoFilesPatch("a/x.ts", "b/x.ts", "a\nb\nc\n", "a\nB\nc\nd\n", "", "", { context: 0 });
    expect(diffSummary(diff)).toBe("+2 −1 lines in 2 hunks");
  });
});
