import { describe, expect, it } from "vitest";
import { code, extract } from "./extract-helpers.js";

describe("type declarations", () => {
  it("reads interfaces, type aliases, enums and namespaces with their lines", () => {
    const { ast } = extract(code`
      export interface User {
        id: string;
      }
      type Id = User["id"];
      export const enum Role { Admin, Guest }
      export namespace Api.V1 {
        export interface Request {}
      }
    `);
    expect(ast.types).toEqual([
      { name: "User", kind: "interface", lineStart: 1, lineEnd: 3, isExported: true },
      { name: "Id", kind: "type", lineStart: 4, lineEnd: 4, isExported: false },
      { name: "Role", kind: "enum", lineStart: 5, lineEnd: 5, isExported: true },
      { name: "Api.V1", kind: "namespace", lineStart: 6, lineEnd: 8, isExported: true },
      { name: "Request", kind: "interface", lineStart: 7, lineEnd: 7, isExported: true },
    ]);
  });

  it("reads `declare module`, `declare global` and `global` inside an ambient module", () => {
    const { ast } = extract(code`
      declare module "express" {
        interface Request { user?: User }
        global {
          interface Window { app: App }
        }
      }
      declare global {
        var __APP__: string;
      }
    `);
    expect(ast.types.map((t) => [t.name, t.kind, t.lineStart])).toEqual([
      ["express", "namespace", 1],
      ["Request", "interface", 2],
      ["global", "namespace", 3],
      ["Window", "interface", 4],
      ["global", "namespace", 7],
    ]);
  });
});
