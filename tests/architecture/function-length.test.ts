/**
 * No function longer than 80 lines in any source folder of either package (the rule issue 16 set
 * for `src/chat`, now for all of it; this file is its one owner). Read with TypeScript's parser, so
 * arrow functions, methods, accessors and nested functions count as functions too; a function's
 * lines run from its first token to its closing brace, nested functions included.
 *
 * No function is exempt: the last known one (`startLazyCollectors`, in the launcher) was split on
 * 2026-12-07, and the list of exceptions went with it.
 */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { scriptKind, sourceFiles } from './source-graph.ts';

const MAX_LINES = 80;

/** What a function is called: its own name, the name it is assigned to, or where it sits. */
function functionName(node: ts.SignatureDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  let parent: ts.Node = node.parent;
  // `memo(function …)`, `forwardRef((props, ref) => …)`: the name is on the variable around the call.
  while (ts.isCallExpression(parent) || ts.isParenthesizedExpression(parent) || ts.isAsExpression(parent)) {
    parent = parent.parent;
  }
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name) {
    return parent.name.getText(source);
  }
  if (ts.isExportAssignment(parent)) return 'default export';
  for (let outer = node.parent; outer; outer = outer.parent) {
    if (ts.isFunctionLike(outer)) return `a function in ${functionName(outer, source)}`;
  }
  return 'a top-level function';
}

/** Every function with a body in a file: `path: name` and how many lines it spans. */
function functionLengths(path: string, text: string): { fn: string; lines: number }[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, scriptKind(path));
  const found: { fn: string; lines: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ fn: `${path}: ${functionName(node, source)}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const all = sourceFiles().flatMap((file) => functionLengths(file.path, file.text));

describe(`functions of both packages (at most ${MAX_LINES} lines)`, () => {
  it('sees the functions of every source folder', () => {
    // A parse that found none would pass anything.
    expect(all.length).toBeGreaterThan(1500);
    for (const folder of ['packages/docs-assistant/src/', 'packages/docs-assistant-server/src/']) {
      expect(all.filter((entry) => entry.fn.startsWith(folder)).length).toBeGreaterThan(500);
    }
  });

  it('has none longer', () => {
    expect(
      all.filter((entry) => entry.lines > MAX_LINES).map((entry) => `${entry.fn} (${entry.lines} lines)`),
    ).toEqual([]);
  });
});
