// `sed -n '10,40p' src/app.ts` only reads, but sed can also write (`-i`, `w FILE`, `s///w FILE`), read
// files the command line does not name (`r`, `R`) and run commands (`e`, `s///e`). So sed runs unasked
// only when its options are known and its script parses, command by command, into the part of the
// language that prints: addresses, `p d q Q = l n N P D h H g G x z F`, `{ … }`, `s` and `y` — with
// the delimiters scanned as GNU sed scans them (a backslash escapes the next character, nothing else
// quotes). Anything else asks.
import type { ShellWord } from "./shell-words.js";
import type { Finding } from "./shell-types.js";

/** Short options that neither write nor read more than the files named: -n, -E/-r, -s, -u, -z. */
const SAFE_SHORT = new Set(["n", "E", "r", "s", "u", "z"]);
const SAFE_LONG = new Set(["--quiet", "--silent", "--regexp-extended", "--separate", "--unbuffered", "--null-data", "--posix", "--debug", "--sandbox"]);
const PRINTING_COMMANDS = new Set(["p", "d", "=", "l", "n", "N", "P", "D", "h", "H", "g", "G", "x", "z", "F"]);
/** s flags that only choose what is replaced and printed (no `w FILE`, no `e`). */
const SAFE_S_FLAGS = /^[gpIiMm0-9]*$/;

class SedScript {
  private i = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  /** Whether the whole script is in the printing subset. */
  parse(): boolean {
    while (this.skipSeparators(), this.i < this.text.length) {
      if (!this.command()) return false;
    }
    return this.depth === 0;
  }

  /** The character at the cursor ("" at the end); a method, so checks after a move are not narrowed away. */
  private ch(): string {
    return this.text[this.i] ?? "";
  }

  private skipSpace(): void {
    while (this.ch() === " " || this.ch() === "\t") this.i++;
  }

  private skipSeparators(): void {
    while (/^[ \t\n;]$/.test(this.ch())) this.i++;
  }

  /** After a command: spaces, then `;`, a newline, `}` or the end. */
  private ended(): boolean {
    this.skipSpace();
    return this.ch() === "" || this.ch() === ";" || this.ch() === "\n" || this.ch() === "}";
  }

  private number(): boolean {
    const start = this.i;
    while (/^[0-9]$/.test(this.ch())) this.i++;
    return this.i > start;
  }

  /** Up to the unescaped delimiter, as GNU sed's match_slash reads it; false when there is none. */
  private delimited(delimiter: string): boolean {
    while (this.i < this.text.length) {
      const c = this.text[this.i++]!;
      if (c === "\\") {
        if (this.i >= this.text.length || this.text[this.i] === "\n") return false;
        this.i++;
      } else if (c === "\n") return false;
      else if (c === delimiter) return true;
    }
    return false;
  }

  private address(): boolean {
    if (this.ch() === "$") {
      this.i++;
      return true;
    }
    if (/^[0-9]$/.test(this.ch())) {
      this.number();
      if (this.ch() === "~") {
        this.i++;
        return this.number();
      }
      return true;
    }
    if (this.ch() === "/") {
      this.i++;
      if (!this.delimited("/")) return false;
      while (this.ch() === "I" || this.ch() === "M") this.i++;
      return true;
    }
    return false;
  }

  private command(): boolean {
    if (this.ch() === "}") {
      this.i++;
      this.depth--;
      return this.depth >= 0 && this.ended();
    }
    if (/^[0-9$/]$/.test(this.ch())) {
      if (!this.address()) return false;
      this.skipSpace();
      if (this.ch() === ",") {
        this.i++;
        this.skipSpace();
        // `addr,+N` and `addr,~N` (GNU) as well as a second address.
        if (this.ch() === "+" || this.ch() === "~") {
          this.i++;
          if (!this.number()) return false;
        } else if (!this.address()) return false;
      }
    }
    this.skipSpace();
    if (this.ch() === "!") {
      this.i++;
      this.skipSpace();
    }
    const name = this.ch();
    this.i++;
    if (name === "{") {
      this.depth++;
      return true;
    }
    if (PRINTING_COMMANDS.has(name)) return this.ended();
    if (name === "q" || name === "Q") {
      this.skipSpace();
      this.number();
      return this.ended();
    }
    if (name === "s" || name === "y") return this.substitution(name);
    return false;
  }

  private substitution(name: "s" | "y"): boolean {
    const delimiter = this.ch();
    if (delimiter === "" || delimiter === "\\" || delimiter === "\n" || delimiter === " ") return false;
    this.i++;
    if (!this.delimited(delimiter) || !this.delimited(delimiter)) return false;
    if (name === "y") return this.ended();
    const start = this.i;
    while (/^[A-Za-z0-9]$/.test(this.ch())) this.i++;
    return SAFE_S_FLAGS.test(this.text.slice(start, this.i)) && this.ended();
  }
}

export function isPrintingSedScript(script: string): boolean {
  return new SedScript(script).parse();
}

/** Why a sed command line must ask; none when its options and script only print. */
export function sedFindings(args: readonly ShellWord[]): Finding[] {
  const ask = (reason: string): Finding[] => [{ verdict: "ask", reason }];
  const scripts: string[] = [];
  let operands = 0;
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const text = word.value;
    if (options && text === "--") options = false;
    else if (options && text.startsWith("--")) {
      const [name, value] = text.includes("=") ? [text.slice(0, text.indexOf("=")), text.slice(text.indexOf("=") + 1)] : [text, null];
      if (name === "--expression") {
        const script = value ?? args[++i]?.value;
        if (script === undefined) return ask("`sed --expression` without a script");
        scripts.push(script);
      } else if (!SAFE_LONG.has(name)) return ask(`\`sed ${name}\` may write files, read a script from a file or follow links`);
    } else if (options && text.startsWith("-") && text !== "-") {
      for (let j = 1; j < text.length; j++) {
        const letter = text[j]!;
        if (letter === "e") {
          const script = j < text.length - 1 ? text.slice(j + 1) : args[++i]?.value;
          if (script === undefined) return ask("`sed -e` without a script");
          scripts.push(script);
          break;
        }
        if (!SAFE_SHORT.has(letter)) return ask(`\`sed -${letter}\` may write files (\`-i\`) or read a script from a file (\`-f\`)`);
      }
    } else if (scripts.length === 0 && operands === 0) {
      // The first operand is the script when no -e gave one (an -e after it makes it a file for sed:
      // then it is judged as a script, the safe side).
      operands++;
      if (word.dynamic) return ask("the sed script is only known at run time");
      scripts.push(text);
    } else operands++;
  }
  if (scripts.length === 0) return ask("`sed` without a script");
  const unsafe = scripts.find((script) => !isPrintingSedScript(script));
  return unsafe === undefined ? [] : ask(`the sed script \`${unsafe.length > 40 ? `${unsafe.slice(0, 37)}…` : unsafe}\` may write, read other files or run commands; only printing scripts run unasked`);
}
