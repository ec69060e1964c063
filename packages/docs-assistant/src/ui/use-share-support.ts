/**
 * What the header's menu offers of sharing and support: "Share" once the conversation has a
 * thread and the service says it shares (its `/health`), and "Contact support" (the `support`
 * option) as a link or a call carrying the conversation. Their code is the share chunk, loaded
 * only once either can be offered.
 */
import { useEffect, useState } from 'react';
import type { AssistantMessage } from '../chat/types.js';
import type { CoreLabels } from '../labels/types.js';
import { serviceOffers } from '../protocol/capabilities.js';
import type { SupportOption } from '../views/support/types.js';
import { type ShareSupportModule, shareSupport } from './lazy-views.js';

export interface ShareSupportInput {
  options: Parameters<ShareSupportModule['sharingSupported']>[0];
  share: boolean | undefined;
  support: SupportOption | undefined;
  threadKey: string | undefined;
}

/** The share chunk once wanted and loaded, and whether the service shares conversations. */
export function useShareSupport({ options, share, support, threadKey }: ShareSupportInput) {
  const canAskShare = share !== false && !!threadKey;
  const wanted = canAskShare || !!support;
  const [module, setModule] = useState<ShareSupportModule | null>(null);
  const [shares, setShares] = useState(false);
  useEffect(() => {
    if (!wanted || module) return;
    let live = true;
    shareSupport().then(
      (loaded) => live && setModule(loaded),
      (cause: unknown) => console.error('[docs-assistant] sharing and support could not be loaded', cause),
    );
    return () => {
      live = false;
    };
  }, [wanted, module]);
  useEffect(() => {
    if (!module || !canAskShare) return;
    let live = true;
    void module.sharingSupported(options, serviceOffers).then((yes) => live && setShares(yes));
    return () => {
      live = false;
    };
  }, [module, canAskShare, options]);
  return { module, canShare: canAskShare && shares };
}

/** "Contact support" as a menu entry: a link (URL, mailto) or a call, with the conversation so far. */
export function supportEntry(
  module: ShareSupportModule | null,
  support: SupportOption | undefined,
  messages: AssistantMessage[],
  labels: CoreLabels,
  textOf: (message: AssistantMessage) => string,
): { href?: string; external?: boolean; run: () => void } | null {
  const kind = module?.supportLinkKind(support);
  if (!module || !kind || !support) return null;
  if (typeof support === 'function') {
    return { run: () => support(module.supportTranscript('menu', messages, module.pageUrl(), textOf)) };
  }
  const words = module.shareLabels(labels);
  const href = module.supportHref(support, messages, module.pageUrl(), words.supportSubject, textOf);
  return { href, external: kind === 'url', run: () => {} };
}
