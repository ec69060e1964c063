/**
 * The source files of both packages and what each one imports, read with TypeScript's own parser,
 * so the architecture tests check real import statements (static, type-only, re-exports, dynamic
 * `import()`, `import('x').T` types and `require`) and never a comment or a string that looks like
 * one. Specifiers resolve to files the way the build does: relative paths with `.js` standing for
 * `.ts`/`.tsx`, and `docs-assistant/*` through the workspace's source aliases.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { sourceAliases } from '../../vite.config.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
export const PACKAGES = {
  widget: 'packages/docs-assistant/src',
  server: 'packages/docs-assistant-server/src',
} as const;

/** How an import reaches its target: `type` ones are erased from the emitted JavaScript. */
export type ImportKind = 'static' | 'type' | 'dynamic';

export interface Import {
  /** The specifier as written. */
  specifier: string;
  kind: ImportKind;
  /** The file it resolves to, relative to the repository root; absent for a package from npm. */
  target?: string;
  /** 1-based line of the statement. */
  line: number;
}

export interface SourceFile {
  /** Relative to the repository root, with forward slashes. */
  path: string;
  text: string;
  imports: Import[];
}

const SOURCE = /\.(ts|tsx|mts)$/;
const NOT_SOURCE = /(\.test\.tsx?|\.d\.ts)$/;

function listSources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return listSources(path);
    return SOURCE.test(entry.name) && !NOT_SOURCE.test(entry.name) ? [path] : [];
  });
}

function asFile(absolute: string): string | undefined {
  const stem = absolute.replace(/\.(js|jsx|mjs)$/, '');
  const candidates = [absolute, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, join(absolute, 'index.ts')];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

function resolveSpecifier(from: string, specifier: string): string | undefined {
  let absolute: string | undefined;
  if (specifier.startsWith('.')) absolute = resolve(ROOT, dirname(from), specifier);
  else {
    const alias = sourceAliases.find((entry) => entry.find.test(specifier));
    if (alias) absolute = alias.replacement;
  }
  const file = absolute && asFile(absolute);
  return file ? relative(ROOT, file).split('\\').join('/') : undefined;
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import 'x'` runs x.
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  // A default import or a namespace import is a value import.
  if (clause.name || !bindings || ts.isNamespaceImport(bindings)) return false;
  return bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
}

function isTypeOnlyExport(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return clause && ts.isNamedExports(clause) && clause.elements.length > 0
    ? clause.elements.every((element) => element.isTypeOnly)
    : false;
}

function importOf(node: ts.Node): { specifier: string; kind: ImportKind } | undefined {
  if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
    return { specifier: node.moduleSpecifier.text, kind: isTypeOnlyImport(node) ? 'type' : 'static' };
  }
  if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
    return { specifier: node.moduleSpecifier.text, kind: isTypeOnlyExport(node) ? 'type' : 'static' };
  }
  if (ts.isImportTypeNode(node)) {
    const literal = ts.isLiteralTypeNode(node.argument) ? node.argument.literal : undefined;
    return literal && ts.isStringLiteral(literal) ? { specifier: literal.text, kind: 'type' } : undefined;
  }
  if (ts.isCallExpression(node)) {
    const [first] = node.arguments;
    if (!first || !ts.isStringLiteralLike(first)) return undefined;
    if (node.expression.kind === ts.SyntaxKind.ImportKeyword)
      return { specifier: first.text, kind: 'dynamic' };
    if (ts.isIdentifier(node.expression) && node.expression.text === 'require') {
      return { specifier: first.text, kind: 'static' };
    }
  }
  if (
    ts.isImportEqualsDeclaration(node) &&
    ts.isExternalModuleReference(node.moduleReference) &&
    ts.isStringLiteral(node.moduleReference.expression)
  ) {
    return { specifier: node.moduleReference.expression.text, kind: node.isTypeOnly ? 'type' : 'static' };
  }
  return undefined;
}

/** Parses `text` (a file at `path`, relative to the root) and lists its imports. */
export function parseImports(path: string, text: string): Import[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, scriptKind(path));
  const found: Import[] = [];
  const visit = (node: ts.Node) => {
    const hit = importOf(node);
    if (hit) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      const target = resolveSpecifier(path, hit.specifier);
      found.push(target ? { ...hit, target, line } : { ...hit, line });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

export function scriptKind(path: string): ts.ScriptKind {
  return path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
}

let cache: SourceFile[] | undefined;

/** Every source file of both packages (tests and declaration files left out), parsed once. */
export function sourceFiles(): SourceFile[] {
  cache ??= Object.values(PACKAGES)
    .flatMap(listSources)
    .map((path) => {
      const text = readFileSync(join(ROOT, path), 'utf8');
      return { path, text, imports: parseImports(path, text) };
    });
  return cache;
}
