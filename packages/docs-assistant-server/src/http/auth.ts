/**
 * API keys (spec §5): which organization a bearer key belongs to and which kind it is, and the
 * refusals that say which key to send. The bearer header itself is read by hono's `bearerAuth`
 * (`admission.ts`); these are the answers it gives.
 */
import { keyKind } from 'docs-assistant/protocol';
import type { DomainConfig, OrganizationConfig, ServiceConfig } from '../config.js';
import { HttpError } from './errors.js';

export type KeyKind = 'assistant' | 'admin';

export interface KeyOwner {
  organization: OrganizationConfig;
  kind: KeyKind;
}

/** The organization a key belongs to, and which kind of key it is there. */
export function findKeyOwner(config: ServiceConfig, key: string): KeyOwner | undefined {
  for (const organization of config.organizations) {
    if (organization.assistantKeys.includes(key)) return { organization, kind: 'assistant' };
    if (organization.adminKeys.includes(key)) return { organization, kind: 'admin' };
  }
  return undefined;
}

const BEARER_CHALLENGE = { 'WWW-Authenticate': 'Bearer' };

const WANTED: Record<KeyKind, string> = {
  assistant: 'an assistant API key (svc_dsc_…)',
  admin: 'an admin API key (svc_…, a server-side secret)',
};

/** 401: no bearer key in the request. */
export const missingKey = (kind: KeyKind): HttpError =>
  new HttpError(
    401,
    'unauthorized',
    `Missing API key: send "Authorization: Bearer <key>" with ${WANTED[kind]}.`,
    {
      headers: BEARER_CHALLENGE,
    },
  );

/** 401: a key no organization has. */
export function unknownKey(kind: KeyKind, token: string): HttpError {
  const shape = keyKind(token) === 'invalid' ? ' It does not look like a svc_dsc_ or svc_ key.' : '';
  return new HttpError(
    401,
    'unauthorized',
    `Invalid API key: no organization has this key.${shape} Use ${WANTED[kind]}.`,
    { headers: BEARER_CHALLENGE },
  );
}

/** 403: a valid key of the other kind. */
export function wrongKeyKind(wanted: KeyKind): HttpError {
  const message =
    wanted === 'assistant'
      ? 'This is an admin API key (svc_…), a server-side secret: never send it from a browser. ' +
        'Use the assistant API key (svc_dsc_…) for the assistant endpoint.'
      : 'This is an assistant API key (svc_dsc_…); the static export API needs an admin API key (svc_…).';
  return new HttpError(403, 'forbidden', message);
}

/**
 * The domain a request's path names, when the key's organization owns it: 404 for a domain the
 * service does not serve, 403 for another organization's key, each saying what to change.
 */
export function ownedDomain(config: ServiceConfig, owner: KeyOwner, domainName: string): DomainConfig {
  const domain = config.domains.find((d) => d.domain === domainName);
  if (!domain) {
    throw new HttpError(
      404,
      'not_found',
      `Unknown domain "${domainName}"; check the domain in the request path.`,
    );
  }
  if (domain.organization !== owner.organization.id) {
    throw new HttpError(
      403,
      'forbidden',
      `This ${owner.kind} key is not valid for domain "${domainName}"; use the ${owner.kind} key of the organization that owns it.`,
    );
  }
  return domain;
}
