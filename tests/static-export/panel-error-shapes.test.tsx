// @vitest-environment jsdom
/**
 * The dashboard panel shows the service's message whatever the error body's shape (issue 12): the
 * real service's `{ "error": "<message>" }`, the reference service's `{ "error", "code" }`, an
 * object `error` and a `message`. The panel calls the host handler, which calls a service over real
 * HTTP on 127.0.0.1 and passes its error through.
 */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach } from 'vitest';
import { createStaticExportHandler } from '../../packages/docs-assistant/src/static-export';
import { StaticExportPanel } from '../../packages/docs-assistant/src/static-export/react';
import { authorizeSession, dashboardRequest } from './dashboard-request';
import { ADMIN_KEY, listen } from './helpers';

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

async function panelAgainst(status: number, body: unknown) {
  const service = await listen(() => Response.json(body, { status }));
  closeServer = service.close;
  const handler = createStaticExportHandler({
    baseUrl: service.url,
    adminKey: ADMIN_KEY,
    authorize: authorizeSession,
    // jsdom is a browser for the handler's check; the test stands in for the host's backend.
    dangerouslyAllowBrowser: true,
  });
  const fetch = (input: string | URL | Request, init?: RequestInit) =>
    handler(dashboardRequest(new URL(String(input), 'http://host.test').href, init));
  render(<StaticExportPanel endpoint="/api/static-export" domain="acme" fetch={fetch} />);
}

describe('<StaticExportPanel> reads every error body shape', () => {
  it.each([
    ['the real service’s string error', 403, { error: 'Static export needs an Enterprise plan' }],
    [
      'a string error with a code',
      403,
      { error: 'Static export needs an Enterprise plan', code: 'forbidden' },
    ],
    [
      'an object error',
      403,
      { error: { code: 'forbidden', message: 'Static export needs an Enterprise plan' } },
    ],
    ['a message field', 403, { message: 'Static export needs an Enterprise plan' }],
  ])('%s', async (_name, status, body) => {
    const user = userEvent.setup();
    await panelAgainst(status, body);
    await user.click(screen.getByRole('button', { name: 'Start export' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Request failed: Static export needs an Enterprise plan',
    );
  });

  it('the handler’s own errors have the real service’s shape and are shown too', async () => {
    const user = userEvent.setup();
    const handler = createStaticExportHandler({
      baseUrl: 'http://127.0.0.1:9',
      adminKey: ADMIN_KEY,
      domain: 'acme',
      authorize: authorizeSession,
      dangerouslyAllowBrowser: true,
    });
    const refused = await handler(
      dashboardRequest('http://host.test/api/static-export/jobs', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"domain":"other"}',
      }),
    );
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: 'This endpoint only exports the domain "acme".',
      code: 'forbidden',
    });
    const fetch = (input: string | URL | Request, init?: RequestInit) =>
      handler(dashboardRequest(new URL(String(input), 'http://host.test').href, init));
    render(<StaticExportPanel endpoint="/api/static-export" domain="other" fetch={fetch} />);
    await user.click(screen.getByRole('button', { name: 'Start export' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Request failed: This endpoint only exports the domain "acme".',
    );
  });
});
