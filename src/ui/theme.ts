// Colours by role (display.theme dark/light). With NO_COLOR set, no colour is sent at all: roles keep
// only bold/underline/inverse, so diffs and the status bar stay readable on a monochrome terminal.

export type Role =
  | "text"
  | "muted"
  | "user"
  | "agent"
  | "tool"
  | "toolError"
  | "stats"
  | "accent"
  | "ok"
  | "warn"
  | "error"
  | "keyword"
  | "string"
  | "number"
  | "comment"
  | "type"
  | "func"
  | "punct"
  | "code"
  | "heading"
  | "diffAdd"
  | "diffDel"
  | "diffAddLine"
  | "diffDelLine"
  | "diffAddStrong"
  | "diffDelStrong"
  | "diffHunk"
  | "gutter"
  | "status"
  | "statusDim"
  | "border"
  | "selected"
  | "progress";

export interface RoleStyle {
  /** blessed colour: a name (`red`, `brightblack`), `#rrggbb`, or a 256-colour index. */
  fg?: string | number;
  bg?: string | number;
  bold?: boolean;
  underline?: boolean;
  inverse?: boolean;
}

export type ThemeName = "dark" | "light";

export interface Theme {
  name: ThemeName;
  colour: boolean;
  roles: Record<Role, RoleStyle>;
}

const DARK: Record<Role, RoleStyle> = {
  text: {},
  muted: { fg: "brightblack" },
  user: { fg: "cyan", bold: true },
  agent: { fg: "green", bold: true },
  tool: { fg: "yellow" },
  toolError: { fg: "red" },
  stats: { fg: "brightblack" },
  accent: { fg: "cyan" },
  ok: { fg: "green" },
  warn: { fg: "yellow" },
  error: { fg: "red", bold: true },
  keyword: { fg: "magenta" },
  string: { fg: "green" },
  number: { fg: "yellow" },
  comment: { fg: "brightblack" },
  type: { fg: "cyan" },
  func: { fg: "blue" },
  punct: {},
  code: { fg: "yellow" },
  heading: { bold: true, underline: true },
  diffAdd: { fg: "green" },
  diffDel: { fg: "red" },
  diffAddLine: { bg: 22 },
  diffDelLine: { bg: 52 },
  diffAddStrong: { bg: 28, bold: true },
  diffDelStrong: { bg: 124, bold: true },
  diffHunk: { fg: "cyan" },
  gutter: { fg: "brightblack" },
  status: { fg: "black", bg: "cyan" },
  statusDim: { fg: 238, bg: "cyan" },
  border: { fg: "cyan" },
  selected: { inverse: true },
  progress: { fg: "green" },
};

const LIGHT: Record<Role, RoleStyle> = {
  ...DARK,
  muted: { fg: 244 },
  user: { fg: "blue", bold: true },
  agent: { fg: 28, bold: true },
  tool: { fg: 130 },
  stats: { fg: 244 },
  accent: { fg: "blue" },
  keyword: { fg: 90 },
  string: { fg: 28 },
  number: { fg: 130 },
  comment: { fg: 244 },
  type: { fg: 25 },
  func: { fg: 19 },
  code: { fg: 130 },
  diffAdd: { fg: 28 },
  diffDel: { fg: 124 },
  diffAddLine: { bg: 194 },
  diffDelLine: { bg: 224 },
  diffAddStrong: { bg: 157, bold: true },
  diffDelStrong: { bg: 217, bold: true },
  diffHunk: { fg: 25 },
  gutter: { fg: 244 },
  status: { fg: "white", bg: "blue" },
  statusDim: { fg: 252, bg: "blue" },
  border: { fg: "blue" },
};

/** What stays when colours are off: emphasis only. */
const MONO: Partial<Record<Role, RoleStyle>> = {
  user: { bold: true },
  agent: { bold: true },
  error: { bold: true },
  heading: { bold: true, underline: true },
  diffAddStrong: { underline: true, bold: true },
  diffDelStrong: { inverse: true },
  status: { inverse: true },
  statusDim: { inverse: true },
  selected: { inverse: true },
};

export function noColorRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  // https://no-color.org: any non-empty value.
  return typeof env.NO_COLOR === "string" && env.NO_COLOR !== "";
}

export function createTheme(name: ThemeName, opts: { noColor?: boolean } = {}): Theme {
  if (opts.noColor) {
    const roles = Object.fromEntries(Object.keys(DARK).map((r) => [r, MONO[r as Role] ?? {}])) as Record<Role, RoleStyle>;
    return { name, colour: false, roles };
  }
  return { name, colour: true, roles: name === "light" ? LIGHT : DARK };
}
