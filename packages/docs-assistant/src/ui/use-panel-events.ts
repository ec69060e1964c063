/**
 * What the panel reports through `onEvent` on its own: each answer with its timing and source
 * count, and the clicks inside it (sources, follow-ups, copies), read by one listener on the panel
 * rather than one per link. The same listener opens a source in the panel (`sourceAction:
 * 'preview'`).
 */
import { type RefObject, useCallback, useEffect, useRef } from 'react';
import type { AssistantMessage, AssistantStatus, UseDocsAssistantOptions } from '../chat/types.js';
import type { DocsAssistantEvent } from '../events/types.js';
import { collectSources } from '../parts/index.js';
import { serviceOffers } from '../protocol/capabilities.js';
import type { PreviewTarget } from '../search/page-preview.js';
import type { BeaconState } from '../views/insights/beacon.js';

type OnFinish = NonNullable<UseDocsAssistantOptions['onFinish']>;

/**
 * The hook's `onFinish`: reports the `answer` event (time to the first text and in all, from when
 * the question went out), then calls `also` (the announcement, the host's `onFinish`).
 */
export function useAnswerEvents(
  emit: (event: DocsAssistantEvent) => void,
  status: AssistantStatus,
  answering: boolean,
  resolveHref: (href: string) => string | null,
  also: OnFinish,
): OnFinish {
  // When the question went out and when its first text came (performance.now).
  const timing = useRef<{ start: number; first?: number }>({ start: 0 });
  useEffect(() => {
    if (status === 'submitted') timing.current = { start: performance.now() };
  }, [status]);
  useEffect(() => {
    if (answering) timing.current.first ??= performance.now();
  }, [answering]);
  const latest = useRef({ resolveHref, also });
  latest.current = { resolveHref, also };
  return useCallback(
    (message: AssistantMessage, thread: { threadId?: string }) => {
      const { start, first } = timing.current;
      emit({
        type: 'answer',
        messageId: message.id,
        threadId: thread.threadId,
        timeToFirstTokenMs: first === undefined ? first : first - start,
        totalMs: performance.now() - start,
        sources: collectSources(message, latest.current.resolveHref).length,
      });
      latest.current.also(message, thread);
    },
    [emit],
  );
}

/** Whether a click is a plain one (no modifier, main button): a link then opens in the panel. */
const plainClick = (event: MouseEvent) =>
  !event.defaultPrevented && event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey;

/** Reports the clicks in the panel, and opens sources in it when `onPreview` is given. */
export function usePanelClicks(
  panelRef: RefObject<HTMLElement | null>,
  emit: (event: DocsAssistantEvent) => void,
  onPreview: ((target: PreviewTarget) => void) | undefined,
): void {
  useEffect(() => {
    const panel = panelRef.current;
    if (!panel) return;
    const onClick = (event: MouseEvent) => {
      const target = event.target as Element | null;
      const messageId =
        target?.closest?.('[data-docs-assistant="message"]')?.getAttribute('data-message-id') ?? undefined;
      const link = target?.closest?.<HTMLAnchorElement>('a[data-docs-assistant="source"]');
      const followUp = target?.closest?.<HTMLAnchorElement>('a[data-docs-assistant="suggestion"]');
      if (link) emit({ type: 'source-click', url: link.href, messageId });
      else if (followUp) emit({ type: 'suggestion-click', kind: 'follow-up', url: followUp.href, messageId });
      else if (target?.closest?.('[data-action="copy"]')) emit({ type: 'copy', target: 'answer', messageId });
      else if (target?.closest?.('[data-copy-state]')) emit({ type: 'copy', target: 'code', messageId });
      if (!link || !onPreview || !plainClick(event)) return;
      event.preventDefault();
      onPreview({ path: new URL(link.href).pathname, url: link.href, title: link.textContent ?? link.href });
    };
    panel.addEventListener('click', onClick);
    return () => panel.removeEventListener('click', onClick);
  }, [panelRef, emit, onPreview]);
}

/**
 * Insights: the clicks on sources and search results, sent to the service by an on-demand chunk
 * (`views/insights/beacon.ts`) loaded only where `/health` lists `insights` and the widget talks to
 * the service itself (`apiKey` + `baseUrl`; a host route, `api`, has neither), and only once the
 * reader reaches for one of the panel's links (the pointer over it, the focus on it, a click):
 * most readers never open a source. Clicks made before the chunk is there are handed to it (sent
 * at once if the page is hidden by then); a page left before it arrives takes them along. An
 * air-gapped widget never mounts the panel, nor does one before consent; the beacon stops, its
 * queue dropped, when the panel goes (consent withdrawn). Few bytes here: this runs in every
 * reader's panel.
 */
export function useInsightsBeacon(
  panelRef: RefObject<HTMLElement | null>,
  state: BeaconState,
  inputRef: RefObject<HTMLTextAreaElement | null>,
  /** A configuration error (a `baseUrl` that is not a URL…): then nothing is asked of the service. */
  misconfigured: unknown,
): void {
  const latest = useRef(state);
  latest.current = state;
  const { apiKey, baseUrl } = state.options;
  useEffect(() => {
    const panel = panelRef.current;
    let stop: (() => void) | undefined;
    let gone = !panel || !apiKey || !baseUrl || !!misconfigured;
    // The links clicked before the chunk is there; whether it is on its way.
    const held: Element[] = [];
    let loading = false;
    const reach = (event: Event) => {
      // Any of the widget's links: the beacon tells the sources and results among them.
      const link = (event.target as Element | null)?.closest?.('a[data-docs-assistant]');
      if (!link) return;
      if (event.type === 'click' && !stop) held.push(link);
      if (loading) return;
      loading = true;
      import('../views/insights/beacon.js').then(
        (view) => {
          if (!gone) stop = view.startBeacon(panel!, latest, inputRef, held);
        },
        () => {},
      );
    };
    const REACH = ['pointerover', 'focusin', 'click'] as const;
    if (!gone) {
      serviceOffers(baseUrl!, 'insights', latest.current.options.fetch).then(
        (offered) => {
          if (offered && !gone) for (const type of REACH) panel!.addEventListener(type, reach, true);
        },
        () => {},
      );
    }
    return () => {
      gone = true;
      for (const type of REACH) panel?.removeEventListener(type, reach, true);
      stop?.();
    };
  }, [panelRef, apiKey, baseUrl, inputRef, misconfigured]);
}
