import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import type { Plan, ServiceConfig } from '../../packages/docs-assistant-server/src/config';

// A string, not a URL object: under jsdom `URL` is jsdom's, which node:url does not accept.
export const FIXTURE_DOCS = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'docs');
export const ADMIN_KEY = 'svc_admin_acme_0123456789';
export const ASSISTANT_KEY = 'svc_dsc_public_acme_0123456789';
export const OTHER_ADMIN_KEY = 'svc_admin_other_0123456789';
export const PRO_ADMIN_KEY = 'svc_admin_pro_0123456789';

/** Two enterprise organizations (acme, other) and one on the pro plan. */
export function makeConfig(
  docs: Record<string, string[]> = { acme: [FIXTURE_DOCS] },
  plan: Plan = 'enterprise',
): ServiceConfig {
  return {
    organizations: [
      { id: 'acme', plan, assistantKeys: [ASSISTANT_KEY], adminKeys: [ADMIN_KEY] },
      { id: 'other', plan: 'enterprise', assistantKeys: [], adminKeys: [OTHER_ADMIN_KEY] },
      { id: 'small', plan: 'pro', assistantKeys: [], adminKeys: [PRO_ADMIN_KEY] },
    ],
    domains: [
      ...Object.entries(docs).map(([domain, folders]) => ({
        domain,
        organization: 'acme',
        docs: folders,
        title: 'Acme Docs',
      })),
      { domain: 'other-site', organization: 'other', docs: [FIXTURE_DOCS] },
      { domain: 'small-site', organization: 'small', docs: [FIXTURE_DOCS] },
    ],
    rateLimits: {
      perOrganization: { limit: 10_000, windowMs: 3_600_000 },
      perIp: { limit: 10_000, windowMs: 86_400_000 },
    },
    maxBodyBytes: 1024 * 1024,
  };
}

export function tempDir(prefix = 'da-static-export-'): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A copy of the fixture docs the test may change or delete. */
export function copyFixtureDocs(): { path: string; remove: () => void } {
  const dir = tempDir('da-docs-');
  const path = join(dir.path, 'docs');
  cpSync(FIXTURE_DOCS, path, { recursive: true });
  return { path, remove: dir.remove };
}

/** Serves a fetch handler over real HTTP on 127.0.0.1, on a free port. */
export function listen(
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>,
): Promise<{ url: string; close: () => Promise<void> }> {
  return new Promise((resolveListen) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      resolveListen({
        url: `http://127.0.0.1:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            if ('closeAllConnections' in server) server.closeAllConnections();
          }),
      });
    });
  });
}

/** A gate a job hook waits on, to hold a job at a known point. */
export function gate(): {
  wait: () => Promise<void>;
  open: () => void;
  reached: Promise<void>;
  arrive: () => void;
} {
  let open!: () => void;
  let arrive!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  const reached = new Promise<void>((r) => {
    arrive = r;
  });
  return { wait: () => opened, open, reached, arrive };
}

export const auth = (key: string) => ({ Authorization: `Bearer ${key}` });
