/**
 * The chat controller's code stays readable (issue 16): every file of `src/chat/` opens with a
 * comment that says what it owns. (The 80-line function bound covers both packages now, in
 * `tests/architecture/function-length.test.ts`.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const CHAT = resolve(import.meta.dirname, '../../packages/docs-assistant/src/chat');

const files = readdirSync(CHAT)
  .filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.test.ts'))
  .map((name) => ({ name, text: readFileSync(join(CHAT, name), 'utf8') }));

describe('src/chat', () => {
  it('holds the files the controller is made of', () => {
    expect(files.map((file) => file.name)).toEqual(
      expect.arrayContaining(['controller.ts', 'use-docs-assistant.ts', 'storage.ts', 'stream-tap.ts']),
    );
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
