/**
 * The header's actions for the panel as it is now: "New conversation" and "History" as icon
 * buttons (what readers use most), then in "More": copy the conversation, search the docs, share,
 * contact support, withdraw consent, each only where it applies. Rebuilt when what they depend on
 * changes, not on every frame of a streamed answer (the messages they read are those of the last
 * pause).
 */
import { useMemo } from 'react';
import type { AssistantMessage } from '../chat/types.js';
import type { CoreLabels } from '../labels/types.js';
import type { SupportOption } from '../views/support/types.js';
import type { HeaderAction } from './header-actions.js';
import type { ShareSupportModule } from './lazy-views.js';
import type { PanelViewName } from './panel-view.js';
import { supportEntry } from './use-share-support.js';

export interface PanelActionsInput {
  labels: CoreLabels;
  view: PanelViewName;
  busy: boolean;
  /** The messages as of the last pause (see the module's comment). */
  messages: AssistantMessage[];
  canSearch: boolean;
  canShare: boolean;
  shareModule: ShareSupportModule | null;
  support: SupportOption | undefined;
  textOf: (message: AssistantMessage) => string;
  /** Each stable across renders (`useStableCallback`). */
  run: {
    newConversation: () => void;
    toggleHistory: () => void;
    toggleSearch: () => void;
    copyConversation: () => void;
    share: () => void;
    withdrawConsent: (() => void) | undefined;
  };
}

export function usePanelActions(input: PanelActionsInput): HeaderAction[] {
  const { labels, view, busy, messages, canSearch, canShare, shareModule, support, textOf, run } = input;
  return useMemo(() => {
    const answered = messages.some((message) => message.role === 'assistant');
    const contact = supportEntry(shareModule, support, messages, labels, textOf);
    const actions: HeaderAction[] = [
      {
        id: 'new-conversation',
        label: labels.newConversation,
        icon: 'compose',
        primary: true,
        disabled: messages.length === 0 && !busy,
        run: run.newConversation,
      },
      {
        id: 'history',
        label: labels.history,
        icon: 'history',
        primary: true,
        pressed: view === 'history',
        run: run.toggleHistory,
      },
      {
        id: 'copy-conversation',
        label: labels.copyConversation,
        icon: 'copy',
        when: answered && !busy && view !== 'history',
        run: run.copyConversation,
      },
      {
        id: 'search-view',
        label: labels.searchView,
        icon: 'search',
        when: canSearch,
        pressed: view === 'search',
        run: run.toggleSearch,
      },
      { id: 'share', label: labels.share, icon: 'share', when: canShare, disabled: busy, run: run.share },
      {
        id: 'contact-support',
        label: labels.contactSupport,
        icon: 'support',
        when: !!contact,
        run: contact?.run ?? (() => {}),
        href: contact?.href,
        linkProps: contact?.external ? { target: '_blank', rel: 'noopener noreferrer' } : undefined,
      },
      {
        id: 'withdraw-consent',
        label: labels.withdrawConsent,
        icon: 'consent',
        when: !!run.withdrawConsent,
        run: run.withdrawConsent ?? (() => {}),
      },
    ];
    return actions;
  }, [labels, view, busy, messages, canSearch, canShare, shareModule, support, textOf, run]);
}
