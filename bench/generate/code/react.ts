// React components (TSX, and a few legacy JSX files) and hooks for apps/web and packages/ui.

import { NOUNS, STATUS_VALUES, camel, pascal, type NameRegistry } from "../names.js";
import { Rng } from "../prng.js";
import type { ExportedSymbol, SourceModule } from "../model.js";
import { localName, renderImportBlock } from "./imports.js";
import { comment, newScope, statements, stringLiteral } from "./statements.js";
import { doc, typeExpr } from "./ts-types.js";

export type ComponentVariant = "function" | "arrow" | "forwardRef" | "generic" | "class" | "memo" | "page" | "legacy";

export function planComponentExports(words: string[], variant: ComponentVariant, names: NameRegistry): ExportedSymbol[] {
  const name = names.claim(pascal(words));
  const component: ExportedSymbol = { name, kind: "component", role: variant, isDefault: variant === "page" || variant === "legacy" };
  if (variant === "legacy") return [component];
  return [{ name: names.claim(`${name}Props`), kind: "interface", role: "props" }, component];
}

export function planHookExports(words: string[], names: NameRegistry): ExportedSymbol[] {
  const base = pascal(words);
  return [
    { name: names.claim(`use${base}`), kind: "hook", role: "hook" },
    { name: names.claim(`${base}State`), kind: "interface", role: "hook-state" },
  ];
}

function indent(lines: string[], by: string): string[] {
  return lines.map((line) => (line === "" ? line : by + line));
}

function jsxBlock(rng: Rng, children: readonly string[], units: number, hasStyles: boolean): string[] {
  const cls = (name: string) => (hasStyles ? `{styles.${name}}` : JSON.stringify(name));
  const out = [
    `<section className=${cls("root")} aria-label={title} role="region">`,
    `  <header className=${cls("header")}>`,
    "    <h2>{title}</h2>",
    `    {subtitle ? <p className=${cls("subtitle")}>{subtitle}</p> : null}`,
    "  </header>",
  ];
  for (let i = 0; i < units; i++) {
    const shape = rng.int(0, 4);
    switch (shape === 2 && children.length === 0 ? 3 : shape) {
      case 0:
        out.push(
          "  <ul>",
          "    {visible.map((item) => (",
          "      <li key={item.id} onClick={() => handleSelect(item.id)}>",
          "        {item.label}",
          `        {item.count > 0 && <span className=${cls("badge")}>{item.count}</span>}`,
          "      </li>",
          "    ))}",
          "  </ul>",
        );
        break;
      case 1:
        out.push(
          "  <label>",
          `    ${pascal([rng.pick(NOUNS)])}`,
          "    <input value={query} placeholder=" + stringLiteral(rng) + " onChange={(event) => setQuery(event.target.value)} />",
          "  </label>",
        );
        break;
      case 2:
        out.push(`  <${rng.pick(children)} title=${stringLiteral(rng)} />`);
        break;
      case 3:
        out.push(
          "  <>",
          `    <button type="button" onClick={() => setOpen((value) => !value)} disabled={visible.length === 0}>`,
          `      {open ? ${stringLiteral(rng)} : ${stringLiteral(rng)}}`,
          "    </button>",
          "  </>",
        );
        break;
      default:
        out.push(
          `  <div className=${cls("row")} data-status=${JSON.stringify(rng.pick(STATUS_VALUES))}>`,
          `    <strong>{${rng.int(1, 99)} + visible.length}</strong>{" "}`,
          `    <small>{new Intl.NumberFormat("en-US").format(${rng.int(100, 99999)})}</small>`,
          "  </div>",
        );
    }
  }
  out.push("  {open ? <>{children}</> : null}", "</section>");
  return out;
}

export function renderComponentModule(module: SourceModule, seed: number): string {
  const rng = Rng.forKey(seed, module.path);
  const legacy = module.path.endsWith(".jsx");
  const component = module.exports.find((e) => e.kind === "component");
  const props = module.exports.find((e) => e.role === "props");
  if (!component) throw new Error(`component module without a component: ${module.path}`);
  const children = module.imports.flatMap((s) => s.named.filter((n) => n.kind === "component").map(localName).concat(s.defaultName && s.named.length === 0 && /^[A-Z]/.test(s.defaultName) && s.from.startsWith(".") ? [s.defaultName] : []));
  const hooks = module.imports.flatMap((s) => s.named.filter((n) => n.kind === "hook").map(localName));
  const calls = module.imports.flatMap((s) => (s.typeOnly ? [] : s.named.filter((n) => n.kind === "function").map(localName)));
  const hasStyles = module.imports.some((s) => s.from.endsWith(".module.css"));
  const out = [...renderImportBlock(module.imports, rng, !legacy), ""];
  const typeNames = module.imports.flatMap((s) => s.named.filter((n) => n.kind === "interface" || n.kind === "type").map(localName));
  const name = component.name;
  const propsName = props?.name ?? "Props";

  if (!legacy) {
    const generic = component.role === "generic" ? "<T extends { id: string; label: string } = { id: string; label: string }>" : "";
    const itemType = component.role === "generic" ? "T" : "{ id: string; label: string; count: number }";
    out.push(...doc(rng, `Props for ${name}`));
    out.push(`export interface ${propsName}${generic} {`, "  title: string;", "  subtitle?: string;", `  items?: readonly ${itemType}[];`, "  onSelect?: (id: string) => void;", "  children?: ReactNode;");
    for (let i = 0; i < Math.min(6, module.units); i++) out.push(`  ${camel([rng.pick(NOUNS), rng.pick(["mode", "size", "limit", "label", "filter"])])}${i}?: ${typeExpr({ rng, typeNames })};`);
    out.push("}", "");
  }

  const hookLines: string[] = [
    "const [open, setOpen] = useState(false);",
    `const [query, setQuery] = useState(${stringLiteral(rng)});`,
    "const visible = useMemo(",
    `  () => items.filter((item) => String(item.label).includes(query)).map((item) => ({ count: 0, ...item })),`,
    "  [items, query],",
    ");",
    "const handleSelect = useCallback(",
    "  (id: string) => {",
    "    onSelect?.(id);",
    "    setOpen((value) => !value);",
    "  },",
    "  [onSelect],",
    ");",
  ];
  for (const hook of hooks) hookLines.push(`const ${camel([hook.replace(/^use/, ""), "state"])} = ${hook}(${stringLiteral(rng)});`);
  const effectScope = newScope(rng, { ts: !legacy, async: false, params: ["query", "open", "title"], calls, noExit: true });
  hookLines.push("useEffect(() => {", ...indent(statements(effectScope, rng.int(1, 3)), "  "), "}, [query, open]);");
  if (rng.chance(0.15)) hookLines.unshift(comment(rng));
  const cleaned = legacy ? hookLines.map((l) => l.replace("(id: string)", "(id)")) : hookLines;
  const jsx = jsxBlock(rng, children, Math.max(1, module.units), hasStyles);
  const params = `{ title, subtitle, items = [], onSelect, children }${legacy ? "" : `: ${propsName}${component.role === "generic" ? "<T>" : ""}`}`;
  const fnBody = [...indent(cleaned, "  "), "", "  return (", ...indent(jsx, "    "), "  );"];

  switch (component.role) {
    case "arrow":
      out.push(`export const ${name}: React.FC<${propsName}> = (${params}) => {`, ...fnBody, "};");
      break;
    case "forwardRef":
      out.push(
        `export const ${name} = React.forwardRef<HTMLElement, ${propsName}>(function ${name}(`,
        `  ${params},`,
        "  ref,",
        ") {",
        "  void ref;",
        ...fnBody,
        "});",
      );
      break;
    case "memo":
      out.push(`export const ${name} = React.memo(function ${name}(${params}) {`, ...fnBody, "});");
      break;
    case "generic":
      out.push(`export function ${name}<T extends { id: string; label: string }>(${params}) {`, ...fnBody, "}");
      break;
    case "class":
      out.push(
        `export class ${name} extends React.Component<${propsName}, { open: boolean }> {`,
        "  override state = { open: false };",
        "",
        "  private toggle = (): void => {",
        "    this.setState((previous) => ({ open: !previous.open }));",
        "  };",
        "",
        "  override render() {",
        "    const { title, subtitle } = this.props;",
        "    return (",
        `      <section aria-label={title} role="region" onClick={this.toggle}>`,
        "        <h2>{title}</h2>",
        "        {subtitle && this.state.open ? <p>{subtitle}</p> : null}",
        "      </section>",
        "    );",
        "  }",
        "}",
      );
      break;
    case "page":
    case "legacy":
      out.push(`export default function ${name}(${params}) {`, ...fnBody, "}");
      if (legacy) out.push("", `${name}.propTypes = {`, "  title: PropTypes.string.isRequired,", "  subtitle: PropTypes.string,", "};");
      if (component.role === "page") out.push("", "export async function getServerSideProps(context: { params?: Record<string, string> }) {", "  return { props: { title: context.params?.id ?? " + stringLiteral(rng) + " } };", "}");
      break;
    default:
      out.push(`export function ${name}(${params}) {`, ...fnBody, "}");
  }
  if (!component.isDefault && rng.chance(0.3)) out.push("", `export default ${name};`);
  out.push("");
  return out.join("\n");
}

export function renderHookModule(module: SourceModule, seed: number): string {
  const rng = Rng.forKey(seed, module.path);
  const hook = module.exports.find((e) => e.kind === "hook");
  const state = module.exports.find((e) => e.role === "hook-state");
  if (!hook || !state) throw new Error(`hook module without a hook: ${module.path}`);
  const calls = module.imports.flatMap((s) => (s.typeOnly ? [] : s.named.filter((n) => n.kind === "function").map(localName)));
  const scope = newScope(rng, { ts: true, async: false, params: ["value", "initial"], calls });
  const out = [...renderImportBlock(module.imports, rng, true), ""];
  out.push(`export interface ${state.name} {`, "  value: string;", "  loading: boolean;", "  error: Error | null;", "  set: (next: string) => void;", "}", "");
  out.push(
    ...doc(rng, `Debounced ${hook.name.slice(3)} state`),
    `export function ${hook.name}(initial = ${stringLiteral(rng)}, delayMs = ${rng.int(50, 600)}): ${state.name} {`,
    "  const [value, set] = useState(initial);",
    "  const [loading, setLoading] = useState(false);",
    "  const [error, setError] = useState<Error | null>(null);",
    "  const latest = useRef(value);",
    "",
    "  useEffect(() => {",
    "    let cancelled = false;",
    "    setLoading(true);",
    "    const timer = setTimeout(() => {",
    "      if (cancelled) return;",
    "      try {",
    ...indent(statements(scope, Math.max(1, module.units)), "        "),
    "        latest.current = value;",
    "      } catch (caught) {",
    "        setError(caught instanceof Error ? caught : new Error(String(caught)));",
    "      } finally {",
    "        setLoading(false);",
    "      }",
    "    }, delayMs);",
    "    return () => {",
    "      cancelled = true;",
    "      clearTimeout(timer);",
    "    };",
    "  }, [value, delayMs]);",
    "",
    "  return { value, loading, error, set: (next) => set(next.trim()) };",
    "}",
    "",
  );
  return out.join("\n");
}

export function renderCssModule(path: string, seed: number): string {
  const rng = Rng.forKey(seed, path);
  const rules = ["root", "header", "subtitle", "badge", "row"].map((name) => [
    `.${name} {`,
    `  display: ${rng.pick(["flex", "grid", "block", "inline-flex"])};`,
    `  gap: ${rng.int(2, 24)}px;`,
    `  color: #${rng.int(0, 0xffffff).toString(16).padStart(6, "0")};`,
    "}",
  ]);
  return rules.map((r) => r.join("\n")).join("\n\n") + "\n";
}
