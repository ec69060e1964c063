/**
 * What the host reaches the widget with: the imperative handle (`ref`: open, close, addContext,
 * ask, setInput, consent, chat) and the page's "Ask AI" collectors (a selection, a code block),
 * which add context, open the panel and focus the question box.
 */
import { type ForwardedRef, type RefObject, useEffect, useImperativeHandle, useRef } from 'react';
import { resolveCollectors } from '../context/collector-options.js';
import { startLazyCollectors } from '../context/collector-trigger.js';
import type { ContextStore } from '../context/types.js';
import type { OpenSource } from '../events/types.js';
import { shellLabels } from '../labels/shell.js';
import type { ShellLabels } from '../labels/types.js';
import type { Context } from '../protocol/index.js';
import type { PanelBridge } from './panel-bridge.js';
import type { CollectorOptions, DocsAssistantHandle, DocsAssistantProps } from './types.js';

const CONTEXT_TYPES = new Set(['code', 'textSelection']);

function assertContext(item: Context): void {
  if (!item || !CONTEXT_TYPES.has(item.type) || typeof item.value !== 'string') {
    throw new TypeError(
      `docs-assistant: addContext expects { type: 'code' | 'textSelection', value: string, path?, elementId? }; got ${JSON.stringify(item)}.`,
    );
  }
}

export interface HandleInput {
  setOpen: (open: boolean, source?: OpenSource) => void;
  store: ContextStore;
  bridge: PanelBridge;
  unavailable: boolean;
  setConsent: (given: boolean) => void;
}

export function useShellHandle(ref: ForwardedRef<DocsAssistantHandle>, input: HandleInput): void {
  const { setOpen, store, bridge, unavailable, setConsent } = input;
  useImperativeHandle(
    ref,
    () => ({
      open: (options) => setOpen(true, options?.source),
      close: () => setOpen(false),
      addContext(item) {
        assertContext(item);
        return store.add(item);
      },
      ask(question, options) {
        if (typeof question !== 'string' || !question.trim()) {
          throw new TypeError('docs-assistant: ask(question) expects a non-empty string.');
        }
        if (unavailable) return;
        const source = options?.source ?? 'api';
        bridge.ask(question, source);
        setOpen(true, source === 'url' ? 'url' : 'api');
      },
      setInput(text) {
        if (typeof text !== 'string') throw new TypeError('docs-assistant: setInput(text) expects a string.');
        bridge.setInput(text);
      },
      // Withdrawn: the notice again (with or without the `consent` option), and nothing kept.
      consent: setConsent,
      chat: () => bridge.chat(),
    }),
    [setOpen, store, unavailable, setConsent, bridge],
  );
}

export interface CollectorsInput {
  collectors: CollectorOptions | false | undefined;
  on: boolean;
  rootRef: RefObject<HTMLElement | null>;
  store: ContextStore;
  openAndFocus: (source: OpenSource) => void;
  labels: ShellLabels;
  overrides: DocsAssistantProps['labels'];
  keyShortcuts: string | undefined;
}

/**
 * The page's "Ask AI" buttons; their code loads on the reader's first interaction with the page
 * (`collector-trigger.ts`). The trigger starts in an effect, so the server renders the same and
 * nothing runs there; a new label or selector restarts it, the rest is read when used.
 */
export function useShellCollectors(input: CollectorsInput): void {
  const { labels, overrides, rootRef } = input;
  const latest = useRef(input);
  useEffect(() => {
    latest.current = input;
  });
  const { selection, codeBlocks } = resolveCollectors(input.on ? input.collectors : false);
  const label = labels.askAi;
  // A host that translated `askAi` but not `askAiAboutCode` gets its own word as the name rather
  // than an English sentence around it (the name must contain the visible text, WCAG 2.5.3).
  const accessibleLabel =
    overrides?.askAiAboutCode ?? (label === shellLabels.askAi ? shellLabels.askAiAboutCode : label);
  useEffect(
    () =>
      startLazyCollectors(document, {
        selection,
        codeBlocks,
        widgetRef: rootRef,
        label,
        accessibleLabel,
        onAsk(item: Context) {
          latest.current.store.add(item);
          latest.current.openAndFocus(item.type === 'code' ? 'code-block' : 'selection');
        },
        shortcut: () => latest.current.keyShortcuts,
      }),
    [selection, codeBlocks, rootRef, label, accessibleLabel],
  );
}
