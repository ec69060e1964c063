/**
 * The service's embed routes (packages/docs-assistant-server/src/embed.ts): `GET /embed.js` and
 * `GET /embed-chunks/{file}` from a script build directory, with their caching, a clear 404 when
 * the build is missing, and no way out of the directory; by default, the installed widget
 * package's `dist/embed/`.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Hono } from 'hono';
import { embedDirectory, mountEmbedRoutes } from '../../packages/docs-assistant-server/src/embed';

let dir: string;
let app: Hono;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'embed-route-'));
  await mkdir(join(dir, 'embed-chunks'));
  await writeFile(join(dir, 'embed.js'), 'import("./embed-chunks/panel-Ab1.js");\n');
  await writeFile(join(dir, 'embed-chunks/panel-Ab1.js'), 'export default 1;\n');
  await writeFile(join(dir, 'embed-chunks/compat.module-C2o.js'), 'export default 2;\n');
  await writeFile(join(dir, 'secret.txt'), 'no');
  app = new Hono();
  mountEmbedRoutes(app, dir);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('serves embed.js as JavaScript, revalidated on every load', async () => {
  const response = await app.request('/embed.js');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(response.headers.get('cache-control')).toBe('no-cache');
  expect(await response.text()).toContain('./embed-chunks/panel-Ab1.js');
});

it('serves hashed chunks (dots in names too) cached for good', async () => {
  for (const name of ['panel-Ab1.js', 'compat.module-C2o.js']) {
    const response = await app.request(`/embed-chunks/${name}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  }
});

it('answers 404 for anything else, never a file outside the chunks', async () => {
  for (const path of [
    '/embed-chunks/missing-1.js',
    '/embed-chunks/..%2Fsecret.txt',
    '/embed-chunks/secret.txt',
  ]) {
    const response = await app.request(path);
    expect(response.status).toBe(404);
  }
});

it('says how to get the build when it is missing', async () => {
  const empty = new Hono();
  mountEmbedRoutes(empty, join(dir, 'nowhere'));
  const response = await empty.request('/embed.js');
  expect(response.status).toBe(404);
  expect(((await response.json()) as { error: string }).error).toMatch(/build the docs-assistant package/);
});

it('serves the installed widget package by default', () => {
  expect(embedDirectory()).toBe(resolve(import.meta.dirname, '../../packages/docs-assistant/dist/embed'));
});
