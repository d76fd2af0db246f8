// What peeling a wrapper off a command yields (command-wrappers.ts, package-runners.ts): the layer,
// the wrapped command, and the command strings found on the way, which the parser judges in turn.
import type { ParsedOptions } from "./cli-options.js";
import type { ShellWord } from "./shell-words.js";
import type { EnvAssignment, ShellContext, WrapperLayer } from "./shell-types.js";

export type Payload =
  | { kind: "shell"; source: string; dynamic: boolean; origin: string; context: ShellContext }
  | { kind: "argv"; words: ShellWord[]; openEnded: boolean; origin: string; context: ShellContext };

export interface Peeled {
  layer: WrapperLayer;
  /** The wrapped command; empty when the wrapper's command went into a payload. */
  rest: ShellWord[];
  env?: EnvAssignment[];
  concerns?: string[];
  openEnded?: boolean;
  payloads?: Payload[];
}

/**
 * What peeling needs to know about the project: `pnpm build` runs the package.json script `build`
 * when there is one, and a program called `build` when there is none.
 */
export interface PeelContext {
  isScript(name: string): boolean;
}

/** Without a project, no name is a script: every name pnpm or yarn could run as a program is judged as one. */
export const NO_PROJECT: PeelContext = { isScript: () => false };

export type Peeler = (args: ShellWord[], context: PeelContext) => Peeled | null;

export function unknownOptionConcerns(wrapper: string, parsed: ParsedOptions): string[] {
  return parsed.unknown.map((option) => `\`${wrapper}\` option \`${option}\` is not known, so the wrapped command may be misread`);
}

export function shellPayload(words: readonly ShellWord[], origin: string, context: ShellContext): Payload {
  return {
    kind: "shell",
    source: words.map((word) => word.value).join(" "),
    dynamic: words.some((word) => word.dynamic || word.glob),
    origin,
    context,
  };
}
