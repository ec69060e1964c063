/**
 * Shared conversations: the owner of a thread (who holds its key) shares it, and anyone with the
 * assistant key and the share id reads its questions and answers as they were then, read-only.
 *
 * - `POST /discovery/v1/assistant/{domain}/threads/{threadId}/share` with `{ fp, threadKey }`
 *   answers `201 { shareId, createdAt }`.
 * - `GET /discovery/v1/assistant/{domain}/shares/{shareId}` answers the transcript.
 * - `DELETE /discovery/v1/assistant/{domain}/threads/{threadId}/share/{shareId}` with
 *   `{ fp, threadKey }` revokes it (204); the share then answers 404.
 *
 * A share id is 192 random bits, and only its SHA-256 is stored, as for thread keys. It names the
 * share, not the thread: the transcript carries neither the thread's id nor its key, and the
 * message endpoints do not know a share id, so it can neither read on nor continue the thread. A
 * share shows the turns finished when it was made (later ones are not shared) that the thread
 * still keeps; it goes when the thread goes (retention) or when its owner revokes it.
 */
import type { Context } from 'hono';
import { type AdmittedRequest, type AssistantRuntime, admitted, threadDomain } from '../assistant.js';
import { siteLinkBuilder } from '../docs/sites/published.js';
import {
  admission as admit,
  bodyCap,
  discoveryWrongMethod,
  HttpError,
  RouteFamily,
  rateLimitHeaders,
  readJsonBody,
  type ServiceEnv,
} from '../http/index.js';
import type { ShareStorage, ThreadStorage } from '../storage/types.js';
import { hashThreadKey, MAX_TURNS, type Thread } from '../threads.js';

export const SHARE_CREATE_ROUTE = '/discovery/v1/assistant/:domain/threads/:threadId/share';
export const SHARE_ROUTE = '/discovery/v1/assistant/:domain/shares/:shareId';
export const SHARE_REVOKE_ROUTE = '/discovery/v1/assistant/:domain/threads/:threadId/share/:shareId';

/** Shares one thread may have at once; past it, one must be revoked first. */
export const MAX_SHARES_PER_THREAD = 20;

/** What `/health` lists when this service shares conversations (the widget shows "Share" then). */
export const SHARE_CAPABILITY = 'share';

const SHARE_ID = /^shr_[A-Za-z0-9_-]{32}$/;

/** A new share id: `shr_` and 24 random bytes in base64url (192 bits). */
export function newShareId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  const base64 = btoa(String.fromCharCode(...bytes));
  return `shr_${base64.replaceAll('+', '-').replaceAll('/', '_')}`;
}

/** The storage's shares, when it keeps them (every storage of this package does). */
export function shareStorage(storage: ThreadStorage): (ThreadStorage & ShareStorage) | undefined {
  return 'createShare' in storage ? (storage as ThreadStorage & ShareStorage) : undefined;
}

/** A source of a shared answer. */
export interface SharedSource {
  title: string;
  path: string;
  url: string;
}

/** One message of a shared transcript. */
export type SharedMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; sources: SharedSource[] };

/** The body of `GET …/shares/{shareId}`. */
export interface SharedTranscript {
  shareId: string;
  /** When it was shared (ISO). */
  createdAt: string;
  /** The first question, as a title. */
  title: string;
  messages: SharedMessage[];
}

interface OwnerBody {
  fp: string;
  threadKey: string;
}

async function readOwner(c: Context, runtime: AssistantRuntime): Promise<OwnerBody> {
  const body = await readJsonBody(c.req.raw, runtime.config.maxBodyBytes);
  const record =
    body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const issues: { path: string; message: string }[] = [];
  if (typeof record.fp !== 'string' || !record.fp) {
    issues.push({ path: 'fp', message: 'must be the fingerprint the thread was started with' });
  }
  if (typeof record.threadKey !== 'string' || !record.threadKey) {
    issues.push({
      path: 'threadKey',
      message: "must be the thread's key (X-Thread-Key of its first answer)",
    });
  }
  if (issues.length) {
    throw new HttpError(
      400,
      'invalid_request',
      `Invalid request body: ${issues.map((issue) => `${issue.path} ${issue.message}`).join('; ')}.`,
      { issues },
    );
  }
  return { fp: record.fp as string, threadKey: record.threadKey as string };
}

/** The thread, for its owner only; the same 404 for an unknown thread and a wrong key or fp. */
async function ownedThread(
  runtime: AssistantRuntime,
  domain: string,
  threadId: string,
  owner: OwnerBody,
): Promise<Thread> {
  for (const protocol of ['v1', 'v2'] as const) {
    const found = await runtime.threads.find(threadId, {
      domain: threadDomain(domain, protocol),
      fp: owner.fp,
      key: owner.threadKey,
    });
    if (found.ok) return found.thread;
  }
  throw new HttpError(
    404,
    'thread_not_found',
    `Thread not found: no thread "${threadId}" with this threadKey for this reader on domain "${domain}"; only the reader who holds a thread's key can share it.`,
  );
}

function storageOf(runtime: AssistantRuntime): ThreadStorage & ShareStorage {
  const storage = shareStorage(runtime.threads.storage);
  if (!storage) {
    throw new HttpError(404, 'not_found', "This service's thread storage does not keep shares.");
  }
  return storage;
}

const json = (admitted: AdmittedRequest, body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      ...rateLimitHeaders(...admitted.decisions),
    },
  });

const shareNotFound = () =>
  new HttpError(
    404,
    'not_found',
    'Share not found: the link is wrong, was revoked by its owner, or its conversation is no longer kept.',
  );

async function handleCreate(c: Context<ServiceEnv>, runtime: AssistantRuntime): Promise<Response> {
  const admission = admitted(c);
  const storage = storageOf(runtime);
  const owner = await readOwner(c, runtime);
  const thread = await ownedThread(runtime, admission.domain.domain, c.req.param('threadId') ?? '', owner);
  const shareId = newShareId();
  const createdAt = new Date().toISOString();
  const stored = await storage.createShare(
    { idHash: await hashThreadKey(shareId), threadId: thread.id, createdAt },
    MAX_SHARES_PER_THREAD,
  );
  if (!stored) {
    throw new HttpError(
      409,
      'conflict',
      `Thread "${thread.id}" already has ${MAX_SHARES_PER_THREAD} shares (or is no longer kept); revoke one with DELETE …/threads/{threadId}/share/{shareId} first.`,
    );
  }
  return json(admission, { shareId, createdAt }, 201);
}

async function handleRead(c: Context<ServiceEnv>, runtime: AssistantRuntime): Promise<Response> {
  const admission = admitted(c);
  const storage = storageOf(runtime);
  const shareId = c.req.param('shareId') ?? '';
  // Hashed whatever the shape, so a malformed id takes as long as an unknown one.
  const idHash = await hashThreadKey(shareId);
  const found = SHARE_ID.test(shareId) ? await storage.getShare(idHash, MAX_TURNS) : undefined;
  const domain = admission.domain.domain;
  if (
    !found ||
    (found.thread.domain !== threadDomain(domain, 'v1') && found.thread.domain !== threadDomain(domain, 'v2'))
  ) {
    throw shareNotFound();
  }
  const index = await runtime.index(domain);
  const urlFor = siteLinkBuilder(admission.domain.siteUrl, index);
  const messages: SharedMessage[] = [];
  for (const turn of found.thread.turns) {
    messages.push({ role: 'user', content: turn.question });
    messages.push({
      role: 'assistant',
      content: turn.answer,
      sources: turn.sources.map((path) => ({
        title: index.page(path)?.title ?? path,
        path,
        url: urlFor(path),
      })),
    });
  }
  const transcript: SharedTranscript = {
    shareId,
    createdAt: found.share.createdAt,
    title: found.thread.turns[0]?.question ?? '',
    messages,
  };
  return json(admission, transcript);
}

async function handleRevoke(c: Context<ServiceEnv>, runtime: AssistantRuntime): Promise<Response> {
  const admission = admitted(c);
  const storage = storageOf(runtime);
  const owner = await readOwner(c, runtime);
  const thread = await ownedThread(runtime, admission.domain.domain, c.req.param('threadId') ?? '', owner);
  const removed = await storage.deleteShare(await hashThreadKey(c.req.param('shareId') ?? ''), thread.id);
  if (!removed) throw shareNotFound();
  return new Response(null, { status: 204, headers: rateLimitHeaders(...admission.decisions) });
}

/** The shares' route family: a thread's owner shares and revokes, anyone with the id reads. */
export function shareRoutes(runtime: AssistantRuntime): RouteFamily {
  const admitted = admit(runtime, { key: 'assistant' });
  const cap = bodyCap(runtime.config.maxBodyBytes);
  return new RouteFamily({ cors: 'public', wrongMethod: discoveryWrongMethod })
    .post(SHARE_CREATE_ROUTE, 'share endpoint', admitted, cap, (c) => handleCreate(c, runtime))
    .get(SHARE_ROUTE, 'shared conversation', admitted, (c) => handleRead(c, runtime))
    .delete(SHARE_REVOKE_ROUTE, 'share revocation', admitted, cap, (c) => handleRevoke(c, runtime));
}
