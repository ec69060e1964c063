/**
 * The reader's half of insights: which source of an answer, and which result of the search view,
 * the reader opened. One listener on the panel queues each click; the queue goes to the service's
 * `POST …/assistant/{domain}/events` in batches, a short while after the first click and at once
 * when the page is hidden or left (a source link usually navigates away), as a `keepalive` request.
 *
 * An on-demand chunk: the panel (`useInsightsBeacon` in `ui/use-panel-events.ts`) loads it only
 * where the service's `/health` lists `insights`, the widget talks to the service itself (`apiKey`
 * + `baseUrl`, not a host route) and the deployment is not air-gapped, once the reader reaches for
 * a source or a result (it hands over what was clicked meanwhile). Consent needs no check here:
 * the panel's code never loads before the reader accepts, and the panel going (consent withdrawn)
 * stops this and drops what is still queued. A failed request is dropped too: insights are not
 * worth a retry, nor an error on the host's page.
 */
import type { RefObject } from 'react';
import type { UseDocsAssistantOptions } from '../../chat/types.js';

/** One click as the events endpoint takes it. */
interface Click {
  type: 'source-click' | 'search-click';
  path: string;
  threadId?: string;
  query?: string;
  position?: number;
}

/** What the panel holds at the time of a click. */
export interface BeaconState {
  options: UseDocsAssistantOptions;
  threadId: string | undefined;
}

/** Clicks per request: with fields cut to 200 characters, well under the endpoint's 16 kB and 50 events. */
const BATCH = 20;
/** Clicks kept while requests fail or the page stays; past it the oldest go. */
const KEPT = 100;
/** Wait after a click before sending (in ms), so clicks close together go in one request. */
const DELAY_MS = 2_000;

/** Text of a field, trimmed and cut as the service keeps it. */
const cut = (text: string | undefined) => text?.trim().slice(0, 200);

const SOURCE = 'a[data-docs-assistant="source"]';
const RESULT = 'a[data-docs-assistant="search-result"]';
const COUNTED = `${SOURCE},${RESULT}`;

/**
 * Starts recording the clicks inside `panel` on sources and results; returns what stops it (and
 * drops the queue). `query` is the question box, whose text is the search view's query. `held`:
 * the panel's links clicked before this chunk loaded, whose sources and results are queued first
 * (and sent at once when the page is hidden).
 */
export function startBeacon(
  panel: HTMLElement,
  state: RefObject<BeaconState>,
  query: RefObject<HTMLTextAreaElement | null>,
  held: readonly Element[],
): () => void {
  const queue: Click[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const { apiKey, baseUrl = '', domain, fp, headers, fetch: send = fetch } = state.current.options;
    const url = `${baseUrl.replace(/\/+$/, '')}/discovery/v1/assistant/${encodeURIComponent(domain)}/events`;
    while (queue.length) {
      const body = JSON.stringify({ fp, events: queue.splice(0, BATCH) });
      try {
        send(url, {
          method: 'POST',
          keepalive: true,
          headers: { ...headers, 'Content-Type': 'application/json', Authorization: `Bearer ${apiKey}` },
          body,
        }).catch(() => {});
      } catch {
        // A host's fetch that throws at once: dropped like a failed request.
      }
    }
  };
  const record = (link: HTMLAnchorElement) => {
    const result = link.matches(RESULT);
    queue.push({
      type: result ? 'search-click' : 'source-click',
      path: cut(new URL(link.href).pathname)!,
      threadId: result ? undefined : state.current.threadId,
      ...(result && {
        query: cut(query.current?.value),
        position: [...panel.querySelectorAll(RESULT)].indexOf(link) + 1,
      }),
    });
    queue.splice(0, queue.length - KEPT);
    timer ??= setTimeout(flush, DELAY_MS);
  };
  const onClick = (event: MouseEvent) => {
    const link = (event.target as Element | null)?.closest?.<HTMLAnchorElement>(COUNTED);
    if (link) record(link);
  };
  const onHidden = () => document.visibilityState === 'hidden' && flush();
  for (const link of held) if (link.matches(COUNTED)) record(link as HTMLAnchorElement);
  onHidden();
  panel.addEventListener('click', onClick);
  addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', onHidden);
  return () => {
    clearTimeout(timer);
    queue.length = 0;
    panel.removeEventListener('click', onClick);
    removeEventListener('pagehide', flush);
    document.removeEventListener('visibilitychange', onHidden);
  };
}
