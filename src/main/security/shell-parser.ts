// Parses a command line with tree-sitter-bash into the flat list of simple commands bash would run,
// wherever they hide: lists, pipelines, $(…), backticks, subshells, <(…), heredoc bodies, function
// bodies, and the command strings of bash -c, eval, find -exec and friends (parsed in turn). What it
// cannot judge is reported as an issue, and every size limit reports a cap hit instead of guessing.
import { CONTAINERS, firstError, groupWords, hasExpansion, hasUnescapedSubstitution, HEREDOC_PARTS, isStatement, parseBash, type SyntaxNode } from "./bash-syntax.js";
import { resolveInvocation, type Payload, type PeelContext } from "./command-wrappers.js";
import { findHiddenCharacter } from "./hidden-characters.js";
import { literalWord, wordFromNodes, type ShellWord } from "./shell-words.js";
import type { EnvAssignment, ParsedShell, Redirect, ShellContext, ShellIssue, SimpleCommand } from "./shell-types.js";

export const MAX_COMMAND_LENGTH = 10_000;
export const MAX_SIMPLE_COMMANDS = 100;
/** Nested $(…), subshells and payloads (pipelines do not count). */
export const MAX_NESTING_DEPTH = 8;
/** Depth of the syntax tree walk, so a pathological input cannot exhaust the stack. */
export const MAX_SYNTAX_DEPTH = 200;

class CapReached extends Error {}

const WRITE_OPERATORS = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);

function excerpt(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}

class ShellWalker {
  readonly commands: SimpleCommand[] = [];
  readonly issues: ShellIssue[] = [];
  private source = "";

  constructor(private readonly context?: PeelContext) {}

  parseSource(source: string, nesting: ShellContext[]): void {
    if (source.length > MAX_COMMAND_LENGTH) this.cap(`a command longer than ${MAX_COMMAND_LENGTH} characters`);
    const hidden = findHiddenCharacter(source);
    if (hidden) {
      this.unjudgeable(`a nested command holds the hidden character \`${hidden.escaped}\``, source);
      return;
    }
    const tree = parseBash(source);
    const outer = this.source;
    this.source = source;
    try {
      if (tree.rootNode.hasError) {
        const error = firstError(tree.rootNode);
        this.unjudgeable("the command could not be parsed completely", error?.text || source);
      }
      this.walk(tree.rootNode, nesting, 0);
    } finally {
      this.source = outer;
    }
  }

  /** The nesting one level deeper, or a cap hit. */
  private nest(nesting: ShellContext[], context: ShellContext): ShellContext[] {
    const inner = [...nesting, context];
    if (inner.filter((entry) => entry !== "pipeline").length > MAX_NESTING_DEPTH) {
      this.cap(`nesting deeper than ${MAX_NESTING_DEPTH} levels`);
    }
    return inner;
  }

  private cap(reason: string): never {
    this.issues.push({ kind: "cap", reason });
    throw new CapReached(reason);
  }

  /**
   * bash ends a here-document at the first line equal to its delimiter with the quotes removed;
   * tree-sitter-bash compares the delimiter as written. For `<<$'A'` or `<<A''` the two disagree: bash
   * stops at the line `A` and runs the lines after it as commands, which the grammar kept as body text.
   * Only the forms both read alike pass (a word, 'word', "word", \word); with any of them, a body line
   * equal to the delimiter before the grammar's end is a disagreement too.
   */
  private checkHeredocEnd(node: SyntaxNode, start: string, stripTabs: boolean): void {
    const plain = /^(?:[\w.+-]+|'[\w.+-]+'|"[\w.+-]+"|\\[\w.+-]+)$/.test(start);
    if (!plain) {
      this.unjudgeable(`the here-document delimiter \`${start}\` is written in a form bash and the parser end differently`, node.text);
      return;
    }
    const delimiter = start.replace(/^['"\\]|['"]$/g, "");
    const end = node.children.find((child) => child.type === "heredoc_end");
    const body = this.source.slice(node.children.find((child) => child.type === "heredoc_start")!.endIndex, end ? end.startIndex : node.endIndex);
    const lines = body.split("\n").slice(1);
    if (lines.some((line) => (stripTabs ? line.replace(/^\t+/, "") : line) === delimiter)) {
      this.unjudgeable(`a line of the here-document ends it for bash before the parser's end`, node.text);
    }
  }

  private unjudgeable(reason: string, text: string): void {
    this.issues.push({ kind: "unjudgeable", reason, text: excerpt(text) });
  }

  private walk(node: SyntaxNode, nesting: ShellContext[], depth: number): void {
    if (depth > MAX_SYNTAX_DEPTH) this.cap(`syntax nested deeper than ${MAX_SYNTAX_DEPTH} levels`);
    const next = depth + 1;
    switch (node.type) {
      case "comment":
        return;
      case "command":
        this.command(node, [], node.text, nesting, next);
        return;
      case "redirected_statement":
        this.redirectedStatement(node, nesting, next);
        return;
      case "pipeline":
        this.walkChildren(node, this.nest(nesting, "pipeline"), next);
        return;
      case "subshell":
        this.walkChildren(node, this.nest(nesting, "subshell"), next);
        return;
      case "function_definition": {
        const name = node.childForFieldName("name")?.text ?? "?";
        this.unjudgeable(`it defines a function \`${name}\`, which later commands of that name would run instead`, node.text);
        this.walkChildren(node, this.nest(nesting, "function-body"), next);
        return;
      }
      case "for_statement": {
        // `for NAME in …` (and `select`) assigns NAME as `NAME=…` would; the rule on dangerous names must see it.
        const variable = node.childForFieldName("variable");
        if (variable) {
          const text = `${node.firstChild?.type ?? "for"} ${variable.text}`;
          this.addCommand([], [{ name: variable.text, value: null, raw: text, via: "builtin" }], [], text, nesting, next);
        }
        this.walkChildren(node, nesting, next);
        return;
      }
      case "c_style_for_statement":
        this.unjudgeable("arithmetic `for ((…))` loops cannot be judged", node.text);
        this.walkChildren(node, nesting, next);
        return;
      case "declaration_command":
      case "unset_command":
        this.declaration(node, nesting, next);
        return;
      case "test_command":
        this.scanEmbedded(node, nesting, next);
        this.addCommand([literalWord(node.firstChild?.type ?? "[[")], [], [], node.text, nesting, next);
        return;
      case "variable_assignment":
      case "variable_assignments": {
        const nodes = node.type === "variable_assignment" ? [node] : node.namedChildren;
        const assignments = nodes.map((assignment) => this.assignment(assignment, "statement", nesting, next));
        this.addCommand([], assignments, [], node.text, nesting, next);
        return;
      }
      case "ERROR":
        // Reported once by parseSource; still judge what can be recognised inside.
        this.walkChildren(node, nesting, next);
        return;
      default:
        if (!CONTAINERS.has(node.type)) {
          this.unjudgeable(`\`${node.type.replace(/_/g, " ")}\` constructs cannot be judged`, node.text);
        }
        this.walkChildren(node, nesting, next);
    }
  }

  /**
   * Statements are walked; words outside commands (loop lists, case values) are scanned, and any
   * expansion in them is unjudgeable: `${x@P}` or an array subscript can run code hidden in a value.
   */
  private walkChildren(node: SyntaxNode, nesting: ShellContext[], depth: number): void {
    for (const child of node.namedChildren) {
      if (isStatement(child)) {
        this.walk(child, nesting, depth);
        continue;
      }
      if (CONTAINERS.has(node.type) && node.type !== "program" && hasExpansion(child)) {
        this.unjudgeable(`a \`${node.type.replace(/_(statement|item)$/, "").replace(/_/g, " ")}\` word expands at run time`, child.text);
      }
      this.scanEmbedded(child, nesting, depth);
    }
  }

  /** Finds the commands inside a word: $(…), backticks, <(…), and anything nested in expansions. */
  private scanEmbedded(node: SyntaxNode, nesting: ShellContext[], depth: number): void {
    if (depth > MAX_SYNTAX_DEPTH) this.cap(`syntax nested deeper than ${MAX_SYNTAX_DEPTH} levels`);
    switch (node.type) {
      case "command_substitution":
        if (node.firstChild?.type === "`") {
          // Inside backticks `\`` starts a nested substitution, which tree-sitter leaves as a word;
          // bash's own rule is to drop those backslashes and parse the text again.
          const inner = node.text.slice(1, -1).replace(/\\([\\`$])/g, "$1");
          this.parseSource(inner, this.nest(nesting, "backticks"));
        } else {
          this.walkChildren(node, this.nest(nesting, "command-substitution"), depth + 1);
        }
        return;
      case "process_substitution":
        this.walkChildren(node, this.nest(nesting, "process-substitution"), depth + 1);
        return;
      case "arithmetic_expansion":
        this.unjudgeable("arithmetic expansion can run commands hidden in variable values", node.text);
        break;
      case "word":
      case "string_content":
        // A `$(` or backtick left in plain text means the grammar did not see a substitution bash will run.
        if (hasUnescapedSubstitution(node.text)) {
          this.unjudgeable("it holds a command substitution the parser did not recognise", node.text);
        }
        return;
      case "subscript": {
        const index = node.childForFieldName("index");
        if (index && index.type !== "number") this.unjudgeable("array subscripts are evaluated as arithmetic", node.text);
        break;
      }
    }
    for (const child of node.namedChildren) {
      if (isStatement(child)) this.walk(child, nesting, depth + 1);
      else this.scanEmbedded(child, nesting, depth + 1);
    }
  }

  private redirectedStatement(node: SyntaxNode, nesting: ShellContext[], depth: number): void {
    const redirects: Redirect[] = [];
    const trailing: SyntaxNode[] = [];
    for (const child of node.childrenForFieldName("redirect")) this.redirect(child, redirects, trailing, nesting, depth);
    const body = node.childForFieldName("body");
    if (body?.type === "command") {
      this.command(body, redirects, node.text, nesting, depth);
    } else {
      if (body) this.walk(body, nesting, depth);
      // Redirections on a compound statement, or alone (`> file`), still write.
      this.addCommand([], [], redirects, node.text, nesting, depth);
    }
    // A heredoc's operator line can continue the pipeline or list (`cat <<EOF | sh`).
    for (const statement of trailing) this.walk(statement, nesting, depth);
  }

  private redirect(node: SyntaxNode, into: Redirect[], trailing: SyntaxNode[], nesting: ShellContext[], depth: number): void {
    const descriptor = node.children.find((child) => child.type === "file_descriptor");
    const fd = descriptor ? Number(descriptor.text) : null;
    if (node.type === "heredoc_redirect") {
      const body = node.children.find((child) => child.type === "heredoc_body");
      const operator = node.children.find((child) => !child.isNamed)?.type ?? "<<";
      const start = node.children.find((child) => child.type === "heredoc_start")?.text ?? "";
      const expands = !/['"\\]/.test(start); // a quoted delimiter makes the body literal
      this.checkHeredocEnd(node, start, operator === "<<-");
      const backticks = body && expands ? this.heredocBackticks(body, this.nest(nesting, "heredoc")) : false;
      // A body whose first line starts with `\` comes out of the grammar as an `argument` of the redirect
      // (the body node left empty): whatever else hangs off the redirect is body too, and judged as such.
      const strays = node.namedChildren.filter((child) => !HEREDOC_PARTS.has(child.type) && !/_redirect$/.test(child.type) && !isStatement(child));
      into.push({ operator, fd, kind: "heredoc", target: null, dynamicInput: (body?.namedChildCount ?? 0) > 0 || backticks || (expands && strays.some(hasExpansion)) });
      if (body) this.scanEmbedded(body, this.nest(nesting, "heredoc"), depth);
      for (const stray of strays) {
        this.scanEmbedded(stray, this.nest(nesting, "heredoc"), depth);
        // Backticks there are plain text to the grammar, as in a body; they run all the same.
        if (expands && /`/.test(stray.text.replace(/\\[\s\S]/g, ""))) this.unjudgeable("a heredoc body line the parser did not place holds backticks", stray.text);
      }
      for (const child of node.namedChildren) {
        if (/_redirect$/.test(child.type)) this.redirect(child, into, trailing, nesting, depth);
        else if (isStatement(child)) trailing.push(child);
      }
      return;
    }
    const targetNodes = node.children.filter((child) => child.isNamed && child.type !== "file_descriptor");
    for (const target of targetNodes) this.scanEmbedded(target, nesting, depth);
    const target = targetNodes.length > 0 ? wordFromNodes(targetNodes, this.source) : null;
    if (node.type === "herestring_redirect") {
      into.push({ operator: "<<<", fd, kind: "herestring", target, dynamicInput: target?.dynamic ?? false });
      return;
    }
    const operator = node.children.find((child) => !child.isNamed)?.type ?? "?";
    let kind: Redirect["kind"];
    if (operator === ">&-" || operator === "<&-" || ((operator === ">&" || operator === "<&") && target?.value === "-" && !target.dynamic)) {
      kind = "close";
    } else if (operator === ">&" || operator === "<&") {
      const isFd = target !== null && !target.dynamic && /^\d+$/.test(target.value);
      kind = isFd ? "duplicate" : operator === ">&" ? "write" : "read";
    } else if (WRITE_OPERATORS.has(operator)) {
      kind = "write";
    } else if (operator === "<") {
      kind = "read";
    } else {
      this.unjudgeable(`the redirection \`${operator}\` is not understood`, node.text);
      kind = "write";
    }
    into.push({ operator, fd, kind, target, dynamicInput: false });
  }

  /**
   * tree-sitter-bash leaves backticks in an unquoted heredoc body as plain text, but bash runs them.
   * Finds them (outside the $(…) the grammar did parse) and parses each; true when there were any.
   */
  private heredocBackticks(body: SyntaxNode, nesting: ShellContext[]): boolean {
    let text = body.text;
    for (const child of body.namedChildren) {
      if (child.type !== "command_substitution") continue;
      const from = child.startIndex - body.startIndex;
      const to = child.endIndex - body.startIndex;
      text = text.slice(0, from) + " ".repeat(to - from) + text.slice(to);
    }
    const plain = text.replace(/\\[\s\S]/g, "  ");
    if (!plain.includes("`")) return false;
    if ((plain.match(/`/g) ?? []).length % 2 !== 0) {
      this.unjudgeable("a heredoc body has an unmatched backtick", body.text);
      return true;
    }
    for (const match of text.matchAll(/`((?:\\[\s\S]|[^`\\])*)`/g)) {
      this.parseSource(match[1]!.replace(/\\([\\`$])/g, "$1"), this.nest(nesting, "backticks"));
    }
    return true;
  }

  private command(node: SyntaxNode, redirects: Redirect[], text: string, nesting: ShellContext[], depth: number): void {
    const wordNodes: SyntaxNode[] = [];
    const assignments: EnvAssignment[] = [];
    const ownRedirects = [...redirects];
    const trailing: SyntaxNode[] = [];
    node.children.forEach((child, index) => {
      const field = node.fieldNameForChild(index);
      if (field === "name") wordNodes.push(...child.children);
      else if (field === "argument") wordNodes.push(child);
      else if (child.type === "variable_assignment") assignments.push(this.assignment(child, "prefix", nesting, depth));
      else if (/_redirect$/.test(child.type)) this.redirect(child, ownRedirects, trailing, nesting, depth);
      else if (child.isNamed && child.type !== "comment") this.scanEmbedded(child, nesting, depth);
    });
    for (const wordNode of wordNodes) this.scanEmbedded(wordNode, nesting, depth);
    const words = groupWords(wordNodes, this.source).map((group) => wordFromNodes(group, this.source));
    this.addCommand(words, assignments, ownRedirects, text, nesting, depth);
    for (const statement of trailing) this.walk(statement, nesting, depth);
  }

  private declaration(node: SyntaxNode, nesting: ShellContext[], depth: number): void {
    const keyword = node.firstChild?.type ?? "declare";
    const words: ShellWord[] = [literalWord(keyword)];
    const assignments: EnvAssignment[] = [];
    for (const child of node.namedChildren) {
      if (child.type === "variable_assignment") assignments.push(this.assignment(child, "declaration", nesting, depth));
      else {
        this.scanEmbedded(child, nesting, depth);
        words.push(wordFromNodes([child], this.source));
      }
    }
    this.addCommand(words, assignments, [], node.text, nesting, depth);
  }

  private assignment(node: SyntaxNode, via: EnvAssignment["via"], nesting: ShellContext[], depth: number): EnvAssignment {
    this.scanEmbedded(node, nesting, depth);
    const nameNode = node.childForFieldName("name");
    const valueNodes = node.childrenForFieldName("value");
    const name = nameNode?.type === "variable_name" ? nameNode.text : (nameNode?.text ?? "?");
    const value = valueNodes.length > 0 ? wordFromNodes(valueNodes, this.source) : literalWord("");
    return { name, value, raw: node.text, via };
  }

  private addCommand(
    words: ShellWord[],
    assignments: EnvAssignment[],
    redirects: Redirect[],
    text: string,
    nesting: ShellContext[],
    depth: number,
    openEnded = false,
  ): void {
    if (this.commands.length >= MAX_SIMPLE_COMMANDS) this.cap(`more than ${MAX_SIMPLE_COMMANDS} simple commands`);
    const resolved = resolveInvocation(words, this.context);
    if (resolved.capHit) this.cap("wrappers nested too deeply");
    if (openEnded) resolved.invocation.openEndedArgs = true;
    this.commands.push({
      text,
      words,
      assignments,
      redirects,
      context: nesting[nesting.length - 1] ?? "top-level",
      nesting,
      invocation: resolved.invocation,
    });
    for (const payload of resolved.payloads) this.payload(payload, nesting, depth);
  }

  private payload(payload: Payload, nesting: ShellContext[], depth: number): void {
    const inner = this.nest(nesting, payload.context);
    if (payload.kind === "argv") {
      const text = payload.words.map((word) => word.raw).join(" ");
      this.addCommand(payload.words, [], [], text, inner, depth + 1, payload.openEnded);
    } else {
      // A payload with expansions is still parsed as written, so `bash -c "rm -rf $DIR"` is denied.
      if (payload.dynamic) this.unjudgeable(`\`${payload.origin}\` runs a command line that is only known at run time`, payload.source);
      this.parseSource(payload.source, inner);
    }
  }
}

/**
 * Parses `source` into every simple command it would run. Never throws for bad input: what cannot be
 * judged becomes an `unjudgeable` issue, and an exceeded limit a `cap` issue (the walk stops there).
 * `context` knows the project's package.json scripts (see command-wrappers.ts).
 */
export function parseShell(source: string, context?: PeelContext): ParsedShell {
  const walker = new ShellWalker(context);
  try {
    walker.parseSource(source, []);
  } catch (error) {
    if (!(error instanceof CapReached)) throw error;
  }
  return { commands: walker.commands, issues: walker.issues };
}
