/**
 * What the hook checks before it sends anything, and the request body it sends (spec §2.1, §4.1).
 */
import { defaultLabels } from '../labels';
import {
  ANONYMOUS_FP,
  ASSISTANT_KEY_PREFIX,
  assistantMessagePath,
  type Context,
  clampCurrentPath,
  DEFAULT_RETRIEVAL_PAGE_SIZE,
  type Filter,
  joinUrl,
  keyKind,
} from '../protocol';
import type { AssistantError, AssistantMessage, UseDocsAssistantOptions } from './types';

/** Longest wait between re-renders while an answer streams (in ms): smooth to read, not a render per token. */
export const STREAM_RENDER_THROTTLE_MS = 50;

const configError = (detail: string): AssistantError => ({
  kind: 'config',
  message: defaultLabels.errorConfig,
  detail,
  retryable: false,
});

/**
 * Says what is wrong with the options before any request, or `null` when the hook may send.
 * Checked in this order: availability, domain, key, base URL.
 */
export function checkConfig(
  options: Pick<UseDocsAssistantOptions, 'domain' | 'apiKey' | 'baseUrl' | 'deployment'>,
): AssistantError | null {
  if (options.deployment === 'air-gapped') {
    return {
      kind: 'unavailable',
      message: defaultLabels.unavailable,
      detail:
        'deployment is "air-gapped": the AI assistant needs the cloud service (spec §1), so no request is made.',
      retryable: false,
    };
  }
  if (typeof options.domain !== 'string' || options.domain.trim() === '') {
    return configError(
      'domain is missing: pass the domain identifier of the deployment (the last segment of its dashboard address).',
    );
  }
  const kind = keyKind(options.apiKey);
  if (kind === 'admin') {
    return {
      ...configError(
        `apiKey is an admin key (svc_…). An admin key is a server-side secret and must never be in browser code: revoke it if it was published, and use the assistant key (${ASSISTANT_KEY_PREFIX}…) instead.`,
      ),
      message: `${defaultLabels.errorConfig} An admin key, which is a server-side secret, was given instead of the assistant key (${ASSISTANT_KEY_PREFIX}…).`,
    };
  }
  if (kind === 'invalid') {
    return configError(
      `apiKey is missing or not an assistant key: pass the assistant API key, which starts with ${ASSISTANT_KEY_PREFIX}.`,
    );
  }
  if (!isHttpUrl(options.baseUrl)) {
    return configError(
      `baseUrl ${JSON.stringify(options.baseUrl)} is not an absolute http(s) URL: pass the service address, e.g. https://api.example.com.`,
    );
  }
  return null;
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The endpoint of spec §4.1 for these options. */
export const assistantEndpoint = (baseUrl: string, domain: string): string =>
  joinUrl(baseUrl, assistantMessagePath(domain));

/** `currentPath` at send time: the option (string or function) or the page's pathname, cut to the limit. */
export function resolveCurrentPath(currentPath: UseDocsAssistantOptions['currentPath']): string | undefined {
  const path =
    typeof currentPath === 'function'
      ? currentPath()
      : (currentPath ?? (typeof location === 'undefined' ? undefined : location.pathname));
  return path ? clampCurrentPath(path) : undefined;
}

/** The request body of spec §2.1, exactly: no field the spec does not name except `threadKey`. */
export interface AssistantRequestBody {
  fp: string;
  messages: AssistantMessage[];
  threadId?: string;
  threadKey?: string;
  retrievalPageSize: number;
  filter?: Filter;
  context?: Context[];
  currentPath?: string;
}

export function buildRequestBody(input: {
  options: Pick<UseDocsAssistantOptions, 'fp' | 'retrievalPageSize' | 'filter' | 'currentPath'>;
  messages: AssistantMessage[];
  thread: { threadId?: string; threadKey?: string };
  context: Context[];
}): AssistantRequestBody {
  const { options, messages, thread, context } = input;
  const currentPath = resolveCurrentPath(options.currentPath);
  return {
    fp: options.fp || ANONYMOUS_FP,
    messages,
    ...(thread.threadId ? { threadId: thread.threadId } : {}),
    ...(thread.threadKey ? { threadKey: thread.threadKey } : {}),
    retrievalPageSize: options.retrievalPageSize ?? DEFAULT_RETRIEVAL_PAGE_SIZE,
    ...(options.filter ? { filter: options.filter } : {}),
    ...(context.length ? { context } : {}),
    ...(currentPath ? { currentPath } : {}),
  };
}
