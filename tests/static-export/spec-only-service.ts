/**
 * A static export service that answers with exactly the fields the spec lists (§4.2–4.4) and
 * nothing else: `{ jobId }`, `{ status, progress?, pageCount? }`, `{ bundleUrl, expiresAt }`, with
 * a status the spec does not name on the way. Served over real HTTP on 127.0.0.1.
 */
import { Hono } from 'hono';
import { createTarGz } from '../../packages/docs-assistant-server/src/static-export/bundle';
import { listen } from './helpers';

export const SPEC_ONLY_ADMIN_KEY = 'svc_spec_only_admin';

/** What `GET /jobs/{jobId}` answers, poll after poll (the last one repeats). */
export const SPEC_ONLY_STATUSES: Record<string, unknown>[] = [
  { status: 'queued' },
  { status: 'running', progress: 40, pageCount: 6 },
  // Not a status the spec names: a client shows it and keeps polling.
  { status: 'packaging', progress: 95, pageCount: 10 },
  { status: 'completed' },
];

export interface SpecOnlyService {
  url: string;
  /** `METHOD path` of every request, in order. */
  requests: string[];
  /** Makes every later status answer of this job the given body (e.g. stuck in an unknown status). */
  pin: (jobId: string, body: Record<string, unknown>) => void;
  close: () => Promise<void>;
}

export async function startSpecOnlyService(): Promise<SpecOnlyService> {
  const app = new Hono();
  const requests: string[] = [];
  const polls = new Map<string, number>();
  const pinned = new Map<string, Record<string, unknown>>();
  let next = 1;
  const archive = createTarGz([
    { path: 'index.html', data: new TextEncoder().encode('<!doctype html><title>Docs</title>') },
  ]);
  app.use('*', async (c, next) => {
    requests.push(`${c.req.method} ${c.req.path}`);
    if (
      !c.req.path.startsWith('/files/') &&
      c.req.header('authorization') !== `Bearer ${SPEC_ONLY_ADMIN_KEY}`
    ) {
      return c.json({ error: { code: 'unauthorized', message: 'bad key' } }, 401);
    }
    await next();
  });
  app.post('/v1/static-export/jobs', async (c) => {
    const body = (await c.req.json()) as { domain?: unknown };
    if (typeof body.domain !== 'string')
      return c.json({ error: { code: 'invalid_request', message: 'domain' } }, 400);
    const jobId = `job-${next++}`;
    polls.set(jobId, 0);
    return c.json({ jobId });
  });
  app.get('/v1/static-export/jobs/:jobId', (c) => {
    const jobId = c.req.param('jobId');
    const seen = polls.get(jobId);
    if (seen === undefined) return c.json({ error: { code: 'not_found', message: 'no such job' } }, 404);
    polls.set(jobId, seen + 1);
    return c.json(pinned.get(jobId) ?? SPEC_ONLY_STATUSES[Math.min(seen, SPEC_ONLY_STATUSES.length - 1)]!);
  });
  app.post('/v1/static-export/jobs/:jobId/bundle', (c) => {
    const jobId = c.req.param('jobId');
    if (!polls.has(jobId)) return c.json({ error: { code: 'not_found', message: 'no such job' } }, 404);
    return c.json({
      bundleUrl: `${new URL(c.req.url).origin}/files/${jobId}.tar.gz`,
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
  });
  app.get(
    '/files/:file',
    () => new Response(new Uint8Array(archive), { headers: { 'Content-Type': 'application/gzip' } }),
  );
  const server = await listen(app.fetch);
  return {
    url: server.url,
    requests,
    pin: (jobId, body) => pinned.set(jobId, body),
    close: server.close,
  };
}
