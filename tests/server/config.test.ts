import { keyKind } from '../../packages/docs-assistant/src/protocol';
import {
  createAssistantService,
  resolveServiceConfig,
} from '../../packages/docs-assistant-server/src/service';
import { FIXTURE_DOCS } from './helpers';

describe('resolveServiceConfig', () => {
  it('turns the single-site form into a full config with generated keys', () => {
    const config = resolveServiceConfig({ docs: FIXTURE_DOCS, siteUrl: 'https://docs.example.com' });
    expect(config.domains).toEqual([
      {
        domain: 'docs-assistant',
        organization: 'docs-assistant',
        docs: [FIXTURE_DOCS],
        siteUrl: 'https://docs.example.com',
      },
    ]);
    const [org] = config.organizations;
    expect(org?.plan).toBe('enterprise');
    expect(keyKind(org?.assistantKeys[0])).toBe('assistant');
    expect(keyKind(org?.adminKeys[0])).toBe('admin');
    expect(config.maxBodyBytes).toBe(1024 * 1024);
    // Fresh keys each time: nothing guessable is shipped.
    expect(resolveServiceConfig({ docs: FIXTURE_DOCS }).organizations[0]?.assistantKeys[0]).not.toBe(
      org?.assistantKeys[0],
    );
  });

  it('defaults the docs folder to docs/', () => {
    expect(resolveServiceConfig({}).domains[0]?.docs).toEqual(['docs']);
  });

  it.each([
    [{ docs: FIXTURE_DOCS, assistantKey: 'svc_admin_like' }, /assistant keys must start with "svc_dsc_"/],
    [
      { docs: FIXTURE_DOCS, adminKey: 'svc_dsc_public' },
      /admin keys must start with "svc_" and not "svc_dsc_"/,
    ],
    [{ docs: FIXTURE_DOCS, domain: 'has space' }, /not a valid identifier/],
    [{ docs: FIXTURE_DOCS, maxBodyBytes: -1 }, /maxBodyBytes must be a positive number/],
    [{ docs: FIXTURE_DOCS, rateLimits: { perIp: { limit: 0 } } }, /rateLimits.perIp.limit/],
    [
      { organizations: [], domains: [{ domain: 'a', organization: 'ghost', docs: [FIXTURE_DOCS] }] },
      /organization "ghost", which is not listed/,
    ],
    [
      {
        organizations: [{ id: 'o', plan: 'free' as const, assistantKeys: ['svc_dsc_x'], adminKeys: [] }],
        domains: [
          { domain: 'a', organization: 'o', docs: [FIXTURE_DOCS] },
          { domain: 'a', organization: 'o', docs: [FIXTURE_DOCS] },
        ],
      },
      /listed twice/,
    ],
  ])('rejects %j with a clear error', (options, message) => {
    expect(() => resolveServiceConfig(options)).toThrow(message);
  });

  it('reports a missing docs folder when the service gets ready', async () => {
    const service = createAssistantService({ docs: '/no/such/docs', warn: () => {} });
    await expect(service.ready()).rejects.toThrow(/Docs folder "\/no\/such\/docs" does not exist/);
  });
});
