import { describe, expect, it } from "vitest";
import { cls, code, extract, method } from "./extract-helpers.js";

describe("class shape", () => {
  it("reads heritage, export, lines and methods", () => {
    const result = extract(code`
      export class Repo<T> extends Base<T> implements Disposable, Store.Reader {
        constructor(url: string) {
          super(url);
        }
        async find(id: string): Promise<T> {
          return this.load(id);
        }
      }
    `);
    const repo = cls(result, "Repo");
    expect(repo).toMatchObject({ lineStart: 1, lineEnd: 8, extends: "Base<T>", implements: ["Disposable", "Store.Reader"], isExported: true });
    expect(method(repo, "constructor")).toEqual({
      name: "constructor",
      lineStart: 2,
      lineEnd: 4,
      params: ["url"],
      visibility: "public",
      isStatic: false,
      isAsync: false,
    });
    expect(method(repo, "find")).toMatchObject({ isAsync: true, returnType: "Promise<T>", lineStart: 5, lineEnd: 7 });
  });

  it("lists a getter and a setter as two methods", () => {
    const temp = cls(
      extract(code`
        class Temperature {
          get celsius(): number { return 1; }
          set celsius(value: number) {}
        }
      `),
      "Temperature",
    );
    expect(temp.methods.map((m) => [m.name, m.accessor, m.params])).toEqual([
      ["celsius", "get", []],
      ["celsius", "set", ["value"]],
    ]);
  });

  it("reads static, visibility modifiers and generator methods", () => {
    const svc = cls(
      extract(code`
        class Service {
          static create() {}
          private static async *stream() {}
          protected handle() {}
          public run() {}
          override toString() { return ""; }
        }
      `),
      "Service",
    );
    expect(svc.methods.map((m) => [m.name, m.visibility, m.isStatic, m.isAsync])).toEqual([
      ["create", "public", true, false],
      ["stream", "private", true, true],
      ["handle", "protected", false, false],
      ["run", "public", false, false],
      ["toString", "public", false, false],
    ]);
  });

  it("treats #private fields and methods as private and keeps the #", () => {
    const counter = cls(
      extract(
        code`
          class Counter {
            #count = 0;
            static #instances = 0;
            #bump() { this.#count++; }
          }
        `,
        "javascript",
      ),
      "Counter",
    );
    expect(counter.properties.map((p) => [p.name, p.visibility, p.isStatic])).toEqual([
      ["#count", "private", false],
      ["#instances", "private", true],
    ]);
    expect(method(counter, "#bump").visibility).toBe("private");
  });

  it("reads property types, readonly, optional and declare fields", () => {
    const config = cls(
      extract(code`
        class Config {
          readonly name: string = "x";
          static defaults?: Partial<Config>;
          declare loaded: boolean;
          protected retries = 3;
        }
      `),
      "Config",
    );
    expect(config.properties).toEqual([
      { name: "name", line: 2, type: "string", visibility: "public", isStatic: false, isReadonly: true },
      { name: "defaults", line: 3, type: "Partial<Config>", visibility: "public", isStatic: true, isReadonly: false },
      { name: "loaded", line: 4, type: "boolean", visibility: "public", isStatic: false, isReadonly: false },
      { name: "retries", line: 5, visibility: "protected", isStatic: false, isReadonly: false },
    ]);
  });

  it("folds method overloads into the implementation", () => {
    const parser = cls(
      extract(code`
        class Parser {
          parse(a: string): Node;
          parse(a: Buffer): Node;
          parse(a: string | Buffer): Node { return build(a); }
        }
      `),
      "Parser",
    );
    expect(parser.methods).toHaveLength(1);
    expect(parser.methods[0]).toMatchObject({ name: "parse", lineStart: 2, lineEnd: 4, params: ["a"], returnType: "Node" });
  });

  it("names computed, string and numeric members as written", () => {
    const bag = cls(extract(`class Bag { [Symbol.iterator]() {} "quoted name"() {} 42() {} }`), "Bag");
    expect(bag.methods.map((m) => m.name)).toEqual(["[Symbol.iterator]", "quoted name", "42"]);
  });
});

describe("abstract classes", () => {
  it("marks the class, abstract methods and abstract properties", () => {
    const shape = cls(
      extract(code`
        export abstract class Shape {
          protected abstract readonly sides: number;
          abstract area(): number;
          describe(): string { return "shape"; }
        }
      `),
      "Shape",
    );
    expect(shape.isAbstract).toBe(true);
    expect(shape.properties[0]).toMatchObject({ name: "sides", visibility: "protected", isReadonly: true, isAbstract: true });
    expect(method(shape, "area")).toMatchObject({ isAbstract: true, returnType: "number" });
    expect(method(shape, "describe").isAbstract).toBeUndefined();
  });
});

describe("decorators", () => {
  it("reads class, method and property decorators by name", () => {
    const result = extract(code`
      @Component({ selector: "app-root" })
      export class AppComponent {
        @Input() title: string;
        @Output() changed = new EventEmitter<string>();
        @HostListener("click", ["$event"])
        @ng.Debounce(100)
        onClick(event: Event) {}
      }
    `);
    const app = cls(result, "AppComponent");
    expect(app.decorators).toEqual(["Component"]);
    expect(app.lineStart).toBe(1);
    expect(app.properties.map((p) => [p.name, p.decorators])).toEqual([
      ["title", ["Input"]],
      ["changed", ["Output"]],
    ]);
    expect(method(app, "onClick")).toMatchObject({ decorators: ["HostListener", "ng.Debounce"], lineStart: 5, lineEnd: 7 });
  });

  it("reads decorators written after `export` and on undecorated-export classes", () => {
    expect(cls(extract(`export @Injectable() class A {}`), "A").decorators).toEqual(["Injectable"]);
    expect(cls(extract(`@Injectable()\nclass B {}`), "B").decorators).toEqual(["Injectable"]);
  });

  it("turns constructor parameter properties into properties, with their decorators", () => {
    const svc = cls(
      extract(code`
        class UserService {
          constructor(
            @Inject(TOKEN) private readonly repo: Repository<User>,
            public name = "users",
            override readonly id?: string,
            plain: number,
          ) {}
        }
      `),
      "UserService",
    );
    expect(svc.properties).toEqual([
      { name: "repo", line: 3, type: "Repository<User>", visibility: "private", isStatic: false, isReadonly: true, decorators: ["Inject"] },
      { name: "name", line: 4, visibility: "public", isStatic: false, isReadonly: false },
      { name: "id", line: 5, type: "string", visibility: "public", isStatic: false, isReadonly: true },
    ]);
    expect(method(svc, "constructor").params).toEqual(["repo", "name", "id", "plain"]);
  });

  it("reads JS decorators, which the JavaScript grammar nests in the member", () => {
    const j = cls(extract(`@observable class Model { @tracked value = 1; @action save() {} }`, "javascript"), "Model");
    expect(j.decorators).toEqual(["observable"]);
    expect(j.properties[0]!.decorators).toEqual(["tracked"]);
    expect(method(j, "save").decorators).toEqual(["action"]);
  });
});

describe("class expressions and JS classes", () => {
  it("names a class expression after its binding", () => {
    const result = extract(`export const Widget = class Internal extends Base { render() {} };`);
    expect(cls(result, "Widget")).toMatchObject({ extends: "Base", isExported: true });
    expect(result.ast.exports).toEqual([{ name: "Widget", type: "class", line: 1 }]);
  });

  it("reads JS class fields, static blocks and heritage expressions", () => {
    const result = extract(
      code`
        class Queue extends mixin(EventEmitter, Disposable) {
          items = [];
          static limit = 10;
          static { Queue.registry = new Map(); }
          push(item) { this.items.push(item); }
        }
      `,
      "javascript",
    );
    const queue = cls(result, "Queue");
    expect(queue.extends).toBe("mixin(EventEmitter, Disposable)");
    expect(queue.properties.map((p) => [p.name, p.isStatic])).toEqual([
      ["items", false],
      ["limit", true],
    ]);
    expect(queue.methods.map((m) => m.name)).toEqual(["push"]);
  });
});
