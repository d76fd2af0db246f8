// The reference side of the accuracy bench: the same declarations read with the TypeScript compiler API
// (`ts.createSourceFile`, syntax only). The correspondence mirrors what extractFile promises:
//
// - functions: function declarations (overloads folded per name and container, first line), and
//   `const/let/var f = () => … | function …` declarators, in the program and in namespace bodies;
//   `export default` arrow/function expressions (named `default` when anonymous).
// - classes: class declarations, class expressions bound to a variable or exported by default.
// - methods: methods, constructors and accessors of those classes, folded per (static, accessor, name).
// - imports: top-level import / `import x = require()` / re-export statements, one per binding (`*` when
//   none); `const x = require("m")` declarators per bound name; other `import("m")` / `require("m")`
//   calls anywhere, and `import("m")` types, as `*`.
// - exports: top-level, one per exported name (duplicates from overloads or merging collapse), CommonJS
//   `module.exports = …` / `exports.x = …` included; `export { a }` takes the kind of the local declaration.
// - types: interfaces, type aliases, enums, namespaces (dotted `namespace A.B` as one), anywhere a
//   function would be collected.
// Start lines come from node.getStart() (decorators and modifiers included, JSDoc not).
import ts from "typescript";
import type { KindName } from "./compare.js";

export type Records = Record<KindName, string[]>;

export function referenceRecords(fileName: string, source: string): Records {
  const kind = /\.[cm]?jsx?$/.test(fileName) ? (fileName.endsWith("x") ? ts.ScriptKind.JSX : ts.ScriptKind.JS) : fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, kind);
  const out: Records = { functions: [], classes: [], methods: [], imports: [], exports: [], types: [] };
  const line = (node: ts.Node): number => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  const posLine = (pos: number): number => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const text = (node: ts.Node): string => node.getText(sf).replace(/\s+/g, " ").trim();
  const nameOf = (name: ts.PropertyName | ts.BindingName | undefined): string => {
    if (!name) return "default";
    if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
    return text(name);
  };
  const topKinds = new Map<string, string>();
  const hasModifier = (node: ts.Node, k: ts.SyntaxKind): boolean =>
    ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === k);
  const isFunctionValue = (e: ts.Expression | undefined): e is ts.ArrowFunction | ts.FunctionExpression =>
    !!e && (ts.isArrowFunction(e) || ts.isFunctionExpression(e));
  const valueKind = (e: ts.Expression | undefined): string => (isFunctionValue(e) ? "function" : e && ts.isClassExpression(e) ? "class" : "const");

  const addClass = (node: ts.ClassLikeDeclaration, name: string, start: number): void => {
    out.classes.push(`${name}|${start}`);
    const seen = new Set<string>();
    for (const member of node.members) {
      let accessor = "";
      if (ts.isGetAccessorDeclaration(member)) accessor = "get";
      else if (ts.isSetAccessorDeclaration(member)) accessor = "set";
      else if (!ts.isMethodDeclaration(member) && !ts.isConstructorDeclaration(member)) continue;
      const memberName = ts.isConstructorDeclaration(member) ? "constructor" : nameOf(member.name);
      const key = `${hasModifier(member, ts.SyntaxKind.StaticKeyword) ? "static " : ""}${accessor} ${memberName}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.methods.push(`${name}.${memberName}|${accessor}|${line(member)}`);
    }
  };

  const walkStatements = (statements: ts.NodeArray<ts.Statement>, topLevel: boolean): void => {
    const folded = new Set<string>();
    const exportOf = (name: string, k: string, at: number, from = ""): void => {
      if (topLevel) out.exports.push(`${name}|${k}|${at}|${from}`);
    };
    const declareTop = (name: string, k: string): void => {
      if (topLevel && !topKinds.has(name)) topKinds.set(name, k);
    };
    for (const stmt of statements) {
      const exported = hasModifier(stmt, ts.SyntaxKind.ExportKeyword);
      const start = line(stmt);
      if (ts.isFunctionDeclaration(stmt)) {
        const name = stmt.name?.text ?? "default";
        if (!folded.has(name)) out.functions.push(`${name}|${start}`);
        folded.add(name);
        declareTop(name, "function");
        if (exported) exportOf(name, "function", start);
      } else if (ts.isClassDeclaration(stmt)) {
        const name = stmt.name?.text ?? "default";
        addClass(stmt, name, start);
        declareTop(name, "class");
        if (exported) exportOf(name, "class", start);
      } else if (ts.isInterfaceDeclaration(stmt) || ts.isTypeAliasDeclaration(stmt) || ts.isEnumDeclaration(stmt)) {
        const k = ts.isInterfaceDeclaration(stmt) ? "interface" : ts.isTypeAliasDeclaration(stmt) ? "type" : "enum";
        out.types.push(`${stmt.name.text}|${k}|${start}`);
        declareTop(stmt.name.text, k);
        if (exported) exportOf(stmt.name.text, k, start);
      } else if (ts.isModuleDeclaration(stmt)) {
        let name = stmt.name.text;
        let body = stmt.body;
        while (body && ts.isModuleDeclaration(body)) {
          name += `.${body.name.text}`;
          body = body.body;
        }
        out.types.push(`${name}|namespace|${start}`);
        declareTop(name, "namespace");
        if (exported) exportOf(name, "namespace", start);
        if (body && ts.isModuleBlock(body)) walkStatements(body.statements, false);
      } else if (ts.isVariableStatement(stmt)) {
        stmt.declarationList.declarations.forEach((decl, index) => {
          const at = index === 0 ? start : line(decl);
          const init = decl.initializer;
          if (ts.isIdentifier(decl.name) && isFunctionValue(init)) out.functions.push(`${decl.name.text}|${at}`);
          if (ts.isIdentifier(decl.name) && init && ts.isClassExpression(init)) addClass(init, decl.name.text, at);
          if (topLevel && init && isRequire(init)) {
            const from = (init.arguments[0] as ts.StringLiteral).text;
            const names = boundNames(decl.name);
            for (const n of names.length > 0 ? names : ["*"]) out.imports.push(`${from}|${n}|${posLine(init.getStart(sf))}`);
            requireCalls.add(init);
          }
          const k = ts.isIdentifier(decl.name) ? valueKind(init) : "const";
          for (const n of boundNames(decl.name)) {
            declareTop(n, k);
            if (exported) exportOf(n, k, at);
          }
        });
      } else if (ts.isImportDeclaration(stmt) && topLevel) {
        const from = (stmt.moduleSpecifier as ts.StringLiteral).text;
        const clause = stmt.importClause;
        const names: string[] = [];
        if (clause?.name) names.push(clause.name.text);
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) names.push(bindings.name.text);
        if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) names.push(el.name.text);
        for (const n of names.length > 0 ? names : ["*"]) out.imports.push(`${from}|${n}|${start}`);
      } else if (ts.isImportEqualsDeclaration(stmt)) {
        if (ts.isExternalModuleReference(stmt.moduleReference) && topLevel) {
          const from = (stmt.moduleReference.expression as ts.StringLiteral).text;
          out.imports.push(`${from}|${stmt.name.text}|${start}`);
        } else if (exported) {
          exportOf(stmt.name.text, "const", start);
        }
      } else if (ts.isExportDeclaration(stmt) && topLevel) {
        const from = stmt.moduleSpecifier && ts.isStringLiteral(stmt.moduleSpecifier) ? stmt.moduleSpecifier.text : undefined;
        const clause = stmt.exportClause;
        if (from !== undefined) {
          if (clause && ts.isNamedExports(clause)) {
            for (const el of clause.elements) {
              out.imports.push(`${from}|${(el.propertyName ?? el.name).text}|${start}`);
              exportOf(el.name.text, "reexport", line(el), from);
            }
            if (clause.elements.length === 0) out.imports.push(`${from}|*|${start}`);
          } else {
            out.imports.push(`${from}|*|${start}`);
            exportOf(clause && ts.isNamespaceExport(clause) ? clause.name.text : "*", "reexport", start, from);
          }
        } else if (clause && ts.isNamedExports(clause)) {
          for (const el of clause.elements) pendingLocal.push([el.name.text, (el.propertyName ?? el.name).text, line(el)]);
        }
      } else if (ts.isExportAssignment(stmt) && topLevel) {
        const e = stmt.expression;
        if (stmt.isExportEquals) exportOf("=", "default", start);
        else if (isFunctionValue(e)) {
          const name = e.name?.text ?? "default";
          out.functions.push(`${name}|${start}`);
          exportOf(name, "function", start);
        } else if (ts.isClassExpression(e)) {
          const name = e.name?.text ?? "default";
          addClass(e, name, start);
          exportOf(name, "class", start);
        } else exportOf("default", "default", start);
      } else if (ts.isExpressionStatement(stmt) && topLevel) {
        commonJsExports(stmt, start);
      }
    }
  };

  const pendingLocal: [string, string, number][] = [];
  const requireCalls = new Set<ts.Node>();
  const commonJsExports = (stmt: ts.ExpressionStatement, start: number): void => {
    const e = stmt.expression;
    if (!ts.isBinaryExpression(e) || e.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return;
    const target = text(e.left).replace(/\s+/g, "");
    if (target === "module.exports") {
      if (ts.isObjectLiteralExpression(e.right)) {
        for (const p of e.right.properties) {
          if (ts.isShorthandPropertyAssignment(p)) pendingLocal.push([p.name.text, p.name.text, start]);
          else if (ts.isPropertyAssignment(p) && !ts.isComputedPropertyName(p.name)) {
            if (ts.isIdentifier(p.initializer)) pendingLocal.push([nameOf(p.name), p.initializer.text, start]);
            else out.exports.push(`${nameOf(p.name)}|${valueKind(p.initializer)}|${start}|`);
          } else if (ts.isMethodDeclaration(p) && !ts.isComputedPropertyName(p.name)) out.exports.push(`${nameOf(p.name)}|function|${start}|`);
        }
      } else out.exports.push(`=|default|${start}|`);
      return;
    }
    const m = /^(?:module\.)?exports\.([\w$]+)$/.exec(target);
    if (!m) return;
    if (ts.isIdentifier(e.right)) pendingLocal.push([m[1]!, e.right.text, start]);
    else out.exports.push(`${m[1]}|${valueKind(e.right)}|${start}|`);
  };

  walkStatements(sf.statements, true);
  for (const [exported, local, at] of pendingLocal) out.exports.push(`${exported}|${topKinds.get(local) ?? "const"}|${at}|`);
  // Duplicate export records (overloads, declaration merging) collapse to the first, as in extractFile.
  const seen = new Set<string>();
  out.exports = out.exports.filter((r) => {
    const [name, , , from] = r.split("|");
    const key = `${name}\0${from}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const visit = (node: ts.Node): void => {
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.imports.push(`${node.argument.literal.text}|*|${line(node)}`);
    }
    if (ts.isCallExpression(node) && !requireCalls.has(node)) {
      const arg = node.arguments[0];
      const isDynamic =
        node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === "require");
      if (isDynamic && arg && (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg))) {
        out.imports.push(`${arg.text}|*|${line(node)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function isRequire(e: ts.Expression): e is ts.CallExpression {
  return (
    ts.isCallExpression(e) &&
    ts.isIdentifier(e.expression) &&
    e.expression.text === "require" &&
    e.arguments.length >= 1 &&
    ts.isStringLiteral(e.arguments[0]!)
  );
}

function boundNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  const names: string[] = [];
  for (const el of name.elements) {
    if (ts.isOmittedExpression(el)) continue;
    names.push(...boundNames(el.name));
  }
  return names;
}
