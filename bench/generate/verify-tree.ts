// An independent check of a generated tree with the TypeScript compiler API: every code file parses, and
// every internal import (relative, `@acme/*`, `~/*`, `@/*`) resolves to a file that exports the imported
// names. Used by the unit test; bench scripts may use it as ground truth for the indexer's import graph.

import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

import ts from "typescript";

import { MANIFEST_FILE, type BenchManifest } from "./manifest.js";

export interface TreeReport {
  codeFiles: number;
  parseFailures: string[];
  /** Internal import / re-export / require / import() edges found. */
  internalEdges: number;
  unresolved: string[];
  missingNames: string[];
}

const CODE = /\.(ts|tsx|js|jsx|cjs|mjs)$/;

function scriptKind(file: string): ts.ScriptKind {
  if (file.endsWith(".tsx")) return ts.ScriptKind.TSX;
  if (file.endsWith(".jsx")) return ts.ScriptKind.JSX;
  if (file.endsWith(".ts")) return ts.ScriptKind.TS;
  return ts.ScriptKind.JS;
}

export function verifyTree(root: string, files: readonly string[]): TreeReport {
  const manifest = JSON.parse(readFileSync(path.join(root, MANIFEST_FILE), "utf8")) as BenchManifest;
  const skip = new Set([...manifest.paths.binary, ...manifest.paths.nonUtf8, ...manifest.paths.ignored.map((i) => i.path)]);
  const sources = new Map<string, ts.SourceFile>();
  const report: TreeReport = { codeFiles: 0, parseFailures: [], internalEdges: 0, unresolved: [], missingNames: [] };

  const source = (file: string): ts.SourceFile => {
    let sf = sources.get(file);
    if (!sf) {
      sf = ts.createSourceFile(file, readFileSync(path.join(root, file), "utf8"), ts.ScriptTarget.Latest, false, scriptKind(file));
      sources.set(file, sf);
    }
    return sf;
  };

  const resolveFile = (base: string): string | undefined => {
    const stem = base.replace(/\.(js|cjs|mjs)$/, "");
    for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
      const full = path.join(root, candidate);
      if (existsSync(full) && statSync(full).isFile()) return candidate;
    }
    return undefined;
  };

  /** undefined: internal but missing; null: external (npm package or node builtin). */
  const resolve = (from: string, spec: string): string | undefined | null => {
    if (spec.startsWith(".")) return resolveFile(path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)));
    const workspace = /^@acme\/([^/]+)(?:\/(.*))?$/.exec(spec);
    if (workspace) return resolveFile(workspace[2] ? `packages/${workspace[1]}/src/${workspace[2]}` : `packages/${workspace[1]}/src/index.ts`);
    if (spec.startsWith("~/")) return resolveFile(`apps/web/src/${spec.slice(2)}`);
    if (spec.startsWith("@/")) return resolveFile(`apps/api/src/${spec.slice(2)}`);
    return null;
  };

  const exportCache = new Map<string, Set<string>>();
  const exportsOf = (file: string, visiting = new Set<string>()): Set<string> => {
    const cached = exportCache.get(file);
    if (cached) return cached;
    const names = new Set<string>();
    if (visiting.has(file)) return names; // barrel cycles
    visiting.add(file);
    const sf = source(file);
    if (file.endsWith(".cjs")) {
      const match = /module\.exports = \{ (.*) \};/.exec(sf.text);
      for (const name of match?.[1]?.split(", ") ?? []) names.add(name);
    }
    for (const statement of sf.statements) {
      const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
      if (modifiers.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
        if (modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) names.add("default");
        else if (ts.isVariableStatement(statement)) {
          for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) names.add(d.name.text);
        } else {
          const name = (statement as ts.Node & { name?: ts.Node }).name;
          if (name && ts.isIdentifier(name)) names.add(name.text);
        }
      }
      if (ts.isExportAssignment(statement)) names.add("default");
      if (ts.isExportDeclaration(statement)) {
        if (statement.exportClause && ts.isNamedExports(statement.exportClause)) {
          for (const element of statement.exportClause.elements) names.add(element.name.text);
        } else if (statement.exportClause) names.add(statement.exportClause.name.text);
        else if (statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
          const target = resolve(file, statement.moduleSpecifier.text);
          if (target) for (const name of exportsOf(target, visiting)) if (name !== "default") names.add(name);
        }
      }
    }
    exportCache.set(file, names);
    return names;
  };

  for (const file of files) {
    if (!CODE.test(file) || skip.has(file)) continue;
    report.codeFiles++;
    const sf = source(file);
    const diagnostics = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
    if (diagnostics.length > 0) report.parseFailures.push(`${file}: ${ts.flattenDiagnosticMessageText(diagnostics[0]?.messageText ?? "", " ")}`);
    if (file.includes("/generated/")) continue;
    const check = (spec: string, names: readonly string[]) => {
      if (spec.endsWith(".css")) return;
      const target = resolve(file, spec);
      if (target === null) return;
      report.internalEdges++;
      if (target === undefined) {
        report.unresolved.push(`${file} → ${spec}`);
        return;
      }
      const available = exportsOf(target);
      for (const name of names) if (!available.has(name)) report.missingNames.push(`${file} → ${spec}: ${name}`);
    };
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const clause = node.importClause;
        const names = clause?.name ? ["default"] : [];
        if (clause?.namedBindings && ts.isNamedImports(clause.namedBindings)) {
          for (const element of clause.namedBindings.elements) names.push((element.propertyName ?? element.name).text);
        }
        check(node.moduleSpecifier.text, names);
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        check(node.moduleSpecifier.text, []);
      } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0] as ts.Node)) {
        const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
        const isRequire = ts.isIdentifier(node.expression) && node.expression.text === "require";
        if (isImport || isRequire) check((node.arguments[0] as ts.StringLiteral).text, []);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return report;
}
