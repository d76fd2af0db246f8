import { expect, it } from "vitest";
import { counted } from "../../../src/main/plural.js";

it("says 1 line but 0 and 2 lines, with thousands separated and irregular plurals given", () => {
  expect(counted(1, "line")).toBe("1 line");
  expect(counted(0, "line")).toBe("0 lines");
  expect(counted(2, "turn")).toBe("2 turns");
  expect(counted(12500, "line")).toBe("12,500 lines");
  expect(counted(3, "entry", "entries")).toBe("3 entries");
});
