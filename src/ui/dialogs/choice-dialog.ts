// A question answered by one key: the error choice `[R] retry [S] skip [A] abort`, the conflict
// `[A] apply [S] skip [R] regenerate`, the unknown command `[Y] once [A] always [N] no`. Keys work in
// either case and on a Russian layout (the key in the same place: Y = Н). Esc gives the safe answer.
import type { Widgets } from "blessed";
import type { KeyAction } from "../input/keymap.js";
import { span, wrapStyled, type StyledLine } from "../text/styled-text.js";
import type { Painter } from "../widgets/paint.js";
import { DialogBox, keyLegendRows, type Modal } from "./dialog-box.js";

/** The app side of dialogs: where they are drawn and how they get keys. */
export interface ModalHost {
  readonly screen: Widgets.Screen;
  readonly painter: Painter;
  open(modal: Modal): void;
  close(modal: Modal): void;
  requestRender(): void;
}

export interface Choice<T> {
  key: string;
  label: string;
  value: T;
}

const RUSSIAN_LAYOUT: Record<string, string> = {
  й: "q", ц: "w", у: "e", к: "r", е: "t", н: "y", г: "u", ш: "i", щ: "o", з: "p",
  ф: "a", ы: "s", в: "d", а: "f", п: "g", р: "h", о: "j", л: "k", д: "l",
  я: "z", ч: "x", с: "c", м: "v", и: "b", т: "n", ь: "m",
};

/** The Latin key a typed character stands for (lower case), or null. */
export function latinKey(ch: string | undefined): string | null {
  if (!ch) return null;
  const lower = ch.toLowerCase();
  if (/^[a-z]$/.test(lower)) return lower;
  return RUSSIAN_LAYOUT[lower] ?? null;
}

export interface ChoiceDialogOptions<T> {
  /** The title, or the title for a width (a path shortened to fit). */
  title: string | ((width: number) => string);
  body: StyledLine[] | string;
  choices: Choice<T>[];
  /** The answer for Esc. */
  escape: T;
  titleRole?: "error" | "warn" | "accent";
}

export function askChoice<T>(host: ModalHost, opts: ChoiceDialogOptions<T>): Promise<T> {
  return new Promise<T>((resolve) => {
    const bodyOf = (width: number): StyledLine[] =>
      typeof opts.body === "string" ? opts.body.split("\n").flatMap((l) => wrapStyled([{ text: l }], width)) : opts.body.flatMap((l) => wrapStyled(l, width));
    const frame = new DialogBox(host.screen, host.painter, {
      title: (width) => [span(typeof opts.title === "function" ? opts.title(width) : opts.title, opts.titleRole ?? "accent", { bold: true })],
      body: bodyOf,
      footer: (width) => keyLegendRows(opts.choices, width),
    });
    const modal: Modal = {
      handleKey(action: KeyAction | null, ch: string | undefined) {
        if (action?.type === "escape") return finish(opts.escape);
        if (frame.handleScroll(action)) return host.requestRender();
        const key = action?.type === "insert" ? latinKey(ch) : null;
        const choice = key ? opts.choices.find((c) => c.key.toLowerCase() === key) : undefined;
        if (choice) finish(choice.value);
      },
      layout: (area) => frame.layout(area),
      cursor: () => null,
      destroy: () => frame.destroy(),
    };
    const finish = (value: T) => {
      host.close(modal);
      resolve(value);
    };
    host.open(modal);
  });
}
