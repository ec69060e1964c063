import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as proxy from '../../packages/docs-assistant/src/proxy';

const PROXY_DIR = fileURLToPath(new URL('../../packages/docs-assistant/src/proxy', import.meta.url));

describe('public API of docs-assistant/proxy', () => {
  it('exposes the route factory, its header list, the one rate limiter and body reader (the service uses them too)', () => {
    expect(Object.keys(proxy).sort()).toEqual([
      'FORWARDED_RESPONSE_HEADERS',
      'FixedWindowLimiter',
      'checkRateLimit',
      'createAssistantProxy',
      'decodeJson',
      'readBody',
      'windowDecision',
      'windowStartOf',
    ]);
  });

  it('is server code: it imports only the protocol and the route kit, never React, the widget or a package', () => {
    const imports = readdirSync(PROXY_DIR).flatMap((file) =>
      [
        ...readFileSync(join(PROXY_DIR, file), 'utf8').matchAll(/^(?:import|export)[^;]*?from '([^']+)'/gms),
      ].map((match) => match[1]!),
    );
    expect(imports.length).toBeGreaterThan(0);
    expect(
      imports.filter(
        (specifier) =>
          !/^(?:\.\.\/protocol\/[\w-]+\.js|\.\.\/routes\/(?:route-kit|rate-limit|body)\.js|\.\/[\w-]+\.js)$/.test(
            specifier,
          ),
      ),
    ).toEqual([]);
  });
});
