/**
 * The reader's votes, one per answer: kept for the page's life, and in localStorage (per domain)
 * when the conversation is, so a reloaded conversation shows the votes it had. Also the request that
 * sends a vote to the service (or the host's own route).
 */
import type { AssistantError } from '../../chat/types.js';
import type { FeedbackConfig, FeedbackKit } from '../../events/feedback-slot.js';
import type { FeedbackRating } from '../../events/types.js';

/** Longest comment sent (the reference service refuses a longer one with a 400). */
export const MAX_COMMENT_CHARS = 1000;
/** Votes kept per domain in localStorage; the oldest go first. */
const KEPT_VOTES = 200;

export interface Vote {
  rating: FeedbackRating;
  comment?: string;
}

const votes = new Map<string, Map<string, Vote>>();

const storageKey = (domain: string) => `docs-assistant:feedback:${domain}`;

function persisted(config: FeedbackConfig): boolean {
  const { storage } = config.options();
  return (storage === undefined || storage === 'local') && typeof localStorage !== 'undefined';
}

function votesOf(config: FeedbackConfig): Map<string, Vote> {
  const { domain } = config.options();
  let map = votes.get(domain);
  if (map) return map;
  map = new Map();
  if (persisted(config)) {
    try {
      const stored: unknown = JSON.parse(localStorage.getItem(storageKey(domain)) ?? '[]');
      if (Array.isArray(stored)) {
        for (const entry of stored) {
          if (Array.isArray(entry) && typeof entry[0] === 'string' && isVote(entry[1]))
            map.set(entry[0], entry[1]);
        }
      }
    } catch {
      // Unreadable or refused: the votes of this page only.
    }
  }
  votes.set(domain, map);
  return map;
}

function isVote(value: unknown): value is Vote {
  const vote = value as Vote | null;
  return (
    !!vote &&
    (vote.rating === 'up' || vote.rating === 'down') &&
    (vote.comment === undefined || typeof vote.comment === 'string')
  );
}

export function readVote(config: FeedbackConfig, messageId: string): Vote | undefined {
  return votesOf(config).get(messageId);
}

export function keepVote(config: FeedbackConfig, messageId: string, vote: Vote): void {
  const map = votesOf(config);
  map.delete(messageId);
  map.set(messageId, vote);
  while (map.size > KEPT_VOTES) map.delete(map.keys().next().value as string);
  if (!persisted(config)) return;
  try {
    localStorage.setItem(storageKey(config.options().domain), JSON.stringify([...map]));
  } catch {
    // Full or refused: kept for this page only.
  }
}

/** Where votes go for these options, or undefined when they are reported through `onEvent` only. */
export async function feedbackUrl(config: FeedbackConfig, kit: FeedbackKit): Promise<string | undefined> {
  const { endpoint } = config.feedback;
  if (endpoint === false) return undefined;
  if (typeof endpoint === 'string') return endpoint;
  const { api, apiKey, baseUrl, domain, fetch: fetcher = fetch } = config.options();
  // Through `api` the host's route holds the key; it has no feedback route unless it says so.
  if (api !== undefined || !apiKey || !baseUrl) return undefined;
  // A service that does not list `feedback` in its `/health` gets no votes.
  if (!(await kit.serviceOffers(baseUrl, 'feedback', fetcher))) return undefined;
  return kit.assistantEndpoint(baseUrl, domain).replace(/\/message$/, '/feedback');
}

/**
 * Posts a vote. Resolves with null when it was stored (or there is nowhere to send it), else with
 * the error as the widget maps any other request's.
 */
export async function sendVote(
  config: FeedbackConfig,
  kit: FeedbackKit,
  messageId: string,
  vote: Vote,
): Promise<AssistantError | null> {
  const { threadId, threadKey } = config;
  const own = typeof config.feedback.endpoint === 'string';
  // The service stores a vote with its thread: without one (or its key) it has nothing to attach it to.
  if (!own && (!threadId || !threadKey)) return null;
  const url = await feedbackUrl(config, kit);
  if (!url) return null;
  const options = config.options();
  const body = {
    threadId,
    threadKey,
    fp: options.fp || 'anonymous',
    messageId,
    rating: vote.rating,
    ...(vote.comment ? { comment: vote.comment.slice(0, MAX_COMMENT_CHARS) } : {}),
  };
  try {
    const response = await (options.fetch ?? fetch)(url, {
      method: 'POST',
      headers: {
        ...options.headers,
        'Content-Type': 'application/json',
        ...(own ? {} : { Authorization: `Bearer ${options.apiKey}` }),
      },
      body: JSON.stringify(body),
    });
    if (response.ok) return null;
    return kit.httpError(response.status, response.headers, await response.text());
  } catch (error) {
    return {
      kind: 'network',
      message: 'The feedback could not be sent.',
      detail: `POST ${url} failed before a response: ${error instanceof Error ? error.message : String(error)}`,
      retryable: true,
    };
  }
}
