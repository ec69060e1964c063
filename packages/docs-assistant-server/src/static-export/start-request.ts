/**
 * What a start request names, read the way the real service's clients write it: `domain` as the
 * domain's name or as the docs site's hostname (`docs.example.com`), `paths` with or without a
 * leading slash (`"guides/getting-started"`, `"index"` for the home page).
 */
import type { DomainConfig, ServiceConfig } from '../config.js';
import { HttpError } from '../http/index.js';

const hostOf = (siteUrl: string | undefined): { host: string; hostname: string } | undefined => {
  if (!siteUrl) return undefined;
  try {
    const url = new URL(siteUrl);
    return { host: url.host.toLowerCase(), hostname: url.hostname.toLowerCase() };
  } catch {
    return undefined;
  }
};

/** `acme (docs.acme.com)` for each domain, for messages that say what can be exported. */
function describeDomains(domains: readonly DomainConfig[]): string {
  return domains
    .map((d) => {
      const host = hostOf(d.siteUrl)?.host;
      return host && host !== d.domain ? `"${d.domain}" (${host})` : `"${d.domain}"`;
    })
    .join(', ');
}

/**
 * The domain of `organizationId` a start request names: by its name, else by the hostname of its
 * `siteUrl`. A domain with a protocol or a path is a 400 naming the hostname to send; a domain the
 * organization does not have (unknown, or another organization's: the same answer, so names leak
 * nothing) is a 403 listing the organization's domains.
 */
export function resolveExportDomain(
  config: ServiceConfig,
  organizationId: string,
  requested: string,
): DomainConfig {
  const own = config.domains.filter((d) => d.organization === organizationId);
  const byName = own.find((d) => d.domain === requested);
  if (byName) return byName;

  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(requested) || requested.includes('/')) {
    let hint = '';
    try {
      hint = ` (here "${new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(requested) ? requested : `https://${requested}`).host}")`;
    } catch {
      // No hostname to suggest.
    }
    throw new HttpError(
      400,
      'invalid_request',
      `"domain" must be the domain's name or the docs site's hostname, without protocol or path${hint}: for example "docs.example.com".`,
      {
        issues: [
          { path: 'domain', message: 'must be a domain name or a hostname, without protocol or path' },
        ],
      },
    );
  }

  const wanted = requested.toLowerCase().replace(/\.$/, '');
  const byHost = own.find((d) => {
    const host = hostOf(d.siteUrl);
    return !!host && (host.hostname === wanted || host.host === wanted);
  });
  if (byHost) return byHost;

  const listed = own.length
    ? `Its domains: ${describeDomains(own)}; send one of these names or hostnames.`
    : 'It has no domain configured on this service.';
  throw new HttpError(
    403,
    'forbidden',
    `Organization "${organizationId}" has no domain "${requested}" to export. ${listed}`,
  );
}

/**
 * A requested page path in the form the renderer matches: a leading `/`, no trailing `/`, no
 * `.html`/`.md`/`.mdx`. A path ending in `index` (`"index"`, `"guides/index"`) keeps it: it names
 * that folder's index page alone, where `/guides` also takes the pages under it.
 */
export function normalizeExportPath(path: string): string {
  const bare = path
    .trim()
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.(html?|mdx?)$/i, '');
  return `/${bare}`;
}
