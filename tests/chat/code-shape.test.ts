/**
 * The chat controller's code stays readable (issue 16): no function in `src/chat/` is longer than
 * 80 lines, and every file opens with a comment that says what it owns. Read with the TypeScript
 * parser, so arrow functions, methods and nested functions count as functions too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const CHAT = resolve(import.meta.dirname, '../../packages/docs-assistant/src/chat');
const MAX_LINES = 80;

const files = readdirSync(CHAT)
  .filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.test.ts'))
  .map((name) => ({ name, text: readFileSync(join(CHAT, name), 'utf8') }));

/** Every function with a body in `text`: its name (or where it is) and how many lines it spans. */
function functionLengths(name: string, text: string): { fn: string; lines: number }[] {
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  const found: { fn: string; lines: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const label = 'name' in node && node.name ? node.name.getText(source) : `function at line ${first + 1}`;
      found.push({ fn: `${name}: ${label}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('src/chat', () => {
  it('holds the files the controller is made of', () => {
    expect(files.map((file) => file.name)).toEqual(
      expect.arrayContaining(['controller.ts', 'use-docs-assistant.ts', 'storage.ts', 'stream-tap.ts']),
    );
  });

  it(`has no function longer than ${MAX_LINES} lines`, () => {
    const all = files.flatMap((file) => functionLengths(file.name, file.text));
    // The check sees the functions (a parse that found none would pass anything).
    expect(all.length).toBeGreaterThan(50);
    expect(all.filter((entry) => entry.lines > MAX_LINES)).toEqual([]);
  });

  it('opens every file with a comment saying what it owns', () => {
    const missing = files.filter((file) => {
      const opening = /^\s*(\/\*\*?[\s\S]*?\*\/|(\/\/[^\n]*\n)+)/.exec(file.text)?.[0] ?? '';
      // A sentence, not a stray marker: some words of prose.
      return (
        opening
          .replace(/[/*\s]+/g, ' ')
          .trim()
          .split(' ').length < 8
      );
    });
    expect(missing.map((file) => file.name)).toEqual([]);
  });
});
