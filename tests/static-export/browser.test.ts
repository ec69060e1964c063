// @vitest-environment jsdom
import {
  createStaticExportClient,
  createStaticExportHandler,
  StaticExportError,
} from '../../packages/docs-assistant/src/static-export';

describe('the admin client in a browser', () => {
  it('refuses to run with an admin key, explaining why and what to use instead', () => {
    expect(typeof window).toBe('object');
    let error: unknown;
    try {
      createStaticExportClient({ baseUrl: 'https://api.example.com', adminKey: 'svc_secret_123' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StaticExportError);
    const e = error as StaticExportError;
    expect(e.code).toBe('invalid_configuration');
    expect(e.message).toContain('refuses to run in a browser');
    expect(e.message).toContain('server-side secret');
    expect(e.message).toContain('createStaticExportHandler');
    expect(() =>
      createStaticExportHandler({
        baseUrl: 'https://api.example.com',
        adminKey: 'svc_secret_123',
        authorize: () => true,
      }),
    ).toThrow(/refuses to run in a browser/);
  });

  it('runs only when explicitly allowed (tests and mocks)', () => {
    const client = createStaticExportClient({
      baseUrl: 'https://api.example.com',
      adminKey: 'svc_secret_123',
      dangerouslyAllowBrowser: true,
    });
    expect(typeof client.exportSite).toBe('function');
  });
});
