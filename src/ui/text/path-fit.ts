// A path in fewer cells than it has, the file name kept: the folders in the middle give way first
// (`packages/…/money.ts`), as a path cut at its end (`packages/core/src/mone…`) lost the one part that
// said which file it was.
import { stringWidth, truncateToWidth } from "./text-width.js";

/**
 * `path` in at most `width` cells: whole when it fits, else its first folder and as many of the last
 * ones as fit around `…`, then `…/name`, and a name too long even alone cut at its end.
 */
export function shortenPath(path: string, width: number): string {
  if (stringWidth(path) <= width) return path;
  const parts = path.split("/");
  const name = parts.pop() ?? path;
  if (!parts.length) return truncateToWidth(name, width);
  const join = (head: string[], tail: string[]) => [...head, "…", ...tail, name].join("/");
  let head: string[] = parts[0] ? [parts[0]] : [""];
  let tail: string[] = [];
  if (stringWidth(join(head, tail)) > width) head = [];
  if (stringWidth(join(head, tail)) > width) return truncateToWidth(name, width);
  // Folders nearest the file say more about it: they are added first, then the ones after the first.
  let next = parts.length - 1;
  let from = head.length;
  while (next >= from) {
    const longer = [parts[next]!, ...tail];
    if (stringWidth(join(head, longer)) > width) break;
    tail = longer;
    next--;
  }
  while (from <= next) {
    const longer = [...head, parts[from]!];
    if (stringWidth(join(longer, tail)) > width) break;
    head = longer;
    from++;
  }
  return from > next ? path : join(head, tail);
}
