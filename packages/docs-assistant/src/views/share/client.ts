/**
 * The share endpoints of the service (`docs-assistant-server`'s `discovery/share.ts`), called with
 * the widget's own options: the assistant key and base URL (a host route given as `api` forwards
 * only the message endpoint, so sharing needs `apiKey` and `baseUrl`). Whether the service shares
 * at all is read once per base URL from its `GET /health` (`capabilities` lists `share`); a
 * service without it (or without a health check) shows no "Share".
 */
import type { AssistantMessage, UseDocsAssistantOptions } from '../../chat/types.js';
import type { serviceOffers } from '../../protocol/capabilities.js';

/** The query parameter of a shared conversation's link. */
export const SHARE_PARAM = 'assistant-share';

export type ShareOptions = Pick<
  UseDocsAssistantOptions,
  'domain' | 'apiKey' | 'baseUrl' | 'api' | 'fetch' | 'headers' | 'fp'
>;

export interface SharedSource {
  title: string;
  path: string;
  url: string;
}

export interface SharedTranscript {
  shareId: string;
  createdAt: string;
  title: string;
  messages: (
    | { role: 'user'; content: string }
    | { role: 'assistant'; content: string; sources: SharedSource[] }
  )[];
}

const base = (options: ShareOptions) => (options.baseUrl ?? '').replace(/\/+$/, '');

/** Whether these options reach the service directly (a key and a base URL), which sharing needs. */
export const canReachService = (options: ShareOptions): boolean =>
  options.api === undefined && !!options.apiKey && /^https?:\/\//.test(options.baseUrl ?? '');

/**
 * Whether the service at `baseUrl` shares conversations (its `/health` lists `share`), asked with
 * the panel's capability probe (handed over: a lazy view imports no module the panel has).
 */
export function sharingSupported(options: ShareOptions, offers: typeof serviceOffers): Promise<boolean> {
  if (!canReachService(options)) return Promise.resolve(false);
  return offers(base(options), 'share', options.fetch);
}

async function call(options: ShareOptions, method: string, path: string, body?: unknown): Promise<Response> {
  const response = await (options.fetch ?? fetch)(
    `${base(options)}/discovery/v1/assistant/${encodeURIComponent(options.domain)}${path}`,
    {
      method,
      headers: {
        ...options.headers,
        Authorization: `Bearer ${options.apiKey}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
  );
  if (!response.ok) {
    let message = `The service answered ${response.status}.`;
    try {
      message = ((await response.json()) as { error?: string }).error ?? message;
    } catch {
      // Not JSON: the status says enough.
    }
    // `status` 404: the share (or the thread) is gone.
    throw Object.assign(new Error(message), { status: response.status });
  }
  return response;
}

const owner = (options: ShareOptions, threadKey: string) => ({ fp: options.fp ?? 'anonymous', threadKey });

/** Shares a thread: its owner (who holds the key) gets a new share id. */
export async function createShare(
  options: ShareOptions,
  threadId: string,
  threadKey: string,
): Promise<string> {
  const response = await call(
    options,
    'POST',
    `/threads/${encodeURIComponent(threadId)}/share`,
    owner(options, threadKey),
  );
  return ((await response.json()) as { shareId: string }).shareId;
}

/** Revokes a share of the thread: its link answers 404 from then on. */
export async function revokeShare(
  options: ShareOptions,
  threadId: string,
  threadKey: string,
  shareId: string,
): Promise<void> {
  await call(
    options,
    'DELETE',
    `/threads/${encodeURIComponent(threadId)}/share/${encodeURIComponent(shareId)}`,
    owner(options, threadKey),
  );
}

/** A shared transcript, read-only. */
export async function readShare(options: ShareOptions, shareId: string): Promise<SharedTranscript> {
  const response = await call(options, 'GET', `/shares/${encodeURIComponent(shareId)}`);
  return (await response.json()) as SharedTranscript;
}

/** This page's address with the share's parameter (and no other share). */
export function shareLink(shareId: string, href = location.href): string {
  const url = new URL(href);
  url.hash = '';
  url.searchParams.set(SHARE_PARAM, shareId);
  return url.href;
}

/** The page's address without the share parameter, after the shared view is left. */
export function forgetShareParam(): void {
  const url = new URL(location.href);
  if (!url.searchParams.has(SHARE_PARAM)) return;
  url.searchParams.delete(SHARE_PARAM);
  history.replaceState(history.state, '', url.href);
}

/**
 * A transcript as the messages a new conversation opens with (answers with their sources), so its
 * first question sends them as the conversation so far, on a new thread.
 */
export function seedMessages(transcript: SharedTranscript): AssistantMessage[] {
  return transcript.messages.map((message, index) => {
    const id = `shared-${index}`;
    if (message.role === 'user') {
      return { id, role: 'user', content: message.content, parts: [{ type: 'text', text: message.content }] };
    }
    return {
      id,
      role: 'assistant',
      content: message.content,
      parts: [
        { type: 'text', text: message.content },
        ...message.sources.map((source, n) => ({
          type: 'source' as const,
          source: { sourceType: 'url' as const, id: `${id}-${n}`, url: source.url, title: source.title },
        })),
      ],
    };
  });
}

// The share made of each thread here, so its owner can stop sharing later (this browser only).
const storeKey = (domain: string) => `docs-assistant:shares:${domain}`;

function readShares(domain: string): Record<string, string> {
  try {
    const value = JSON.parse(localStorage.getItem(storeKey(domain)) ?? '{}') as unknown;
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, string>)
      : {};
  } catch {
    return {};
  }
}

/** The share this browser made of a thread, if any. */
export const rememberedShare = (domain: string, threadId: string): string | undefined => {
  const id = readShares(domain)[threadId];
  return typeof id === 'string' ? id : undefined;
};

/** Remembers (or, without an id, forgets) the share of a thread; a full storage only forgets. */
export function rememberShare(domain: string, threadId: string, shareId?: string): void {
  const shares = readShares(domain);
  if (shareId) shares[threadId] = shareId;
  else delete shares[threadId];
  try {
    if (Object.keys(shares).length) localStorage.setItem(storeKey(domain), JSON.stringify(shares));
    else localStorage.removeItem(storeKey(domain));
  } catch {
    // Storage full or blocked: the share works, only revoking it later from here does not.
  }
}
