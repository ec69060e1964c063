/**
 * `src/parts/worker-dom.ts`: in a scope without `document` (a worker; here Node), the browser
 * build of `decode-named-character-reference` (`index.dom.js`, the one a bundler picks for a
 * worker) loads after it and decodes every reference as the package's other build does.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { characterEntities } from 'character-entities';
import { expect, it } from 'vitest';

type Decode = (value: string) => string | false;

// The package's exports map names no subpath: its files are loaded by their URLs.
const packageDir = resolve(import.meta.dirname, '../../node_modules/decode-named-character-reference');
const load = async (file: string): Promise<Decode> =>
  (await import(pathToFileURL(resolve(packageDir, file)).href)).decodeNamedCharacterReference;

it('gives the browser build of decode-named-character-reference what it needs to decode as the other build does', async () => {
  // A worker's scope: the browser build cannot load as it is.
  expect(typeof document).toBe('undefined');
  await import('../../packages/docs-assistant/src/parts/worker-dom');
  const dom = await load('index.dom.js');
  const other = await load('index.js');
  expect(dom).not.toBe(other);

  const names = Object.keys(characterEntities);
  // The whole table, legacy names without a semicolon (`not`, `amp`) among them.
  expect(names.length).toBeGreaterThan(2000);
  const differing = names.filter((name) => dom(name) !== other(name));
  expect(differing).toEqual([]);
  expect(dom('copy')).toBe('©');
  expect(dom('frac12')).toBe('½');

  // Not names, or names a semicolon-less prefix of which is one (`&not` in `&notit;`).
  for (const value of ['notit', 'foo', 'semi', 'amp', '', 'Copy', '__proto__', 'constructor', '#169']) {
    expect(dom(value), value).toBe(other(value));
  }
  expect(dom('notit')).toBe(false);
  expect(dom('foo')).toBe(false);
  expect(dom('semi')).toBe(';');
  expect(dom('amp')).toBe('&');
  expect(dom('')).toBe(false);
});
