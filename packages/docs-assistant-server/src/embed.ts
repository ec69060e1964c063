/**
 * `GET /embed.js`: the widget's script build (`docs-assistant/embed`) from the installed widget
 * package, and `GET /embed-chunks/{file}`, the chunks it loads from beside itself when the
 * assistant is first opened. A static page then needs one tag:
 * `<script type="module" src="https://assistant.example.com/embed.js"></script>`.
 * The assistant endpoint's CORS applies (a module script is fetched with CORS).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Hono } from 'hono';
import { errorResponse, RouteFamily } from './http/index.js';

const CHUNK = /^\w[\w.-]*\.js$/;

/** Where the widget package keeps its script build (`dist/embed/`), resolved like any import of it. */
export function embedDirectory(): string {
  const manifest = createRequire(import.meta.url).resolve('docs-assistant/package.json');
  return join(dirname(manifest), 'dist', 'embed');
}

export function mountEmbedRoutes(app: Hono, directory: string = embedDirectory()): void {
  const serve = async (file: string, cacheControl: string): Promise<Response> => {
    let body: Buffer;
    try {
      body = await readFile(join(directory, file));
    } catch {
      return errorResponse(
        404,
        'not_found',
        `The widget's script build has no ${file} in ${directory}; build the docs-assistant package (npm run build) or reinstall it.`,
      );
    }
    return new Response(new Uint8Array(body), {
      headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': cacheControl },
    });
  };
  const family = new RouteFamily({
    // A module script is fetched with CORS.
    cors: 'public',
    wrongMethod: (_method, purpose) => `Use GET for ${purpose}.`,
  })
    // The entry keeps its name across releases: revalidated on every load.
    .get('/embed.js', "the widget's script build", () => serve('embed.js', 'no-cache'))
    // Chunks are named by their content's hash: cached for good.
    .get('/embed-chunks/:file', "the widget's script chunks", (c) => {
      const file = c.req.param('file') ?? '';
      if (!CHUNK.test(file)) {
        return errorResponse(404, 'not_found', `No chunk of the widget's script build is named ${file}.`);
      }
      return serve(join('embed-chunks', file), 'public, max-age=31536000, immutable');
    });
  app.route('/', family.app);
}
